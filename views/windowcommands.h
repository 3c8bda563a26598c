#pragma once

#include "views/command.h"

#include <QHash>
#include <QList>
#include <QObject>

class AcknowledgeCommand;
class ConsoleSession;
class CopyLinkCommand;
class CopyMarkdownCommand;
class ProtectKlusterCommand;
class QAbstractItemModel;
class QAction;
class QMainWindow;
class QMenu;
class QToolButton;
class RepairCommand;

// Every command of the window, one table of them (views/windowcommands.cpp): its place in the File, View,
// Kluster and Help menus (in the table's order, a separator where a section starts) and on the toolbar, and,
// for the window's own actions, its title, icon, shortcuts, tip and when it is enabled. The commands with a
// class of their own (views/*command*.h: repair, acknowledge, exports, links, connections) say their title
// and shortcut and decide when they are enabled from the CommandContext; the table places them. The palette
// and the keyboard help read the menus, so a row here is in both.
enum class CommandId
{
    // File
    AddConnection,
    ManageConnections,
    OpenSnapshot,
    OpenDemo,
    SaveSnapshot,
    SaveReport,
    ExportAudit,
    Quit,
    // View
    KlusterList,
    GoTo,
    Views, // a row per view (views/tabs.cpp), Ctrl+1 to Ctrl+8
    GroupFindings,
    Notifications,
    Tray,
    // Kluster
    Refresh,
    CancelRefresh,
    AutoRefresh, // a menu of intervals (a button on the toolbar)
    NextFinding,
    PreviousFinding,
    Repair,
    RepairRoutes,
    Acknowledge,
    Withdraw,
    Filter,
    GoToKlusters,
    CopyLink,
    CopyMarkdown,
    Protect,
    // Help
    Shortcuts,
    About,
};

enum class WindowMenu
{
    File,
    View,
    Kluster,
    Help,
};

// What the window's own actions are enabled by, beyond the CommandContext.
struct WindowFacts
{
    CommandContext context;
    bool live = false; // a live connection (something to refresh)
    bool refreshing = false; // refreshes in flight (something to cancel)
};

struct CommandRow
{
    CommandId id;
    WindowMenu menu;
    bool section = false; // starts a section of its menu: a separator before it
    int toolbar = 0; // its place on the toolbar (0: not there); a new ten starts a section
    // The window's own actions (the others' come from their command):
    const char *title = nullptr;
    const char *icon = nullptr; // Icons::named
    const char *shortcuts = nullptr; // "F5; Ctrl+Shift+R": the first is the one shown
    const char *tip = nullptr;
    bool (*enabled)(const WindowFacts &) = nullptr; // none: always
    bool checkable = false;
};

class WindowCommands : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowCommands)

public:
    static const QList<CommandRow> &table();

    // The commands over `session`, acting on what `context` says is selected and shown; their dialogs over
    // `window`. The audit log's Export writes `auditRows`.
    WindowCommands(ConsoleSession *session, const Command::Context &context, QAbstractItemModel *auditRows,
        QMainWindow *window);

    // An action the window or a view owns (the connections', the Findings view's grouping, the notifier's),
    // placed where its row says.
    void provide(CommandId id, QAction *action);
    void provideAutoRefresh(QMenu *menu, QToolButton *button); // its intervals, for the AutoRefresh row
    // The menus and the toolbar, built from the table (once every provided action is in).
    void arrange();
    QAction *action(CommandId id) const { return m_actions.value(id); }
    // Each command enabled and named for what is selected and shown now.
    void update(const WindowFacts &facts);

    RepairCommand *repair() const { return m_repair; }
    RepairCommand *repairRoutes() const { return m_repairRoutes; }
    AcknowledgeCommand *acknowledge() const { return m_acknowledge; }
    AcknowledgeCommand *withdraw() const { return m_withdraw; }
    CopyLinkCommand *copyLink() const { return m_copyLink; }
    CopyMarkdownCommand *copyMarkdown() const { return m_copyMarkdown; }
    ProtectKlusterCommand *protect() const { return m_protect; }

signals:
    void triggered(CommandId id); // a window's own action (the commands run themselves)
    void viewChosen(int tab); // View → a view
    void dialogOpened(QDialog *dialog);
    void message(const QString &text, int milliseconds);
    void repairDialogOpened(QDialog *dialog);
    void repairsFinished(const KlusterKey &key, int fixed, int total);

private:
    void add(CommandId id, Command *command);
    QAction *make(const CommandRow &row);

    QMainWindow *m_window;
    QList<Command *> m_commands;
    QHash<CommandId, QAction *> m_actions;
    QMenu *m_autoRefreshMenu = nullptr;
    QToolButton *m_autoRefreshButton = nullptr;
    RepairCommand *m_repair;
    RepairCommand *m_repairRoutes;
    AcknowledgeCommand *m_acknowledge;
    AcknowledgeCommand *m_withdraw;
    CopyLinkCommand *m_copyLink;
    CopyMarkdownCommand *m_copyMarkdown;
    ProtectKlusterCommand *m_protect;
};
