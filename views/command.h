#pragma once

#include "core/klusterkey.h"

#include <QObject>
#include <QStringList>
#include <functional>

class Connection;
class QAction;
class QDialog;
struct KlusterData;

// What a command acts on, as the window sees it now: the kluster selected, its data and connection, whether
// the views show its rows yet, and the findings of what is selected in the view open.
struct CommandContext
{
    KlusterKey key;
    const KlusterData *data = nullptr;
    Connection *connection = nullptr;
    bool shown = false; // the views show this kluster's rows
    QStringList selectedFindings; // of the kluster table open (none for the other views)
    QStringList selectedIncidents; // the incidents selected in the Findings view (grouped by incident)

    bool repairable() const; // a live, writable connection whose kluster's data the views show
};

// One thing a person does (Kleopatra's commands): it owns its action, which it enables and names from the
// context (what is selected and shown) whenever the window asks (update()), and runs when triggered. What a
// command opens is said in dialogOpened; what happened, in message (for the status bar).
// A dialog shown, raised and given the keyboard (whatever the window manager does), deleted on close.
void presentDialog(QDialog *dialog);

class Command : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Command)

public:
    using Context = std::function<CommandContext()>;

    Command(Context context, QAction *action, QObject *parent = nullptr);
    QAction *action() const { return m_action; }
    virtual void update() { }

signals:
    void dialogOpened(QDialog *dialog);
    void message(const QString &text, int milliseconds);

protected:
    virtual void run() = 0;
    CommandContext context() const { return m_context(); }
    void open(QDialog *dialog); // shown, raised, given the keyboard, and said

private:
    Context m_context;
    QAction *m_action;
};
