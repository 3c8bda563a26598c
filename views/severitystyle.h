#pragma once

#include "core/finding.h"

#include <QColor>
#include <QIcon>
#include <QString>
#include <optional>

class QPalette;

// One look for severities across the console, defined here only: the colours
// of row tints, charts, the message banner and the tray icon, the icons and
// the words. No severity (std::nullopt) is healthy, or a positive message.
namespace SeverityStyle {
QColor colour(std::optional<Severity> severity); // strong: chart slices, icons, the banner's edge
// A row background that reads in light and dark palettes; invalid for info and none.
QColor tint(std::optional<Severity> severity);
// A background in `severity`'s colour over `palette`'s window, in which its text still reads (the banner's).
QColor wash(std::optional<Severity> severity, const QPalette &palette);
QIcon icon(std::optional<Severity> severity); // none: the "done, all well" icon
QString word(std::optional<Severity> severity); // "critical", "warning", "info", "healthy"
// Text that says something is wrong with the data itself (incomplete, stale), readable on `palette`'s base.
QColor alarmText(const QPalette &palette);
// A round status icon (the tray's, the window's state) in `severity`'s colour.
QIcon statusIcon(std::optional<Severity> severity);
} // namespace SeverityStyle
