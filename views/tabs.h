#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>
#include <optional>

// The console's views, one table of them: each view's id, its name on the command line (`--view`), its title
// on its tab and in the View menu, and its shortcut (Ctrl+1 to Ctrl+8, in this order). The tabs, the menu and
// `flightdeck --view` all read it.
enum class Tab
{
    Overview,
    Findings,
    Nodes,
    Routes,
    Security,
    Audit,
    Fleet,
    Changes,
};

struct TabInfo
{
    Tab tab;
    const char *name; // "findings", as `--view` takes it
    const char *title; // "Findings" (translated where shown)
};

namespace Tabs {

const QList<TabInfo> &all(); // in the tabs' order
QString title(Tab tab); // translated
QString name(Tab tab);
QKeySequence shortcut(Tab tab); // Ctrl+1 for the first
std::optional<Tab> fromName(const QString &name);
QStringList names();

} // namespace Tabs
