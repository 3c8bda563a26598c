// A Kubernetes node watch stream (`GET /api/v1/nodes?watch=1`: a JSON object
// per line): NodeWatchEvent::read for each line, the events applied to a
// kluster's listed nodes (applyNodeEvents), and the nodes.json a snapshot
// would then hold (KlusterFetch::body). Input: the stream's bytes. Expected:
// no exception, no crash; a line that is not an event is an error naming it.

#include "core/apiparser.h"
#include "core/nodewatchevent.h"
#include "fuzz/fuzzcommon.h"

#include <QJsonDocument>

namespace {

const QByteArray Listed
    = R"({"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"1000"},"items":[
{"metadata":{"name":"a","resourceVersion":"10"},"spec":{"podCIDR":"10.0.0.0/24","providerID":"openstack:///1"},
 "status":{"addresses":[{"type":"InternalIP","address":"10.1.0.1"}],"conditions":[{"type":"Ready","status":"True"}]}},
{"metadata":{"name":"c","resourceVersion":"11"},"spec":{},"status":{}}]})";

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    KlusterFetch fetch;
    fetch.bodies.insert(Source::Nodes, KeptBody(Listed));
    fetch.state.nodes
        = ApiParser::parseNodes(QStringLiteral("nodes"), QJsonDocument::fromJson(Listed).object());
    Error answer;
    answer.service = QStringLiteral("kubernetes");
    QList<NodeWatchEvent> events;
    QString version;
    for (const QByteArray &line : fuzz::bytes(data, size).split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        NodeWatchEvent event;
        const Error e = NodeWatchEvent::read(line.trimmed(), answer, &event);
        if (e.isError()) {
            if (e.kind != Error::Kind::Malformed || e.toString().isEmpty())
                std::abort(); // a line refused is named as malformed, never anything else
            continue;
        }
        version = event.resourceVersion;
        events.append(event);
    }
    applyNodeEvents(fetch, events, version);
    const QByteArray body = fetch.body(Source::Nodes);
    // What it makes is a list the parser reads back, with the nodes the state has.
    const QList<Node> back
        = ApiParser::parseNodes(QStringLiteral("nodes"), QJsonDocument::fromJson(body).object());
    if (back.size() != fetch.state.nodes.size())
        std::abort();
    return 0;
}
