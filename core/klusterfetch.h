#pragma once

#include "core/klusterstate.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

// A kluster's whole state, fetched: the parsed state (what failed says so in
// its SourceStatus) and the merged response bodies, as a snapshot holds them.
struct KlusterFetch
{
    KlusterState state;
    QHash<QString, QByteArray> bodies;  // snapshot file name -> body
    int requests = 0;                   // HTTP requests it took
    QStringList errors;                 // one line per source that failed
};
