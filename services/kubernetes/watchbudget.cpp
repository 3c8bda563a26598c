#include "services/kubernetes/watchbudget.h"

#include <QtGlobal>
#include <sys/resource.h>

WatchBudget &WatchBudget::shared()
{
    static WatchBudget *budget = [] {
        auto *b = new WatchBudget; // lives as long as the process
        rlimit files {};
        if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
            b->setLimit(int(qBound<rlim_t>(8, files.rlim_cur / 4, 256)));
        return b;
    }();
    return *budget;
}

bool WatchBudget::take(bool always)
{
    int used = m_inUse.load();
    while (always || used < m_limit.load()) {
        if (m_inUse.compare_exchange_weak(used, used + 1))
            return true;
    }
    return false;
}

void WatchBudget::give(int count)
{
    m_inUse.fetch_sub(count);
}
