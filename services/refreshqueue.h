#pragma once

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <functional>

class QTimer;

// A connection's refreshes in line: at most `limit` run at once (0: no bound), the rest wait their turn in
// the order asked, one a person asked for before them, and none starts while the cloud asked for a pause.
// It only counts and orders: `start` is called when a refresh may go, and the caller says when it is over.
class RefreshQueue : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RefreshQueue)

public:
    using Start = std::function<void(const QString &kluster, const QDateTime &askedAt)>;
    RefreshQueue(int limit, Start start, QObject *parent = nullptr);

    // Starts it now, or puts it in line (once: asked again while waiting, it keeps its place unless urgent).
    void ask(const QString &kluster, const QDateTime &askedAt, bool urgent);
    // A refresh that was started is over: the next ones go.
    void finished();
    // A refresh that was started was turned away: first in line again, and nothing starts for `pauseMs`.
    void again(const QString &kluster, const QDateTime &askedAt, qint64 pauseMs);
    // Takes a waiting refresh out of line; false when it is not waiting (running, or never asked).
    bool withdraw(const QString &kluster);

private:
    void startWaiting();

    int m_limit;
    Start m_start;
    int m_running = 0; // started, not yet over
    QList<QPair<QString, QDateTime>> m_waiting; // and when each was asked for
    QDateTime m_pausedUntil; // the cloud asked for a pause: nothing new starts until then
    QTimer *m_resume;
};
