#pragma once

#include "core/klusterstanding.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QString>
#include <optional>

// A fleet as the team's Prometheus holds it: every kluster the `flightdeck-cli serve` exporters it scrapes
// export (docs/monitoring.md), read with a few instant queries per round, never one per kluster. Two
// exporters of the same klusters (an HA pair) give one kluster; shards of one cloud join into one fleet; the
// klusters of an exporter that is no longer scraped are held from the look-back, stale. Pure: the answers'
// bytes in, the fleet out.
namespace ExportedFleet {

// The instant queries of one round, in the order they are sent.
enum class Query
{
    Current, // every kluster's series in the exporters' last scrape, by their metric names
    Incidents, // every kluster's open incidents in the exporters' last scrape, summed
    Held, // what exporters no longer scraped gave within the look-back (1 h)
    Exporters, // each exporter: scraped now or not, when last, its shard
};
inline constexpr int QueryCount = 4;
QString queryName(Query query); // "current", "incidents", "held", "exporters"
QString promql(Query query); // the PromQL sent

// One sample of an instant query's vector.
struct Sample
{
    QMap<QString, QString> labels;
    double value = 0;
    double timestamp = 0; // seconds: the evaluation's time
};
// An instant query's answer (/api/v1/query), its vector read; throws ParseError for anything else (an error
// answer names Prometheus' errorType and error).
QList<Sample> parseVector(const QByteArray &body, const QString &what);
// Any answer of Prometheus' HTTP API, its envelope checked: the root object, its "status" "success" (else a
// ParseError with Prometheus' own error and errorType). Its "data" is the caller's to read.
QJsonValue answerRoot(const QByteArray &body, const QString &what);

// One kluster as an exporter gave it, the freshest of those that did.
struct Kluster
{
    QString name; // kluster_name
    QString projectId; // project_id
    // The scrape's own labels that tell two klusters of one name apart (region, …): every label that is not
    // the kluster's, the exporter's (instance, job) or a series' own.
    QMap<QString, QString> target;
    QString exporter; // the instance whose series are shown
    QString job; // its scrape job (an instance may be scraped by several jobs)
    int exporters = 1; // how many gave it (an HA pair: 2)
    bool present = false; // in that exporter's last scrape; false: held from the look-back
    bool up = false; // flightdeck_up: the exporter's last check read every source
    std::optional<QDateTime> readAt; // flightdeck_last_success_timestamp_seconds
    QString phase; // flightdeck_kluster_phase ("Running", "Terminating", "Gone", "none"); empty: unknown
    KlusterStanding standing; // flightdeck_causes, flightdeck_incidents, flightdeck_worst_cause_rank
    Reading reading = Reading::NotRead;

    // "<name>" or "<name> (region=eu-de-1)": what a list shows.
    QString title() const;
    // The kluster's identity in the fleet: its name, project and target labels.
    QString identity() const;
};

// One exporter (a scrape target that exported flightdeck_build_info within the look-back).
struct Exporter
{
    QString instance;
    QString job;
    bool up = false; // Prometheus' `up` of its last scrape
    std::optional<QDateTime> lastSeen; // its last successful scrape
    std::optional<int> shard; // flightdeck_shard_info, when it serves a shard
    std::optional<int> shards;
    int klusters = 0; // the klusters whose shown series it gave
};

struct Fleet
{
    QList<Kluster> klusters; // worst first (KlusterRanking)
    QList<Exporter> exporters; // by instance
    QDateTime evaluatedAt; // Prometheus' time of the queries
    int duplicates = 0; // kluster series given twice or more (HA) and shown once
};

// The fleet of one round's answers (one per Query, in its order). A kluster's reading: fresh when its
// exporter's last scrape had it and its check read every source; stale when the check did not, or when only
// the look-back holds it (its exporter is no longer scraped).
Fleet assemble(const QList<QList<Sample>> &answers);

// Each kluster's name in a list of the fleet, unique, in the fleet's order: its name where no other kluster
// has it, else its title() (its target labels), else that and its project ("k (region=eu-de-1) · project
// p1"). Never a '/' (a kluster key's separator): one becomes U+2215.
QStringList displayNames(const Fleet &fleet);

// The exporters' state in a line: "2 exporters, 1 not scraped since 14:02:11 (127.0.0.1:9473)".
QString exportersText(const Fleet &fleet);

} // namespace ExportedFleet
