#include "console/lowpriority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#endif

namespace Threads {

void yieldToTheWindow()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, 0);
    if (errno == 0)
        (void)setpriority(PRIO_PROCESS, 0, qMin(19, now + 5)); // 0: this thread, on Linux
#endif
}

} // namespace Threads
