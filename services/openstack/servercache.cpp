#include "services/openstack/servercache.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"
#include "core/source.h"
#include "services/http/httpclient.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/pagedlist.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QUrl>
#include <algorithm>

namespace {

// Nova's order: newest first, then by id (its default sort keys, both descending).
bool newerFirst(const Instance &a, const Instance &b)
{
    if (a.created != b.created)
        return a.created > b.created;
    return a.id > b.id;
}

QString isoSeconds(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss'Z'"));
}

} // namespace

ServerCache::ServerCache(KeystoneSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{ }

ServerCache::~ServerCache()
{
    for (const QPointer<HttpCall> &c : std::as_const(m_calls)) {
        if (c)
            c->cancel();
    }
}

void ServerCache::request(const QDateTime &notBefore, QObject *context, const Done &done)
{
    if (m_shared.request(notBefore, context, done))
        startFetch();
}

void ServerCache::startFetch()
{
    const QDateTime started = m_shared.start();
    m_calls.removeAll(QPointer<HttpCall>());
    const ServerCachePolicy &p = m_policy;
    const bool partial
        = std::any_of(m_kept.cbegin(), m_kept.cend(), [](const Record &r) { return r.instance.isPartial(); });
    if (!p.incremental)
        fetchWhole(tr("incremental refresh is off"));
    else if (!m_known)
        fetchWhole(tr("the first list"));
    else if (m_sinceWhole + 1 >= p.wholeEvery)
        fetchWhole(tr("every %1th refresh lists everything").arg(p.wholeEvery));
    else if (m_lastWhole.secsTo(started) >= p.wholeAfterSeconds)
        fetchWhole(tr("the last whole list is %1 min old").arg(m_lastWhole.secsTo(started) / 60));
    else if (m_lastFetch.secsTo(started) >= p.maxGapSeconds)
        fetchWhole(tr("%1 min since the last fetch: Nova may have archived servers deleted meanwhile")
                       .arg(m_lastFetch.secsTo(started) / 60));
    else if (partial)
        fetchWhole(tr("servers of an unreachable cell came back without details"));
    else
        fetchChanges();
}

void ServerCache::finish(const std::shared_ptr<ServerList> &list)
{
    if (!list->error.isError())
        list->index = std::make_shared<const ProjectIndex>(list->instances, list->ports);
    if (m_shared.finish(list))
        startFetch(); // for those who asked after this fetch began
}

std::shared_ptr<ServerList> ServerCache::publish(bool incremental, int received)
{
    auto list = std::make_shared<ServerList>();
    list->incremental = incremental;
    list->received = received;
    list->error.service = QStringLiteral("compute");
    QList<const Record *> records;
    records.reserve(m_kept.size());
    for (const Record &r : std::as_const(m_kept))
        records.append(&r);
    std::sort(records.begin(), records.end(),
        [](const Record *a, const Record *b) { return newerFirst(a->instance, b->instance); });
    list->instances.reserve(records.size());
    QByteArrayList json; // shared with the kept records, not copied: joined when a snapshot is written
    json.reserve(records.size());
    for (const Record *r : std::as_const(records)) {
        list->instances.append(r->instance);
        json.append(r->json);
    }
    list->body = KeptBody::joined("{\"servers\":[", json, "]}", m_serverPack);
    return list;
}

QStringList ServerCache::merge(const PagedList &page, bool whole)
{
    // Each page read from its bytes, with each server's record as compact JSON (throws).
    QList<Instance> parsed;
    QByteArrayList records;
    for (const QByteArray &body : page.pageBodies)
        parsed += ApiParser::parseServers(QStringLiteral("servers"), body, &records);
    if (whole)
        m_kept.clear();
    m_kept.reserve(m_kept.size() + parsed.size());
    QStringList ids;
    ids.reserve(parsed.size());
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        const Instance &instance = parsed.at(i);
        ids.append(instance.id);
        if (instance.status == QLatin1String("DELETED")) {
            m_kept.remove(instance.id);
            continue;
        }
        if (!m_serverPack)
            m_serverPack = RecordPack::make(records.at(i));
        m_kept.insert(instance.id, Record { instance, m_serverPack->pack(records.at(i)) });
    }
    return ids;
}

QDateTime ServerCache::serverClock(const QDateTime &novaClock, const QDateTime &neutronClock) const
{
    // Nova's own clock when it says it (behind a proxy it does); else Neutron's, read just before; else ours.
    return novaClock.isValid() ? novaClock
                               : (neutronClock.isValid() ? neutronClock : m_shared.flightStarted());
}

void ServerCache::setWatermark(const QDateTime &novaClock, const QDateTime &neutronClock)
{
    m_serverClock = serverClock(novaClock, neutronClock);
    m_watermark = m_serverClock.addSecs(-m_policy.overlapSeconds);
}

qint64 ServerCache::clockStepBack(const QDateTime &novaClock, const QDateTime &neutronClock) const
{
    // Where the servers' clock should be now, had it run as this machine's did since the last fetch.
    const QDateTime now = serverClock(novaClock, neutronClock);
    if (!m_serverClock.isValid() || !m_lastFetch.isValid() || !now.isValid())
        return 0;
    const QDateTime expected = m_serverClock.addMSecs(m_lastFetch.msecsTo(m_shared.flightStarted()));
    return qMax<qint64>(0, now.secsTo(expected));
}

namespace {

// What diagnosis reads of a port: a whole one is some 1.5 kB, these fields a fifth of it.
const QLatin1String PortDetailFields("fields=id&fields=device_id&fields=revision_number&fields=fixed_ips"
                                     "&fields=port_security_enabled&fields=allowed_address_pairs");
// A port's revision and device only: what tells whether it changed (about 100 bytes).
const QLatin1String PortMarkFields("fields=id&fields=device_id&fields=revision_number");
constexpr int PortsPerRequest = 40; // ids in one `?id=…&id=…` (some 2 kB of URL)
constexpr int MaxChangedPortDetails = 200; // more ports changed than this: listed whole again

} // namespace

void ServerCache::fetchPorts(const std::function<void(const PortListing &)> &then)
{
    // The first time, and whenever the kept details cannot be trusted, every port in detail; then only their
    // revisions, and the details of those new or changed.
    const bool whole = m_portDetails.isEmpty();
    const QString path = QStringLiteral("/v2.0/ports?") + (whole ? PortDetailFields : PortMarkFields);
    fetchPagedList(m_session, this, QStringLiteral("network"), path, QStringLiteral("ports"), &m_calls,
        [this, then, whole](const PagedList &page) {
            auto listing = std::make_shared<PortListing>();
            listing->requests = page.pages;
            listing->neutronClock = parseHttpDate(page.date);
            QList<Port> listed;
            listing->error = parseAnswer(page.error, [&listed, &page] {
                listed = ApiParser::parsePorts(Sources::name(Source::Ports), page.object);
            });
            if (!listing->error.isError()) {
                listing->marks.reserve(listed.size());
                for (const Port &port : std::as_const(listed)) {
                    if (port.revision < 0) { // without revisions nothing can be compared
                        listing->error.kind = Error::Kind::Malformed;
                        listing->error.detail = QStringLiteral("a port without a revision_number");
                        listing->marks.clear();
                        break;
                    }
                    listing->marks.insert(port.id, PortMark { port.deviceId, port.revision });
                }
            }
            if (listing->error.isError()) {
                m_portDetails.clear(); // listed whole next time
                then(*listing);
                return;
            }
            if (whole) {
                m_portDetails.clear();
                keepPortDetails(listed, page.object);
                finishPorts(listing, then);
                return;
            }
            QStringList changed;
            for (auto it = listing->marks.cbegin(); it != listing->marks.cend(); ++it) {
                const auto kept = m_portDetails.constFind(it.key());
                if (kept == m_portDetails.cend() || kept->port.revision != it->revision)
                    changed << it.key();
            }
            m_portDetails.removeIf(
                [&listing](const auto &kept) { return !listing->marks.contains(kept.key()); });
            if (changed.size() > MaxChangedPortDetails) {
                m_portDetails.clear();
                fetchPorts(then);
                return;
            }
            fetchPortDetails(changed, listing, then);
        });
}

void ServerCache::keepPortDetails(const QList<Port> &ports, const QJsonObject &page)
{
    const QJsonArray records = page.value(QStringLiteral("ports")).toArray();
    for (qsizetype i = 0; i < ports.size() && i < records.size(); ++i) {
        const QByteArray json = QJsonDocument(records.at(i).toObject()).toJson(QJsonDocument::Compact);
        if (!m_portPack)
            m_portPack = RecordPack::make(json);
        m_portDetails.insert(ports.at(i).id, PortRecord { ports.at(i), m_portPack->pack(json) });
    }
}

void ServerCache::fetchPortDetails(QStringList ids, const std::shared_ptr<PortListing> &listing,
    const std::function<void(const PortListing &)> &then)
{
    if (ids.isEmpty()) {
        finishPorts(listing, then);
        return;
    }
    const QStringList batch = ids.mid(0, PortsPerRequest);
    ids = ids.mid(PortsPerRequest);
    const QString path = QStringLiteral("/v2.0/ports?") + PortDetailFields + QStringLiteral("&id=")
        + batch.join(QStringLiteral("&id="));
    fetchPagedList(m_session, this, QStringLiteral("network"), path, QStringLiteral("ports"), &m_calls,
        [this, ids, listing, then](const PagedList &page) {
            listing->requests += page.pages;
            QList<Port> read;
            listing->error = parseAnswer(page.error,
                [&read, &page] { read = ApiParser::parsePorts(Sources::name(Source::Ports), page.object); });
            if (listing->error.isError()) {
                listing->marks.clear();
                m_portDetails.clear();
                then(*listing);
                return;
            }
            keepPortDetails(read, page.object);
            fetchPortDetails(ids, listing, then);
        });
}

void ServerCache::finishPorts(
    const std::shared_ptr<PortListing> &listing, const std::function<void(const PortListing &)> &then)
{
    // Every listed port as last read in full (a port gone between the list and its details is gone), by id.
    QStringList ids = listing->marks.keys();
    ids.sort();
    QByteArrayList records;
    records.reserve(ids.size());
    listing->ports.reserve(ids.size());
    for (const QString &id : std::as_const(ids)) {
        const auto kept = m_portDetails.constFind(id);
        if (kept == m_portDetails.cend())
            continue;
        listing->ports.append(kept->port);
        records.append(kept->json);
    }
    listing->body = KeptBody::joined("{\"ports\":[", records, "]}", m_portPack);
    then(*listing);
}

void ServerCache::keepPorts(ServerList &list, const PortListing &ports)
{
    list.portsError = ports.error;
    if (!ports.error.isError()) {
        list.ports = ports.ports;
        list.portsBody = ports.body;
    }
}

void ServerCache::fetchWhole(const QString &why)
{
    // The ports first: a port that changes after they were listed shows a new revision next time.
    fetchPorts([this, why](const PortListing &ports) {
        fetchPagedList(
            m_session, this, QStringLiteral("compute"), QStringLiteral("/servers/detail"),
            QStringLiteral("servers"), &m_calls,
            [this, why, ports](const PagedList &page) {
                auto list = std::make_shared<ServerList>();
                list->requests = page.pages + ports.requests;
                const Error read
                    = page.error.isError() ? page.error : parseAnswer(page.error, [&] { merge(page, true); });
                if (read.isError()) {
                    list->error = read;
                    m_known = false;
                    m_kept.clear();
                    finish(list);
                    return;
                }
                list = publish(false, int(m_kept.size()));
                list->requests = page.pages + ports.requests;
                list->whyWhole = why;
                keepPorts(*list, ports);
                if (page.pages == 1)
                    list->body = KeptBody(page.body); // the answer as it came, as before
                // Without the ports' revisions, the next fetch lists everything again.
                m_known = !ports.error.isError();
                m_ports = ports.marks;
                setWatermark(parseHttpDate(page.date), ports.neutronClock);
                m_lastFetch = m_lastWhole = m_shared.flightStarted();
                m_sinceWhole = 0;
                finish(list);
            },
            PageForm::Bytes);
    });
}

void ServerCache::fetchChanges()
{
    const QString since = QString::fromLatin1(QUrl::toPercentEncoding(isoSeconds(m_watermark)));
    fetchPorts([this, since](const PortListing &portListing) {
        const int portRequests = portListing.requests;
        const QDateTime neutronClock = portListing.neutronClock;
        if (portListing.error.isError()) {
            auto list = std::make_shared<ServerList>();
            list->error
                = portListing
                      .error; // the kept list stays as it was; the next fetch asks from the same moment
            list->requests = portRequests;
            finish(list);
            return;
        }
        fetchPagedList(
            m_session, this, QStringLiteral("compute"),
            QStringLiteral("/servers/detail?changes-since=") + since, QStringLiteral("servers"), &m_calls,
            [this, portListing, portRequests, neutronClock](const PagedList &servers) {
                const Ports &ports = portListing.marks;
                const int requests = servers.pages + portRequests;
                if (servers.error.kind == Error::Kind::Http && servers.error.status == 400) {
                    fetchWhole(tr("Nova refused changes-since: %1").arg(servers.error.toString()));
                    return;
                }
                if (servers.error.isError()) {
                    auto list = std::make_shared<ServerList>();
                    list->error = servers.error; // as above: kept, and asked again from the same moment
                    list->requests = requests;
                    finish(list);
                    return;
                }
                // The hosts stamp the changes on the servers' clock: when it stepped back further than the
                // overlap since the last fetch, what changed since may be stamped before where that fetch
                // left off, and changes-since would not list it.
                if (const qint64 back = clockStepBack(parseHttpDate(servers.date), neutronClock);
                    back > m_policy.overlapSeconds) {
                    fetchWhole(tr("the servers' clock stepped back %1 s since the last refresh: changes made "
                                  "since may be stamped before where it left off")
                                   .arg(back));
                    return;
                }
                QStringList changed;
                const Error read = parseAnswer(servers.error, [&] { changed = merge(servers, false); });
                if (read.isError()) {
                    fetchWhole(tr("the changes could not be read: %1").arg(read.toString()));
                    return;
                }
                const QSet<QString> answered(changed.cbegin(), changed.cend());
                // Servers whose ports changed (a new revision, a port added or gone) while Nova's record did
                // not.
                QSet<QString> portsChanged;
                const auto note = [&](const QString &device) {
                    if (m_kept.contains(device) && !answered.contains(device))
                        portsChanged.insert(device);
                };
                for (auto it = ports.cbegin(); it != ports.cend(); ++it) {
                    const auto was = m_ports.constFind(it.key());
                    if (was == m_ports.cend() || was->revision != it->revision || was->device != it->device) {
                        note(it->device);
                        if (was != m_ports.cend())
                            note(was->device);
                    }
                }
                for (auto it = m_ports.cbegin(); it != m_ports.cend(); ++it) {
                    if (!ports.contains(it.key()))
                        note(it->device);
                }
                if (portsChanged.size() > m_policy.maxChangedPorts) {
                    fetchWhole(tr("%1 servers' ports changed").arg(portsChanged.size()));
                    return;
                }
                const QDateTime novaClock = parseHttpDate(servers.date);
                auto list = std::make_shared<ServerList>();
                list->requests = requests;
                const QStringList reread(portsChanged.cbegin(), portsChanged.cend());
                const int received = int(changed.size() + reread.size());
                fetchServersOf(reread, list, [this, list, received, novaClock, neutronClock, portListing] {
                    if (list->error.isError()) {
                        finish(list);
                        return;
                    }
                    const int requests = list->requests;
                    const std::shared_ptr<ServerList> published = publish(true, received);
                    published->requests = requests;
                    keepPorts(*published, portListing);
                    m_ports = portListing.marks;
                    setWatermark(novaClock, neutronClock);
                    m_lastFetch = m_shared.flightStarted();
                    ++m_sinceWhole;
                    finish(published);
                });
            },
            PageForm::Bytes);
    });
}

void ServerCache::fetchServersOf(
    const QStringList &ids, const std::shared_ptr<ServerList> &list, const std::function<void()> &then)
{
    if (ids.isEmpty()) {
        then();
        return;
    }
    auto outstanding = std::make_shared<int>(int(ids.size()));
    for (const QString &id : ids) {
        HttpCall *call = m_session->send(QStringLiteral("compute"), "GET", QStringLiteral("/servers/") + id);
        m_calls.append(call);
        ++list->requests;
        connect(call, &HttpCall::finished, this, [this, id, list, outstanding, then](const ApiResponse &r) {
            if (r.error.kind == Error::Kind::Http && r.status == 404) {
                m_kept.remove(id); // deleted since
            } else if (r.error.isError()) {
                if (!list->error.isError())
                    list->error = r.error;
            } else {
                const Error read = r.read([&](const QJsonObject &body) {
                    const QJsonObject server = body.value(QStringLiteral("server")).toObject();
                    PagedList one;
                    one.pageBodies = { QJsonDocument(
                        QJsonObject { { QStringLiteral("servers"), QJsonArray { server } } })
                                           .toJson(QJsonDocument::Compact) };
                    merge(one, false);
                });
                if (read.isError() && !list->error.isError())
                    list->error = read;
            }
            if (--*outstanding == 0)
                then();
        });
    }
}
