#include "console/pacedwork.h"

#include <QElapsedTimer>
#include <algorithm>

PacedWork::PacedWork(int budgetMs, QObject *parent)
    : QObject(parent)
    , m_budgetMs(qMax(1, budgetMs))
{ }

void PacedWork::post(const QString &connection, std::function<void()> work)
{
    m_work.push_back({ connection, std::move(work) });
    schedule();
}

void PacedWork::drop(const QString &connection)
{
    m_work.erase(std::remove_if(m_work.begin(), m_work.end(),
                     [&connection](const Piece &p) { return p.connection == connection; }),
        m_work.end());
}

void PacedWork::schedule()
{
    if (m_scheduled || m_work.empty())
        return;
    m_scheduled = true;
    // A posted call: Qt delivers it in the next pass over the posted events, never in the one under way, so
    // the timers and the window's own events of this turn go first.
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_scheduled = false;
            drain();
        },
        Qt::QueuedConnection);
}

void PacedWork::drain()
{
    QElapsedTimer spent;
    spent.start();
    // At least one piece a turn, however long it takes; more while the budget lasts. (The work may have been
    // done already: a turn scheduled while the last one was under way finds none left.)
    bool first = true;
    while (!m_work.empty() && (first || spent.elapsed() < m_budgetMs)) {
        first = false;
        Piece piece = std::move(m_work.front());
        m_work.pop_front();
        piece.work();
    }
    schedule();
}
