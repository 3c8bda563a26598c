#pragma once

#include "core/error.h"
#include "core/instance.h"
#include "core/keptbody.h"
#include "core/port.h"
#include "core/projectindex.h"
#include "core/recordpack.h"
#include "services/http/sharedresult.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

class HttpCall;
class KeystoneSession;
struct PagedList;

// The project's servers as `GET /servers/detail` lists them, at one moment.
struct ServerList
{
    QList<Instance> instances; // in Nova's order: newest first
    KeptBody body; // servers.json as a snapshot holds it: {"servers": [...]}, the records kept shared
    Error error; // why the list could not be read (then nothing else is set); read, it names the service
    QDateTime startedAt; // when its fetch began (this machine's clock)
    bool incremental = false; // brought up to date from the kept list, not listed whole
    QString whyWhole; // listed whole: why ("the first list", "every 10th refresh", …)
    int received = 0; // server records received
    // The project's ports, listed with the servers (trimmed with `fields=` to what diagnosis reads), and
    // ports.json as a snapshot holds it. portsError: why they could not be read (the servers may still be).
    QList<Port> ports;
    KeptBody portsBody;
    Error portsError;
    int requests = 0; // requests it took
    // The servers and ports indexed once for every kluster of the project (set with the list).
    std::shared_ptr<const ProjectIndex> index;
};

// When a refresh may bring the kept list up to date instead of listing it whole.
struct ServerCachePolicy
{
    bool incremental = true;
    int wholeEvery = 10; // every Nth fetch lists everything, whatever changed
    int wholeAfterSeconds = 3600; // and so does one after this long since the last whole list
    // Longer than this since the last fetch, Nova may have archived the deleted servers it would report.
    int maxGapSeconds = 3600;
    // changes-since reaches this far before the server's clock when the last fetch began (clock skew)
    int overlapSeconds = 30;
    int maxChangedPorts = 50; // more servers than this whose ports changed: list everything
};

// Keeps a project's servers between refreshes and shares them between its
// klusters. A refresh asks for a list no older than the moment it began: it
// gets the one in flight or just fetched when that began after, and
// otherwise a new fetch. After the first whole list, a fetch asks Nova only
// for what changed (`changes-since`, which also reports deleted servers), and
// reads again the servers whose ports changed: a security group added to or
// removed from a server changes its port, not Nova's record of it, and
// Neutron's own `changed_since` is refused where filters are validated (Zed),
// so the ports are listed with their revision numbers only and compared. It
// lists everything again when it cannot be sure (ServerCachePolicy, errors).
class ServerCache : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ServerCache)

public:
    explicit ServerCache(KeystoneSession *session, QObject *parent = nullptr);
    ~ServerCache() override;

    void setPolicy(const ServerCachePolicy &policy) { m_policy = policy; }
    const ServerCachePolicy &policy() const { return m_policy; }

    using Done = std::function<void(const std::shared_ptr<const ServerList> &)>;
    // `done` runs in `context` (never before this returns) with a list whose fetch began at or after
    // `notBefore`.
    void request(const QDateTime &notBefore, QObject *context, const Done &done);

private:
    struct Record
    {
        Instance instance;
        QByteArray json; // the record as Nova sent it, compact, packed with m_serverPack
    };
    struct PortMark
    {
        QString device;
        qint64 revision = -1;
    };
    using Ports = QHash<QString, PortMark>;
    void startFetch();
    // What one listing of the ports gave: their revisions by id, the ports, their body, or why not.
    struct PortListing
    {
        Ports marks;
        QList<Port> ports;
        KeptBody body;
        Error error;
        int requests = 0;
        QDateTime neutronClock; // Neutron's clock when it answered
    };
    // Lists the ports' revisions (the first time, every port in detail), reads in detail those new or changed
    // since, then `then` with them all.
    void fetchPorts(const std::function<void(const PortListing &)> &then);
    void fetchPortDetails(QStringList ids, const std::shared_ptr<PortListing> &listing,
        const std::function<void(const PortListing &)> &then);
    void keepPortDetails(const QList<Port> &ports, const QJsonObject &page);
    void finishPorts(
        const std::shared_ptr<PortListing> &listing, const std::function<void(const PortListing &)> &then);
    static void keepPorts(ServerList &list, const PortListing &ports);
    void fetchWhole(const QString &why);
    void fetchChanges();
    // The servers' clock as this fetch saw it: Nova's Date, else Neutron's, else this machine's.
    QDateTime serverClock(const QDateTime &novaClock, const QDateTime &neutronClock) const;
    // Where the next changes-since begins: that clock, less the overlap.
    void setWatermark(const QDateTime &novaClock, const QDateTime &neutronClock);
    // How many seconds the servers' clock is behind where it would be had it run as this machine's since the
    // last fetch (0 when it is not, or cannot be told).
    qint64 clockStepBack(const QDateTime &novaClock, const QDateTime &neutronClock) const;
    void finish(const std::shared_ptr<ServerList> &list);
    std::shared_ptr<ServerList> publish(bool incremental, int received);
    // Reads `page`'s server records (PageForm::Bytes) into the kept ones: replaced, added, or (status
    // DELETED) removed. Returns the ids of the records read.
    QStringList merge(const PagedList &page, bool whole);
    void fetchServersOf(
        const QStringList &ids, const std::shared_ptr<ServerList> &list, const std::function<void()> &then);

    KeystoneSession *m_session;
    ServerCachePolicy m_policy;
    QHash<QString, Record> m_kept;
    bool m_known = false; // m_kept holds a whole list, brought up to date
    QDateTime m_watermark; // where the next changes-since begins (UTC): see setWatermark()
    QDateTime m_serverClock; // the servers' clock at the last good fetch
    QDateTime m_lastFetch; // this machine's clock when the last good fetch began
    QDateTime m_lastWhole;
    int m_sinceWhole = 0;
    Ports m_ports; // the project's ports when the last good fetch began: id -> server, revision
    struct PortRecord
    {
        Port port;
        QByteArray json; // as Neutron sent it (the detail fields), compact, packed with m_portPack
    };
    QHash<QString, PortRecord> m_portDetails; // the ports as last read in detail, by id
    // The records kept packed against the first one read (a project's servers are alike, and its ports).
    std::shared_ptr<const RecordPack> m_serverPack;
    std::shared_ptr<const RecordPack> m_portPack;

    SharedResult<ServerList> m_shared; // who waits for which list, the last one, when the one in flight began
    QList<QPointer<HttpCall>> m_calls;
};
