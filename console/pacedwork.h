#pragma once

#include <QObject>
#include <QString>
#include <deque>
#include <functional>

// Work the window's thread is handed in bursts (a thousand klusters' refreshes come back within seconds),
// done in the order it came, a few milliseconds at a time: what is left waits for the next turn of the event
// loop, after the paints, input and timers that came meanwhile. Each piece names the connection it is for, so
// that a connection removed takes its waiting work with it.
class PacedWork : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PacedWork)

public:
    explicit PacedWork(int budgetMs, QObject *parent = nullptr);

    // Done in a later turn, after everything posted before it.
    void post(const QString &connection, std::function<void()> work);
    // The waiting work of `connection` dropped.
    void drop(const QString &connection);
    int waiting() const { return int(m_work.size()); }

private:
    struct Piece
    {
        QString connection;
        std::function<void()> work;
    };
    void schedule();
    void drain();

    std::deque<Piece> m_work;
    int m_budgetMs;
    bool m_scheduled = false;
};
