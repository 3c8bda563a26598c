#pragma once

#include <QColor>
#include <QIcon>
#include <QString>

class QPalette;

// One look for severities across the console: the colours of row tints,
// charts, the banner and the tray icon, the icons and the words. `severity`
// is int(Severity): 0 critical, 1 warning, 2 info; -1 none (healthy).
namespace SeverityStyle {
QColor colour(int severity);   // strong: chart slices, icons, the banner's edge
QColor tint(int severity);     // a row background that reads in light and dark palettes; invalid for none
QIcon icon(int severity);      // empty for none
QString word(int severity);    // "critical", "warning", "info", "healthy"
// Text that says something is wrong with the data itself (incomplete, stale), readable on `palette`'s base.
QColor alarmText(const QPalette &palette);
// A round status icon (the tray's, the window's state) in `severity`'s colour.
QIcon statusIcon(int severity);
} // namespace SeverityStyle
