#pragma once

#include <QString>

// One copy of a text that thousands of records repeat: a node condition's type, status, reason and message
// ("kubelet has sufficient memory available"), a server's status, zone and network name. A region's 28,000
// nodes held each of those apart, a fifth of the process' memory (docs/benchmarks.md). Returns the copy
// kept for this thread (the same text shares its characters, as QString does), or `text` itself when it is
// long or the thread's table is full, so the table stays small. Any thread; no lock.
QString interned(const QString &text);
