#pragma once

#include "core/klusterfetch.h"

#include <QString>

// Writes a fetched kluster as a snapshot folder (snapshot-format.md): the
// merged response bodies and capture.json. Response bodies hold no token,
// password or key; nothing else is written.
class SnapshotWriter
{
public:
    // Writes every body that was fetched; false with `error` when a file cannot
    // be written or a required source is missing (the others are still written).
    static bool write(const QString &directory, const KlusterFetch &fetch, QString *error);
};
