#pragma once

#include "console/consoletext.h"
#include "console/rowcopies.h"

#include <QKeySequence>
#include <QList>
#include <QString>
#include <optional>

class ConsoleModels;
class QWidget;

// The console's views, one table of them: each view's id, its name on the command line (`--view`), its title
// on its tab and in the View menu, its shortcut (Ctrl+1 to Ctrl+8, in this order) and its page, made over the
// window's models. The view container (KlusterViews), the menu, the palette and `flightdeck --view` all read
// it; a kluster's table also names what its rows are (Copy) and its caption, and its model is one of
// ConsoleModels::tables(), which the ViewPreparer fills.
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
    QWidget *(*page)(ConsoleModels &models, QWidget *parent); // its page
    bool scrolled = false; // the page scrolls as a whole (the overview's cards and charts)
    // A table of the kluster shown (a KlusterTablePage): what its rows are, and its caption.
    std::optional<RowCopies::RowKind> rows = std::nullopt;
    QString ConsoleText::Captions::*caption = nullptr;
};

namespace Tabs {

const QList<TabInfo> &all(); // in the tabs' order
const TabInfo &info(Tab tab);
QString title(Tab tab); // translated
QString name(Tab tab);
QKeySequence shortcut(Tab tab); // Ctrl+1 for the first
std::optional<Tab> fromName(const QString &name);
QStringList names();

} // namespace Tabs
