#pragma once

#include <QIcon>
#include <QString>

// The views' own icons (resources/icons/ui): drawn for the product, legible at
// 16 px, with a rim or halo that keeps them apart on light and dark panels.
namespace Icons {
// "severity-critical", "action-refresh", …: the icon at 16, 22, 32 and 48 px.
QIcon named(const QString &name);
} // namespace Icons
