// The bodies of a snapshot folder (docs: snapshot-format.md), one file kind per
// input: the first byte chooses the kind (its value modulo 8), the rest is the
// file's content.
//   0 kluster.json          ApiParser::parseKluster
//   1 servers.json          ApiParser::parseServers (+ KlusterState::noteIncompleteServers)
//   2 router.json           ApiParser::parseRouter
//   3 security-groups.json  ApiParser::parseSecurityGroups
//   4 nodes.json            ApiParser::parseNodes
//   5 extensions.json       ApiParser::parseExtensions
//   6 capture.json          SnapshotReader::read (the other files: examples/healthy)
//   7 ports.json            SnapshotReader::read (the other files: examples/healthy)
// Kinds 0-5 are parsed in memory through Qt's tree (parseJsonObject, then the
// ApiParser function); servers and nodes, which SnapshotReader::read reads
// from their bytes (simdjson), are read both ways and must give the same
// values or the same error. capture.json and ports.json are only read inside
// SnapshotReader::read, so those go through a folder; the ports read are then diagnosed
// (port-address-pair-missing against examples/healthy's nodes).
// Expected: ParseError for anything the parsers refuse; nothing else.

#include "core/apiparser.h"
#include "core/diagnosis.h"
#include "core/json/jsonreader.h"
#include "core/klusterstate.h"
#include "core/securitygroup.h"
#include "fuzz/fuzzcommon.h"
#include "services/local/snapshotreader.h"
#include "tests/common/bothreadings.h"

static QString g_snapshot;

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    // A valid snapshot whose capture.json or ports.json each input replaces.
    g_snapshot = fuzz::scratchDir() + QStringLiteral("/snapshot");
    QDir().mkpath(g_snapshot);
    const QDir healthy(QStringLiteral(FLIGHTDECK_SOURCE_DIR "/examples/healthy"));
    for (const QString &name : SnapshotReader::requiredFiles() + SnapshotReader::optionalFiles()) {
        if (healthy.exists(name))
            fuzz::writeFile(g_snapshot + QLatin1Char('/') + name, fuzz::readFile(healthy.filePath(name)));
    }
    return 0;
}

static void throughFolder(const QString &name, const QByteArray &body)
{
    static const QByteArray capture = fuzz::readFile(g_snapshot + QStringLiteral("/capture.json"));
    const QString path = g_snapshot + QLatin1Char('/') + name;
    fuzz::writeFile(path, body);
    try {
        const KlusterState state = SnapshotReader::read(g_snapshot);
        FUZZ_CHECK(state.capturedAt.isValid(), "a snapshot read without error has an invalid capturedAt");
        FUZZ_CHECK(!state.maxRoutes || (*state.maxRoutes > 0 && *state.maxRoutes <= 100000), "maxRoutes %d",
            *state.maxRoutes);
        if (name == QLatin1String("ports.json")) {
            // The ports are diagnosed against the healthy kluster's nodes: port-address-pair-missing's words,
            // evidence and repair from whatever was read.
            FUZZ_CHECK(state.portsSource.known, "ports.json read but the ports not known");
            const Diagnosis d = Diagnosis::run(state);
            for (const Finding &f : d.findings) {
                (void)f.message();
                (void)f.evidence();
                (void)f.repair();
            }
        }
    } catch (const ParseError &e) {
        (void)e.toString();
    }
    if (name == QLatin1String("capture.json"))
        fuzz::writeFile(path, capture);
    else
        QFile::remove(path);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int kind = data[0] % 8;
    const QByteArray body = fuzz::bytes(data + 1, size - 1);
    static const char *const names[] = { "kluster.json", "servers.json", "router.json",
        "security-groups.json", "nodes.json", "extensions.json", "capture.json", "ports.json" };
    const QString source = QString::fromLatin1(names[kind]);
    if (kind >= 6) {
        throughFolder(source, body);
        return 0;
    }
    if (kind == 1 || kind == 4) {
        const bothreadings::Readings r
            = kind == 1 ? bothreadings::servers(source, body) : bothreadings::nodes(source, body);
        FUZZ_CHECK(r.qt == r.bytes, "the two readings differ\nQt:    %s\nbytes: %s",
            qPrintable(r.qt.left(600)), qPrintable(r.bytes.left(600)));
        FUZZ_CHECK(r.whole == r.batched,
            "read whole and in batches, the nodes differ\nwhole:   %s\nbatches: %s",
            qPrintable(r.whole.left(600)), qPrintable(r.batched.left(600)));
    }
    try {
        const QJsonObject object = parseJsonObject(source, body);
        (void)apiErrorIn(object);
        switch (kind) {
        case 0: {
            const Kluster k = ApiParser::parseKluster(source, object);
            FUZZ_CHECK(!k.name.isEmpty() || object.value(QStringLiteral("name")).isString(),
                "kluster without a name");
            FUZZ_CHECK(k.clusterCidr.isValid(), "kluster with an invalid clusterCIDR accepted");
            // A pool size is taken as given or refused, never silently changed
            // (an integer wider than int must not wrap into a small count).
            const QJsonArray pools = object.value(QStringLiteral("spec"))
                                         .toObject()
                                         .value(QStringLiteral("nodePools"))
                                         .toArray();
            for (qsizetype i = 0; i < k.nodePools.size(); ++i) {
                const NodePool &p = k.nodePools.at(i);
                const QJsonValue given = pools.at(i).toObject().value(QStringLiteral("size"));
                FUZZ_CHECK(p.size >= 0, "negative pool size %d accepted", p.size);
                FUZZ_CHECK(!given.isDouble() || given.toDouble() == double(p.size),
                    "nodePools[%lld].size %.17g read as %d", qlonglong(i), given.toDouble(), p.size);
            }
            (void)k.expectedNodes();
            break;
        }
        case 1: {
            KlusterState state;
            state.instances = ApiParser::parseServers(source, object);
            state.noteIncompleteServers();
            break;
        }
        case 2:
            (void)ApiParser::parseRouter(source, object);
            break;
        case 3: {
            // Port ranges are taken as given or refused, never wrapped.
            const QList<SecurityGroup> groups = ApiParser::parseSecurityGroups(source, object);
            const QJsonArray list = object.value(QStringLiteral("security_groups")).toArray();
            for (qsizetype g = 0; g < groups.size(); ++g) {
                const QJsonArray rules
                    = list.at(g).toObject().value(QStringLiteral("security_group_rules")).toArray();
                for (qsizetype r = 0; r < groups.at(g).rules.size(); ++r) {
                    const SecurityGroupRule &rule = groups.at(g).rules.at(r);
                    const QJsonObject given = rules.at(r).toObject();
                    for (const auto &[key, value] : { std::pair { "port_range_min", rule.portRangeMin },
                             std::pair { "port_range_max", rule.portRangeMax } }) {
                        const QJsonValue v = given.value(QLatin1String(key));
                        FUZZ_CHECK(!v.isDouble() || (value && double(*value) == v.toDouble()),
                            "security_groups[%lld].security_group_rules[%lld].%s %.17g read as %d",
                            qlonglong(g), qlonglong(r), key, v.toDouble(), value.value_or(-1));
                    }
                }
            }
            break;
        }
        case 4:
            (void)ApiParser::parseNodes(source, object);
            break;
        case 5:
            (void)ApiParser::parseExtensions(source, object);
            break;
        }
    } catch (const ParseError &e) {
        // Building the message walks the JSON path: part of what is fuzzed.
        (void)e.toString();
    }
    return 0;
}
