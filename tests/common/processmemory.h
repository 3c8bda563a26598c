#pragma once

#include <QByteArray>
#include <QFile>

// A field of this process's /proc/self/status in megabytes ("VmRSS:" resident now, "VmHWM:" its peak);
// 0 where there is no such file (not Linux). For the soak and the benchmarks.
inline double processMegabytes(const QByteArray &field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(field.size()).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0;
}
