#include "services/local/snapshotreader.h"

#include "core/apiparser.h"
#include "core/permission.h"
#include "core/routerdevice.h"
#include "services/local/inputlimits.h"
#include "services/local/localfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

const QStringList &SnapshotReader::requiredFiles()
{
    static const QStringList files = [] {
        QStringList names { captureFile() };
        for (Source s : Sources::required())
            names << Sources::file(s);
        return names;
    }();
    return files;
}

const QStringList &SnapshotReader::optionalFiles()
{
    static const QStringList files = [] {
        QStringList names;
        for (Source s : Sources::optional())
            names << Sources::file(s);
        return names;
    }();
    return files;
}

std::optional<QByteArray> SnapshotReader::readBody(const QString &path, Error *error)
{
    // A regular file (a link to one is fine), and not larger than a body may be: a FIFO would never end,
    // a link to /dev/zero never stop growing.
    std::optional<QByteArray> bytes = LocalFile::read(path, InputLimits::maxBodyBytes(), error);
    if (!bytes && error->kind == Error::Kind::TooLarge)
        *error
            = Error::inSource(Error::Kind::TooLarge, path, InputLimits::tooLarge(QStringLiteral("the file")));
    return bytes;
}

// A file or folder of the snapshot that is not there (or not what it should be), thrown.
[[noreturn]] static void refuse(const QString &path, const QString &why)
{
    throw ParseError(Error::inSource(Error::Kind::Io, path, why));
}

static QByteArray readFile(const QString &path, bool required, bool *present)
{
    if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink()) {
        *present = false;
        if (required)
            refuse(path, QStringLiteral("required file is missing"));
        return QByteArray();
    }
    *present = true;
    Error error;
    std::optional<QByteArray> bytes = SnapshotReader::readBody(path, &error);
    if (!bytes)
        throw ParseError(error);
    return *bytes;
}

KlusterState SnapshotReader::read(const QString &directory)
{
    const QFileInfo info(directory);
    if (!info.exists())
        refuse(directory, QStringLiteral("no such snapshot folder"));
    if (!info.isDir())
        refuse(directory, QStringLiteral("not a folder; a snapshot is a folder of JSON files"));
    const QDir dir(directory);
    auto pathOf = [&dir](const QString &name) { return QDir::cleanPath(dir.filePath(name)); };

    // Check that every required file is there before parsing anything, so the
    // first error names the first missing file.
    for (const QString &name : requiredFiles()) {
        if (!QFileInfo::exists(pathOf(name)))
            refuse(pathOf(name), QStringLiteral("required file is missing"));
    }

    KlusterState state;
    bool present = false;

    {
        const QString path = pathOf(captureFile());
        const QJsonObject body = parseJsonObject(path, readFile(path, true, &present));
        const JsonReader root(path, body);
        const QString captured = root.requireString(QStringLiteral("capturedAt"));
        state.capturedAt = ApiParser::parseTimestamp(captured, true);
        if (!state.capturedAt.isValid())
            root.failAt(QStringLiteral("capturedAt"),
                QStringLiteral("not an RFC 3339 date-time with a zone (like 2026-11-21T10:00:00Z): %1")
                    .arg(quotedExcerpt(captured)));
        if (const auto maxRoutes = root.optInteger(QStringLiteral("maxRoutes"))) {
            if (*maxRoutes <= 0 || *maxRoutes > 100000)
                root.failAt(QStringLiteral("maxRoutes"), QStringLiteral("must be a positive route count"));
            state.maxRoutes = int(*maxRoutes);
        }
        state.cloud = root.optString(QStringLiteral("cloud"));
        state.region = root.optString(QStringLiteral("region"));
        state.tool = root.optString(QStringLiteral("tool"));
    }
    {
        const QString path = pathOf(Sources::file(Source::Kluster));
        state.kluster = ApiParser::parseKluster(path, parseJsonObject(path, readFile(path, true, &present)));
        state.klusterSource.known = true;
    }
    {
        const QString path = pathOf(Sources::file(Source::Servers));
        state.instances = ApiParser::parseServers(path, readFile(path, true, &present));
        state.serversSource.known = true;
        state.noteIncompleteServers();
    }
    {
        const QString path = pathOf(Sources::file(Source::Router));
        state.router = ApiParser::parseRouter(path, parseJsonObject(path, readFile(path, true, &present)));
        if (state.router.id != state.kluster.routerId) {
            throw ParseError { path, QStringLiteral("$.router.id"),
                QStringLiteral("is %1, but the kluster's spec.openstack.routerID is %2")
                    .arg(quotedExcerpt(state.router.id), quotedExcerpt(state.kluster.routerId)) };
        }
        state.routerSource.known = true;
    }
    {
        const QString path = pathOf(Sources::file(Source::SecurityGroups));
        state.securityGroups
            = ApiParser::parseSecurityGroups(path, parseJsonObject(path, readFile(path, true, &present)));
        state.securityGroupsSource.known = true;
    }
    {
        const QString path = pathOf(Sources::file(Source::Nodes));
        state.nodes = ApiParser::parseNodes(path, readFile(path, true, &present));
        state.nodesSource.known = true;
    }
    {
        const QString path = pathOf(Sources::file(Source::Extensions));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.extensions = ApiParser::parseExtensions(path, parseJsonObject(path, bytes));
            state.extensionsKnown = true;
        }
    }
    {
        const QString path = pathOf(Sources::file(Source::Ports));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.ports = ApiParser::parsePorts(path, parseJsonObject(path, bytes));
            state.portsSource.known = true;
        }
    }
    {
        const QString path = pathOf(Sources::file(Source::RouterDevice));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.routerDevices = RouterDeviceReader::read(path, parseJsonObject(path, bytes), state.router);
            state.routerDeviceSource.known = true;
        }
    }
    {
        const QString path = pathOf(Sources::file(Source::KubernikusEvents));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.kubernikusEvents = KubernikusEvents::parse(path, bytes);
            state.kubernikusEventsSource.known = true;
        }
    }
    {
        // What a terminated kluster leaves behind (diagnosis.md §9).
        const QString path = pathOf(Sources::file(Source::Volumes));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.volumes = Debris::parseVolumes(path, parseJsonObject(path, bytes));
            state.volumesSource.known = true;
        }
    }
    {
        const QString path = pathOf(Sources::file(Source::LoadBalancers));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.loadBalancers = Debris::parseLoadBalancers(path, parseJsonObject(path, bytes));
            state.loadBalancersSource.known = true;
        }
    }
    {
        // Who read it (diagnosis.md §8): each plan is judged with the roles and rules it holds.
        const QString path = pathOf(Sources::file(Source::Token));
        const QByteArray bytes = readFile(path, false, &present);
        if (present) {
            state.credentials = std::make_shared<const Credentials>(Credentials::fromTokenJson(path, bytes));
            state.tokenSource.known = true;
        }
    }
    return state;
}
