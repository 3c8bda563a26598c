#include "views/windowcommands.h"

#include "console/consolesession.h"
#include "views/acknowledgecommand.h"
#include "views/exportcommands.h"
#include "views/icons.h"
#include "views/repaircommand.h"
#include "views/tabs.h"
#include "views/teamcommands.h"

#include <QAction>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>

namespace {

bool live(const WindowFacts &f)
{
    return f.live;
}

bool refreshing(const WindowFacts &f)
{
    return f.refreshing;
}

// Previous/Next finding: only where there is one to go to (no connection, nothing read, healthy: none).
bool anyFinding(const WindowFacts &f)
{
    return f.context.data && f.context.data->diagnosis && !f.context.data->diagnosis->findings.isEmpty();
}

QString translated(const char *text)
{
    return QCoreApplication::translate("WindowCommands", text);
}

} // namespace

const QList<CommandRow> &WindowCommands::table()
{
    using I = CommandId;
    using M = WindowMenu;
    // In the menus' order. The rows without a title are commands of their own (their class names them).
    static const QList<CommandRow> rows = {
        { I::AddConnection, M::File },
        { I::ManageConnections, M::File },
        { I::OpenSnapshot, M::File },
        { I::OpenDemo, M::File, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "Open the &demo cloud"),
            nullptr, nullptr,
            QT_TRANSLATE_NOOP("WindowCommands",
                "The built-in simulated cloud: every failure Flightdeck "
                "knows, to try it safely") },
        { I::SaveSnapshot, M::File, true },
        { I::SaveReport, M::File },
        { I::ExportAudit, M::File },
        { I::Quit, M::File, true, 0, QT_TRANSLATE_NOOP("WindowCommands", "&Quit"), nullptr, "Ctrl+Q" },

        { I::KlusterList, M::View, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "&Kluster list"), nullptr,
            "F9", nullptr, nullptr, true },
        // ":" as in k9s and vim, Ctrl+Shift+P as in an editor: any kluster, view or action by a few letters.
        { I::GoTo, M::View, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "&Go to…"), nullptr,
            ":; Ctrl+Shift+P",
            QT_TRANSLATE_NOOP(
                "WindowCommands", "A kluster, a view or an action, by a few of its letters (:)") },
        { I::Views, M::View, true },
        { I::GroupFindings, M::View, true },
        { I::Notifications, M::View },
        { I::Tray, M::View },

        { I::Refresh, M::Kluster, false, 11, QT_TRANSLATE_NOOP("WindowCommands", "&Refresh"),
            "action-refresh", "F5; Ctrl+Shift+R", nullptr, live },
        { I::CancelRefresh, M::Kluster, false, 12, QT_TRANSLATE_NOOP("WindowCommands", "&Cancel refresh"),
            "action-stop", "Ctrl+.",
            QT_TRANSLATE_NOOP(
                "WindowCommands", "Cancel the refreshes in flight; the data shown stays (Ctrl+.)"),
            refreshing },
        { I::AutoRefresh, M::Kluster, false, 31 },
        { I::NextFinding, M::Kluster, true, 22, QT_TRANSLATE_NOOP("WindowCommands", "&Next finding"),
            "action-next", "F8",
            QT_TRANSLATE_NOOP("WindowCommands", "Select the next row with a finding in this view (F8)"),
            anyFinding },
        { I::PreviousFinding, M::Kluster, false, 21, QT_TRANSLATE_NOOP("WindowCommands", "Pre&vious finding"),
            "action-previous", "Shift+F8",
            QT_TRANSLATE_NOOP(
                "WindowCommands", "Select the previous row with a finding in this view (Shift+F8)"),
            anyFinding },
        { I::Repair, M::Kluster, false, 23 },
        { I::RepairRoutes, M::Kluster },
        { I::Acknowledge, M::Kluster },
        { I::Withdraw, M::Kluster },
        // "/" as in k9s, less and vim; a text box that has the focus types it instead.
        { I::Filter, M::Kluster, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "&Filter the view…"), nullptr,
            "Ctrl+F; /" },
        { I::GoToKlusters, M::Kluster, false, 0,
            QT_TRANSLATE_NOOP("WindowCommands", "Go to the &kluster list"), nullptr, "Ctrl+K" },
        { I::CopyLink, M::Kluster, true },
        { I::CopyMarkdown, M::Kluster },
        { I::Protect, M::Kluster },

        { I::Shortcuts, M::Help, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "&Keyboard shortcuts"),
            nullptr, "F1; ?" },
        { I::About, M::Help, false, 0, QT_TRANSLATE_NOOP("WindowCommands", "&About Flightdeck") },
    };
    return rows;
}

WindowCommands::WindowCommands(ConsoleSession *session, const Command::Context &context,
    QAbstractItemModel *auditRows, QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_repair(new RepairCommand(RepairCommand::Scope::Selected, context, session, window, this))
    , m_repairRoutes(new RepairCommand(RepairCommand::Scope::RouterRoutes, context, session, window, this))
    , m_acknowledge(new AcknowledgeCommand(AcknowledgeCommand::Scope::Acknowledge, context, session->store(),
          session->history(), window, this))
    , m_withdraw(new AcknowledgeCommand(
          AcknowledgeCommand::Scope::Withdraw, context, session->store(), session->history(), window, this))
    , m_copyLink(new CopyLinkCommand(context, session, this))
    , m_copyMarkdown(new CopyMarkdownCommand(context, session, this))
    , m_protect(new ProtectKlusterCommand(context, session, this))
{
    add(CommandId::Repair, m_repair);
    add(CommandId::RepairRoutes, m_repairRoutes);
    add(CommandId::OpenSnapshot, new OpenSnapshotCommand(session->registry(), window, this));
    add(CommandId::SaveSnapshot, new ExportSnapshotCommand(context, window, this));
    add(CommandId::SaveReport, new ExportReportCommand(context, session->history(), window, this));
    add(CommandId::ExportAudit, new ExportAuditCommand(auditRows, window, this));
    add(CommandId::Acknowledge, m_acknowledge);
    add(CommandId::Withdraw, m_withdraw);
    add(CommandId::CopyLink, m_copyLink);
    add(CommandId::CopyMarkdown, m_copyMarkdown);
    add(CommandId::Protect, m_protect);
    for (RepairCommand *r : { m_repair, m_repairRoutes }) {
        connect(r, &RepairCommand::repairDialogOpened, this, &WindowCommands::repairDialogOpened);
        connect(r, &RepairCommand::repairsFinished, this, &WindowCommands::repairsFinished);
    }
    for (const CommandRow &row : table()) {
        if (row.title)
            m_actions.insert(row.id, make(row));
    }
}

void WindowCommands::add(CommandId id, Command *command)
{
    m_commands << command;
    m_actions.insert(id, command->action());
    connect(command, &Command::dialogOpened, this, &WindowCommands::dialogOpened);
    connect(command, &Command::message, this, &WindowCommands::message);
}

QAction *WindowCommands::make(const CommandRow &row)
{
    auto *a = row.icon
        ? new QAction(Icons::named(QString::fromLatin1(row.icon)), translated(row.title), m_window)
        : new QAction(translated(row.title), m_window);
    if (row.shortcuts) {
        QList<QKeySequence> keys;
        for (const QString &k : QString::fromLatin1(row.shortcuts).split(QLatin1Char(';')))
            keys << QKeySequence(k.trimmed());
        a->setShortcuts(keys);
    }
    if (row.tip) {
        a->setToolTip(translated(row.tip));
        a->setStatusTip(translated(row.tip));
    }
    a->setCheckable(row.checkable);
    if (row.checkable)
        a->setChecked(true);
    if (row.enabled)
        a->setEnabled(false); // until the window says what there is
    connect(a, &QAction::triggered, this, [this, id = row.id] { emit triggered(id); });
    return a;
}

void WindowCommands::provide(CommandId id, QAction *action)
{
    m_actions.insert(id, action);
}

void WindowCommands::provideAutoRefresh(QMenu *menu, QToolButton *button)
{
    m_autoRefreshMenu = menu;
    m_autoRefreshButton = button;
}

void WindowCommands::arrange()
{
    QMenuBar *bar = m_window->menuBar();
    const QHash<WindowMenu, QMenu *> menus {
        { WindowMenu::File, bar->addMenu(tr("&File")) },
        { WindowMenu::View, bar->addMenu(tr("&View")) },
        { WindowMenu::Kluster, bar->addMenu(tr("&Kluster")) },
        { WindowMenu::Help, bar->addMenu(tr("&Help")) },
    };
    QToolBar *toolbar = m_window->addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    QList<const CommandRow *> onToolbar;
    for (const CommandRow &row : table()) {
        QMenu *menu = menus.value(row.menu);
        if (row.section && !menu->isEmpty())
            menu->addSeparator();
        if (row.id == CommandId::Views) {
            for (const TabInfo &t : Tabs::all()) {
                QAction *a = menu->addAction(
                    Tabs::title(t.tab), this, [this, tab = t.tab] { emit viewChosen(int(tab)); });
                a->setShortcut(Tabs::shortcut(t.tab));
            }
        } else if (row.id == CommandId::AutoRefresh) {
            if (m_autoRefreshMenu)
                menu->addMenu(m_autoRefreshMenu);
        } else if (QAction *a = m_actions.value(row.id)) {
            menu->addAction(a);
        }
        if (row.toolbar > 0)
            onToolbar << &row;
    }
    std::sort(onToolbar.begin(), onToolbar.end(),
        [](const CommandRow *a, const CommandRow *b) { return a->toolbar < b->toolbar; });
    int section = -1;
    for (const CommandRow *row : std::as_const(onToolbar)) {
        if (section >= 0 && row->toolbar / 10 != section)
            toolbar->addSeparator();
        section = row->toolbar / 10;
        if (row->id == CommandId::AutoRefresh) {
            if (m_autoRefreshButton)
                toolbar->addWidget(m_autoRefreshButton);
        } else if (QAction *a = m_actions.value(row->id)) {
            toolbar->addAction(a);
        }
    }
    // Reached wherever the keyboard is, the menu bar hidden or not.
    m_window->addAction(m_actions.value(CommandId::GoToKlusters));
}

void WindowCommands::update(const WindowFacts &facts)
{
    for (Command *c : std::as_const(m_commands))
        c->update();
    for (const CommandRow &row : table()) {
        if (row.enabled && m_actions.contains(row.id))
            m_actions.value(row.id)->setEnabled(row.enabled(facts));
    }
}
