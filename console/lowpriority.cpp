#include "console/lowpriority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <QDir>
#include <QFile>
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>
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

void yieldHttpThreadsToTheWindow()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int window = getpriority(PRIO_PROCESS, int(getpid())); // the main thread's
    if (errno != 0)
        return;
    const QStringList tasks
        = QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(task));
        // The name is cut to 15 characters.
        if (!comm.open(QIODevice::ReadOnly) || !comm.readAll().startsWith("QNetworkAccessM"))
            continue;
        bool ok = false;
        const int tid = task.toInt(&ok);
        if (!ok)
            continue;
        errno = 0;
        const int now = getpriority(PRIO_PROCESS, id_t(tid));
        if (errno == 0 && now <= window)
            (void)setpriority(PRIO_PROCESS, id_t(tid), qMin(19, window + 5));
    }
#endif
}

} // namespace Threads
