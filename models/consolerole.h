#pragma once

#include <Qt>

// The item roles every console model answers alike, so that one view class
// (filter box, severity marks, selection across views, repair from any view)
// serves every table: the raw sort value, a stable row key, the worst
// severity about the row, the findings about it, and its filter fields.
namespace ConsoleRole {
enum : int {
    Sort = Qt::UserRole + 1,  // the raw value a column sorts by (never formatted text)
    Key,                      // the row's stable key: finding id, node name, "<destination> via <nexthop>", ...
    Severity,                 // int(Severity) of the worst finding about the row; -1 when none
    Findings,                 // QStringList: the ids of the findings about the row
    Filter,                   // QVariantMap: filter field -> QStringList of values (see FilterQuery)
    FirstModelRole = Qt::UserRole + 32,  // the models' own roles start here
};
} // namespace ConsoleRole
