#pragma once

#include "core/diagnosis.h"

#include <QStringList>

// Small helpers for asserting on a diagnosis.
inline QStringList findingIds(const Diagnosis &d)
{
    QStringList ids;
    for (const Finding &f : d.findings)
        ids << f.id();
    return ids;
}

inline QStringList findingIds(const Diagnosis &d, FindingKind kind)
{
    QStringList ids;
    for (const Finding &f : d.findings) {
        if (f.kind == kind)
            ids << f.id();
    }
    return ids;
}

inline const Finding *findingOf(const Diagnosis &d, const QString &id)
{
    return d.find(id);
}
