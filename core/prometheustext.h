#pragma once

#include "core/diagnosis.h"
#include "core/diagnosisoptions.h"
#include "core/klusterstate.h"
#include "core/shard.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

// The Prometheus text exposition format (version 0.0.4) of the fleet's diagnosis, as docs/monitoring.md lists
// its metrics: what `check --all --format prometheus` prints and `serve` answers on /metrics. Pure: the same
// samples give the same bytes.
namespace PrometheusText {

// One kluster as the exposition sees it: what its last check read and found (null when it never could be
// read), and whether that check read every source.
struct Kluster
{
    QString name; // kluster_name
    QString projectId; // project_id (from the kluster's spec; the cloud's project when it could not be read)
    bool up = false; // the last check read every source
    const KlusterState *state = nullptr; // the data the findings come from (stale when !up)
    const Diagnosis *diagnosis = nullptr;
    DiagnosisOptions options; // for the router's route limit
    std::optional<double> checkSeconds; // how long the last check took
    QDateTime readAt; // when `state` was read
    std::optional<QDateTime> oldestOpenSince; // the oldest open warning or critical finding, from the history
};

struct Options
{
    // Each cloud and whether its klusters could be listed (a cloud that cannot be is otherwise silent).
    QList<std::pair<QString, bool>> cloudsListed;
    int nodeSeries = 0; // per-node series, at most this many in all (0: none)
    std::optional<double> runSeconds; // check --all: the whole run
    // serve: refreshes since start, and how long the previous answer took to make.
    std::optional<qint64> refreshesOk;
    std::optional<qint64> refreshesFailed;
    std::optional<double> scrapeSeconds;
    // serve: the shard it serves (0/1 without --shard), so that the shards can be told apart and one missing
    // seen.
    std::optional<Shard> shard;
};

// The content type the exposition is served with.
QByteArray contentType();

QByteArray write(const QList<Kluster> &klusters, const Options &options);

// A label value as the format escapes it (backslash, double quote, line feed); any other control character
// becomes U+FFFD.
QByteArray escapeLabelValue(const QString &value);

} // namespace PrometheusText
