#pragma once

#include "views/command.h"

class HistoryClient;
class KlusterStore;
class QWidget;

// Acknowledge (Ctrl+Shift+A): says that you are handling the findings selected, for a time you choose, with
// a note; they stop notifying and sink below the unacknowledged of their severity, and show who and until
// when. Withdraw (Ctrl+Shift+U) ends it. Kept in the local history, so only for a live kluster the history
// has recorded; the findings must be what the views show.
class AcknowledgeCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AcknowledgeCommand)

public:
    enum class Scope
    {
        Acknowledge,
        Withdraw,
    };

    AcknowledgeCommand(Scope scope, Context context, KlusterStore *store, HistoryClient *history,
        QWidget *window, QObject *parent = nullptr);

    QStringList targets() const; // the findings it would acknowledge (or withdraw) now
    void update() override;
    // Acknowledges `findings` of `key` as its data has them now, for `seconds`, with `note` (what the
    // dialog's OK does; a notification's and the tray's "for an hour" too, whichever kluster is shown).
    void acknowledge(const KlusterKey &key, const QStringList &findings, qint64 seconds, const QString &note);
    // Who acknowledges: this machine's user.
    static QString localUser();

protected:
    void run() override;

private:
    Scope m_scope;
    KlusterStore *m_store;
    HistoryClient *m_history;
    QWidget *m_window;
};
