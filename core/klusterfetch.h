#pragma once

#include "core/error.h"
#include "core/keptbody.h"
#include "core/klusterstate.h"
#include "core/source.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

// A source of a kluster that could not be fetched or read (none when the whole refresh failed before
// any), and why. An optional source says what is assumed without it.
struct SourceError
{
    std::optional<Source> source;
    Error error;
    QString assumed; // e.g. "no extraroute-atomic"

    // "servers: compute: GET /v2.1/servers/detail: HTTP 503: …"
    QString toString() const;
    // The errors on one line, "; " between them; the sources that failed for the same reason named together
    // before it, the reason said once.
    static QString joined(const QList<SourceError> &errors);
    // Whether refreshing again may succeed: one of the errors is one a retry can help.
    static bool retryCanHelp(const QList<SourceError> &errors);
};

// A kluster's whole state, fetched: the parsed state (what failed says so in
// its SourceStatus) and the merged response bodies, as a snapshot holds them.
struct KlusterFetch
{
    KlusterState state;
    QHash<Source, KeptBody> bodies; // as kept: body() gives their bytes
    int requests = 0; // HTTP requests it took
    qint64 bytesReceived = 0; // the bytes of the response bodies it took (those of the client's other calls
                              // meanwhile included)
    QList<SourceError> errors; // one per source that failed
    // How the servers were fetched: listed whole (and why), or brought up to date from the list kept since
    // the last refresh with the records that changed.
    bool serversIncremental = false;
    QString serversWhyWhole;
    int serversReceived = 0; // server records received
    // The nodes' list resourceVersion: where a watch of them starts (empty when unknown).
    QString nodesResourceVersion;
    // The nodes their watch changed since they were listed: name -> the node as last sent (an empty object:
    // deleted). In `state` already; brought into nodes.json only when the body is wanted (body()).
    QHash<QString, QJsonObject> nodesWatched;
    // When the nodes shown were listed, when an earlier refresh did (a healthy kluster nobody looks at has
    // them listed at a slower pace); empty when this fetch listed them, or a watch keeps them.
    QDateTime nodesListedAt;

    // A source's body as a list made now would give it (the nodes with what the watch changed).
    QByteArray body(Source source) const;
};
