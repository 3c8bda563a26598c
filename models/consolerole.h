#pragma once

#include "core/finding.h"

#include <QModelIndex>
#include <QStringList>
#include <QVariant>
#include <optional>

// The item roles every console model answers alike, so that one view class
// (filter box, severity marks, selection across views, repair from any view)
// serves every table: the raw sort value, a stable row key, the worst
// severity about the row, the findings about it, and its filter fields.
namespace ConsoleRole {
enum : int
{
    Sort = Qt::UserRole + 1, // the raw value a column sorts by (never formatted text)
    Key, // the row's stable key: finding id, node name, "<destination> via <nexthop>", ...
    Severity, // the worst severity about the row (a ::Severity); no value when none
    Findings, // QStringList: the ids of the findings about the row
    Filter, // QVariantMap: filter field -> QStringList of values (see FilterQuery)
    FirstModelRole = Qt::UserRole + 32, // the models' own roles start here
};

// The Severity role's data for `severity`: none is no value at all.
QVariant severityData(std::optional<::Severity> severity);
// A row's severity, from its first column's Severity role; none when it has none.
std::optional<::Severity> severityOf(const QModelIndex &index);
// A severity as a filter field's values: its name, or none.
QStringList severityField(std::optional<::Severity> severity);
// "1 finding", "3 findings": a count with its noun, for words a person reads.
QString counted(qsizetype n, const QString &one, const QString &many);
// The worse of two severities (critical before warning before info before none).
std::optional<::Severity> worse(std::optional<::Severity> a, std::optional<::Severity> b);
} // namespace ConsoleRole
