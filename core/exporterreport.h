#pragma once

#include "core/error.h"
#include "core/finding.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QUrl>
#include <memory>
#include <optional>

// A kluster's report as its exporter serves it (`flightdeck-cli serve`'s /klusters/<name>: the JSON of
// `check --format json`, snapshot-format.md), read back for a person who has no connection to its cloud:
// what each finding is, its message and its planned repair, the incidents, the counts. Read-only: the
// requests are shown, never sent. And where the exporter is: Prometheus' /api/v1/targets names each scrape
// target's URL (docs/wire-formats.md, "Prometheus").
namespace ExporterReport {

struct Request
{
    QString method; // PUT
    QString service; // network
    QString path; // /v2.0/routers/<id>
    QString permission; // allowed, denied, unknown; empty when the report did not judge it
};

struct Reported
{
    QString id; // route-duplicate:198.19.1.0/24
    QString kind;
    QString subject;
    Severity severity = Severity::Info;
    QString message;
    QString repairTitle; // empty: no repair
    QList<Request> requests;
    QString incident; // the incident's id it is part of, if any
    QString automation; // "flight: delete the instance, due …": an actor repairs it
};

struct Incident
{
    QString id;
    QString rule;
    QString title;
    Severity severity = Severity::Info;
    QStringList members;
    QString repairTitle;
};

struct Report
{
    QString kluster;
    QDateTime capturedAt; // when its exporter read the kluster
    QString phase;
    QList<Reported> findings; // the report's order: severity, kind, subject
    QList<Incident> incidents;
    int critical = 0; // the summary's
    int warning = 0;
    int info = 0;
};

// Reads a report; throws ParseError naming `what` and the JSON path for what it cannot read (not JSON, a
// finding without an id, a severity it does not know). Unknown keys are ignored.
Report parse(const QByteArray &body, const QString &what);

// The base URL of the exporter Prometheus scrapes as `instance` of `job`, from its /api/v1/targets answer:
// the active target's scrapeUrl without its query and its metrics path's last segment
// (`http://host:9473/metrics` → `http://host:9473`). Nullopt when Prometheus scrapes no such target now;
// throws ParseError when the answer is not Prometheus' (its status, data.activeTargets). `job` (when given)
// must match too: relabelling may name two targets of one host alike.
std::optional<QUrl> exporterUrl(
    const QByteArray &targetsBody, const QString &instance, const QString &job, const QString &what);
// An exporter's guess when Prometheus names none: http://<instance>.
QUrl exporterUrlOf(const QString &instance);
// /klusters/<name>?project_id=<id> under the exporter's URL, the name and id percent-encoded whole.
QUrl reportUrl(const QUrl &exporter, const QString &kluster, const QString &projectId);

// One reading of a kluster's report, as the console keeps it.
struct Read
{
    std::shared_ptr<const Report> report; // null: not read (`error` says why)
    Error error;
    QString url; // where it was read (no secret in it)
    QDateTime readAt;
};

} // namespace ExporterReport
