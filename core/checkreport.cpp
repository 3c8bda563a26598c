#include "core/checkreport.h"

#include "core/apiparser.h"
#include "core/diagnosiscontext.h"
#include "core/json/jsonwriter.h"
#include "core/printable.h"
#include "core/repairgate.h"
#include "core/source.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace CheckReport {

// A route finding's plan on a router without extraroute-atomic is a full-list update: PUT
// /v2.0/routers/{id} with every route the router is to hold. With thousands of routes and as many route
// findings, the report would hold the square of the count (millions of routes, minutes to build). Past
// this many route entries in all, those plans are withheld from the report: never built, refused as
// TooLarge so that no script sends them, each one a `flightdeck-cli repair --finding ID` away.
constexpr qint64 MaxReportedRouteEntries = 250000;

// The alerts the text report lists (the worst first; the rest counted).
constexpr qsizetype TextAlerts = 50;

static bool hasFullListPlan(const Finding &f)
{
    return f.context && !f.context->atomicRoutes && findingFamily(f.kind) == FindingFamily::Route
        && f.kind != FindingKind::RouteLimit && f.kind != FindingKind::RouteRecycled;
}

// How many findings have a full-list plan, when they are too many to report; 0 when they are reported.
static qint64 withheldFullLists(const KlusterState &state, const Diagnosis &diagnosis)
{
    const qint64 plans
        = std::count_if(diagnosis.findings.cbegin(), diagnosis.findings.cend(), hasFullListPlan);
    return plans * qint64(state.router.routes.size()) > MaxReportedRouteEntries ? plans : 0;
}

ReportedPlans::ReportedPlans(const KlusterState &state, const Diagnosis &diagnosis)
    : m_state(state)
    , m_diagnosis(diagnosis)
    , m_withheld(withheldFullLists(state, diagnosis))
{ }

// The finding's plan, or (withheld) its title and the TooLarge refusal alone; judged as `repair` judges it.
RepairGate::Decision ReportedPlans::of(const Finding &f) const
{
    if (m_withheld == 0 || !hasFullListPlan(f))
        return RepairGate::judge(f, f.repair(), m_diagnosis.budget);
    RepairPlan plan;
    plan.action = f.kind == FindingKind::RouteMissing ? RepairPlan::Action::AddRoutes
                                                      : RepairPlan::Action::RemoveRoutes;
    plan.title = f.kind == FindingKind::RouteMissing
        ? QStringLiteral("Add the route to router %1 (a full-list update)").arg(m_state.router.name)
        : QStringLiteral("Remove the wrong route(s) from router %1 (a full-list update)")
              .arg(m_state.router.name);
    plan.refusal = Refusal::TooLarge;
    plan.refusalDetail = QStringLiteral(
        "its exact request is the router's whole list of %1 routes, and %2 findings need one "
        "each: the report would hold %3 routes. Show and send it alone with "
        "flightdeck-cli repair --finding %4")
                             .arg(m_state.router.routes.size())
                             .arg(m_withheld)
                             .arg(m_withheld * qint64(m_state.router.routes.size()))
                             .arg(f.id());
    return RepairGate::judge(f, plan, m_diagnosis.budget);
}

Refusal ReportedPlans::refusalOf(const RepairGate::Decision &gate, QString *detail)
{
    if (!gate.plan || gate.mayBeSent(false)) { // a report overrides nothing
        detail->clear();
        return Refusal::None;
    }
    *detail = gate.detail;
    if (gate.verdict == RepairGate::Verdict::NeedsOverride)
        *detail += QStringLiteral(" (this one alone may be sent with the explicit override: "
                                  "flightdeck-cli repair --finding %1 --override)")
                       .arg(gate.finding->id());
    return gate.reason;
}

// A plan as the report gives it (a finding's and an incident's alike): its title, its exact requests, and
// why it must not be sent as it stands; null when there is none. `gate`: the gate's decision on it, whose
// refusal (the plan's own, the remediation budget's, a disrupted zone's) is the one written, so that no
// script that sends what the report says sends what the console and `repair` would refuse.
static void writePlan(
    JsonWriter &w, const std::optional<RepairPlan> &repair, const RepairGate::Decision *gate = nullptr)
{
    if (!repair) {
        w.value(QJsonValue());
        return;
    }
    QString detail = repair->refusalDetail;
    const Refusal reason = gate ? ReportedPlans::refusalOf(*gate, &detail) : repair->refusal;
    w.beginObject();
    w.key(QStringLiteral("title"));
    w.value(repair->title);
    w.key(QStringLiteral("requests"));
    w.beginArray();
    for (const PlannedRequest &r : repair->requests)
        r.writeJudged(w);
    w.endArray();
    if (reason != Refusal::None) {
        // Why this plan must not be sent as it stands (NoEvidence, NoRevision, RouteLimit, TooLarge,
        // TooManyUnhealthy, ZoneDisruption): a script must not send it.
        w.key(QStringLiteral("refusal"));
        w.beginObject();
        w.key(QStringLiteral("reason"));
        w.value(refusalName(reason));
        w.key(QStringLiteral("detail"));
        w.value(detail);
        w.endObject();
    }
    w.endObject();
}

static QJsonObject stringObject(const QMap<QString, QString> &map)
{
    QJsonObject o;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

static void writeAlerts(JsonWriter &w, const KlusterAlerts &alerts)
{
    if (!alerts.known) {
        w.value(QJsonValue());
        return;
    }
    w.beginArray();
    for (const Alert &a : alerts.alerts) {
        w.beginObject();
        w.key(QStringLiteral("labels"));
        w.value(stringObject(a.labels));
        w.key(QStringLiteral("annotations"));
        w.value(stringObject(a.annotations));
        w.key(QStringLiteral("startsAt"));
        w.value(ApiParser::formatTimestamp(a.startsAt));
        w.key(QStringLiteral("state"));
        w.value(alertStateName(a.state));
        w.key(QStringLiteral("silencedBy"));
        w.value(QJsonArray::fromStringList(a.silencedBy));
        w.key(QStringLiteral("findings"));
        w.value(QJsonArray::fromStringList(a.findings));
        w.endObject();
    }
    w.endArray();
}

// The alerts' section of the text report: each alert, what it concerns, and the two gaps.
static void writeAlertsText(QString &out, const KlusterAlerts &alerts, const Diagnosis &diagnosis)
{
    if (!alerts.configured)
        return;
    if (!alerts.known) {
        out += QStringLiteral("\nAlerts: not read (%1)\n").arg(printable(alerts.error));
        return;
    }
    const int unexplained = Alerts::unexplainedCount(alerts.alerts);
    out += QStringLiteral("\nAlerts in Alertmanager: %1").arg(alerts.alerts.size() + alerts.omitted);
    if (unexplained > 0)
        out += QStringLiteral(", %1 that no finding explains").arg(unexplained);
    out += QLatin1Char('\n');
    // The worst first, at most TextAlerts of them: a storm of alerts is one line more, not a wall.
    QList<Alert> worst = alerts.alerts;
    std::stable_sort(worst.begin(), worst.end(), Alerts::worstFirst);
    const qsizetype more = qMax<qsizetype>(0, worst.size() - TextAlerts) + alerts.omitted;
    worst = worst.mid(0, TextAlerts);
    for (const Alert &a : std::as_const(worst)) {
        QString status = alertStateName(a.state);
        if (a.silenced())
            status = QStringLiteral("silenced");
        out += QStringLiteral("  %1  %2 (%3, since %4)\n      %5\n")
                   .arg(a.severity().isEmpty() ? QStringLiteral("-").leftJustified(8)
                                               : printable(a.severity()).toUpper().leftJustified(8),
                       printable(a.name()), status, ApiParser::formatTimestamp(a.startsAt),
                       printable(a.summary()));
        if (a.findings.isEmpty())
            out += QStringLiteral(
                "      -> no finding explains it: the cause is outside what Flightdeck reads\n");
        else
            out += QStringLiteral("      -> %1\n").arg(printable(a.findings.join(QStringLiteral(", "))));
    }
    if (more > 0)
        out += QStringLiteral("  … and %1 more, less grave (--format json lists up to %2)\n")
                   .arg(more)
                   .arg(Alerts::MaxPerKluster);
    const QStringList uncovered = Alerts::uncoveredCriticalFindings(alerts.alerts, diagnosis);
    if (!uncovered.isEmpty())
        out += QStringLiteral("Critical findings no alert covers (a gap in the monitoring): %1\n")
                   .arg(printable(uncovered.join(QStringLiteral(", "))));
}

// The optional sources a live read asked for (the router's device, Kubernikus' events), each read or why not
// (snapshot-format.md: "sources"); one a snapshot did not hold is not said.
static void writeSources(JsonWriter &w, const KlusterState &state)
{
    const std::pair<Source, const SourceStatus *> asked[] = {
        { Source::RouterDevice, &state.routerDeviceSource },
        { Source::KubernikusEvents, &state.kubernikusEventsSource },
        { Source::Volumes, &state.volumesSource },
        { Source::LoadBalancers, &state.loadBalancersSource },
    };
    bool open = false;
    for (const auto &[source, status] : asked) {
        if (!status->known && status->error.isEmpty())
            continue;
        if (!std::exchange(open, true)) {
            w.key(QStringLiteral("sources"));
            w.beginObject();
        }
        w.key(Sources::key(source));
        w.beginObject();
        w.key(QStringLiteral("read"));
        w.value(status->known);
        if (!status->known) {
            w.key(QStringLiteral("error"));
            w.value(status->error);
        }
        w.endObject();
    }
    if (open)
        w.endObject();
}

// What Kubernikus itself recorded lately (its timeline's last day), or why it could not be read.
static void writeKubernikusText(QString &out, const KlusterState &state)
{
    const SourceStatus &source = state.kubernikusEventsSource;
    if (!source.known) {
        if (!source.error.isEmpty())
            out += QStringLiteral("Kubernikus' events: not read (%1)\n").arg(printable(source.error));
        return;
    }
    const QList<KubernikusEvent> lately
        = KubernikusEvents::since(state.kubernikusEvents, state.capturedAt.addDays(-1));
    if (lately.isEmpty())
        return;
    constexpr int Shown = 5;
    out += QStringLiteral("Kubernikus said in the last 24 h (%1 event(s), newest first):\n")
               .arg(lately.size());
    for (qsizetype i = 0; i < std::min<qsizetype>(lately.size(), Shown); ++i)
        out += QStringLiteral("  %1  %2\n")
                   .arg(ApiParser::formatTimestamp(lately.at(i).when()), printable(lately.at(i).summary()));
    if (lately.size() > Shown)
        out += QStringLiteral("  … and %1 older\n").arg(lately.size() - Shown);
}

QByteArray toJson(const KlusterState &state, const Diagnosis &diagnosis, const KlusterAlerts &alerts)
{
    const ReportedPlans plans(state, diagnosis);
    JsonWriter w;
    w.beginObject();
    w.key(QStringLiteral("kluster"));
    w.value(state.kluster.name);
    w.key(QStringLiteral("capturedAt"));
    w.value(ApiParser::formatTimestamp(state.capturedAt));
    // The kluster's status.phase (snapshot-format.md: always present; null where Kubernikus said none).
    w.key(QStringLiteral("phase"));
    w.value(state.kluster.phase.isEmpty() ? QJsonValue() : QJsonValue(state.kluster.phase));
    // A kluster Kubernikus no longer has (diagnosis.md §9): when the local history last saw it.
    if (state.kluster.gone) {
        w.key(QStringLiteral("gone"));
        w.value(QJsonObject { { QStringLiteral("lastSeen"),
            state.kluster.lastSeen.isValid() ? QJsonValue(ApiParser::formatTimestamp(state.kluster.lastSeen))
                                             : QJsonValue() } });
    }
    w.key(QStringLiteral("findings"));
    w.beginArray();
    for (const Finding &f : diagnosis.findings) {
        w.beginObject();
        w.key(QStringLiteral("id"));
        w.value(f.id());
        w.key(QStringLiteral("kind"));
        w.value(findingKindName(f.kind));
        w.key(QStringLiteral("subject"));
        w.value(f.subject);
        w.key(QStringLiteral("severity"));
        w.value(severityName(f.severity));
        w.key(QStringLiteral("message"));
        w.value(f.message());
        w.key(QStringLiteral("evidence"));
        w.value(f.evidence());
        w.key(QStringLiteral("repair"));
        const RepairGate::Decision decision = plans.of(f);
        writePlan(w, decision.plan, &decision);
        // Who else repairs it, and when (diagnosis.md §7): only where an actor does.
        if (const std::optional<Automation> automation = f.automation()) {
            w.key(QStringLiteral("automation"));
            w.value(automation->toJson());
        }
        if (const Incident *incident = diagnosis.incidentOf(f.id())) {
            w.key(QStringLiteral("incident"));
            w.value(incident->id());
        }
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("incidents"));
    w.beginArray();
    for (const Incident &i : diagnosis.incidents) {
        w.beginObject();
        w.key(QStringLiteral("id"));
        w.value(i.id());
        w.key(QStringLiteral("rule"));
        w.value(incidentRuleName(i.rule));
        w.key(QStringLiteral("key"));
        w.value(i.key);
        w.key(QStringLiteral("severity"));
        w.value(severityName(i.severity));
        w.key(QStringLiteral("title"));
        w.value(i.title);
        w.key(QStringLiteral("members"));
        w.value(QJsonArray::fromStringList(i.members));
        w.key(QStringLiteral("repair"));
        writePlan(w, i.repair());
        w.endObject();
    }
    w.endArray();
    if (alerts.configured) {
        w.key(QStringLiteral("alerts"));
        writeAlerts(w, alerts);
        if (alerts.known && alerts.omitted > 0) { // the least grave, past Alerts::MaxPerKluster
            w.key(QStringLiteral("alertsOmitted"));
            w.value(QJsonValue(qint64(alerts.omitted)));
        }
    }
    const RemediationBudget &b = diagnosis.budget;
    w.key(QStringLiteral("budget"));
    w.beginObject();
    w.key(QStringLiteral("expected"));
    w.value(b.expected);
    w.key(QStringLiteral("ready"));
    w.value(b.ready);
    w.key(QStringLiteral("unhealthy"));
    w.value(b.unhealthy);
    w.key(QStringLiteral("maxUnhealthy"));
    w.value(b.maxUnhealthy);
    w.key(QStringLiteral("deletionsAllowed"));
    w.value(b.deletionsAllowed);
    w.key(QStringLiteral("reason"));
    w.value(b.reason == Refusal::None ? QJsonValue() : QJsonValue(refusalName(b.reason)));
    w.endObject();
    w.key(QStringLiteral("summary"));
    w.beginObject();
    w.key(QStringLiteral("critical"));
    w.value(diagnosis.count(Severity::Critical));
    w.key(QStringLiteral("warning"));
    w.value(diagnosis.count(Severity::Warning));
    w.key(QStringLiteral("info"));
    w.value(diagnosis.count(Severity::Info));
    w.endObject();
    writeSources(w, state);
    w.endObject();
    return w.takeBytes();
}

static QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    return QStringLiteral("null");
}

// One finding as the report details it: its message, evidence, automation and plan (with why it is refused).
static QString findingText(const KlusterState &state, const Finding &f, const ReportedPlans &plans)
{
    QString out;
    out += QStringLiteral("  [%1] %2\n").arg(severityName(f.severity).toUpper(), printable(f.id()));
    out += QStringLiteral("    %1\n").arg(printable(f.message()));
    out += QStringLiteral("    Evidence:\n");
    const QJsonObject evidence = f.evidence();
    for (auto it = evidence.begin(); it != evidence.end(); ++it)
        out += QStringLiteral("      %1: %2\n").arg(printable(it.key()), printable(compact(it.value())));
    if (const std::optional<Automation> automation = f.automation())
        out += QStringLiteral("    Automation: %1\n").arg(automation->line(state.capturedAt));
    const RepairGate::Decision decision = plans.of(f);
    const std::optional<RepairPlan> &repair = decision.plan;
    if (!repair) {
        out += QStringLiteral("    Repair: none (see the message)\n");
        return out;
    }
    out += QStringLiteral("    Repair: %1\n").arg(printable(repair->title));
    for (const PlannedRequest &r : repair->requests) {
        out += QStringLiteral("      %1 %2 %3").arg(r.method, r.service, printable(r.path));
        for (auto h = r.headers.begin(); h != r.headers.end(); ++h)
            out += QStringLiteral(" [%1: %2]").arg(printable(h.key()), printable(h.value().toString()));
        out += QLatin1Char('\n');
        if (!r.body.isNull()) {
            const QString body = compact(r.body);
            const QJsonArray routes = r.body.toObject()
                                          .value(QStringLiteral("router"))
                                          .toObject()
                                          .value(QStringLiteral("routes"))
                                          .toArray();
            if (body.size() <= 400 || routes.isEmpty())
                out += QStringLiteral("        %1\n").arg(printable(body));
            else
                out += QStringLiteral("        {\"router\": {\"routes\": [the router's full new list: %1 "
                                      "route(s), %2, in router order]}} (the exact body: --format json)\n")
                           .arg(routes.size())
                           .arg(repair->action == RepairPlan::Action::AddRoutes
                                   ? QStringLiteral("every current route and the added one")
                                   : QStringLiteral("every current route but the removed ones"));
        }
    }
    QString detail;
    const Refusal refusal = ReportedPlans::refusalOf(decision, &detail);
    if (refusal == Refusal::None)
        return out;
    out += QStringLiteral("      Refused (%1%2): %3\n")
               .arg(refusalName(refusal),
                   decision.byBudget ? QStringLiteral(", the remediation budget") : QString(),
                   printable(detail));
    return out;
}

// "Kluster demo · captured … · cloud … · region … · phase …"
static QString headerLine(const KlusterState &state)
{
    const Kluster &k = state.kluster;
    QString out = QStringLiteral("Kluster %1 · captured %2")
                      .arg(printable(k.name), ApiParser::formatTimestamp(state.capturedAt));
    if (!state.cloud.isEmpty())
        out += QStringLiteral(" · cloud %1").arg(printable(state.cloud));
    if (!state.region.isEmpty())
        out += QStringLiteral(" · region %1").arg(printable(state.region));
    if (!k.phase.isEmpty())
        out += QStringLiteral(" · phase %1").arg(printable(k.phase));
    if (k.gone)
        out += k.lastSeen.isValid()
            ? QStringLiteral(" · gone (last seen %1)").arg(ApiParser::formatTimestamp(k.lastSeen))
            : QStringLiteral(" · gone");
    return out + QLatin1Char('\n');
}

QByteArray explain(const KlusterState &state, const Diagnosis &diagnosis, const QString &findingId)
{
    const Finding *f = diagnosis.find(findingId);
    if (!f)
        return {};
    QString out = headerLine(state) + QLatin1Char('\n');
    if (const Incident *i = diagnosis.incidentOf(f->id()))
        out += QStringLiteral("Part of the incident %1: %2\n\n").arg(printable(i->id()), printable(i->title));
    out += findingText(state, *f, ReportedPlans(state, diagnosis));
    return out.toUtf8();
}

QByteArray toText(const KlusterState &state, const Diagnosis &diagnosis, const KlusterAlerts &alerts)
{
    QString out = headerLine(state);
    const Kluster &k = state.kluster;
    // What was not read is said so, never counted as none.
    const auto counted = [](const SourceStatus &source, qsizetype n, const QString &what) {
        return source.known ? QStringLiteral("%1 %2").arg(n).arg(what)
                            : QStringLiteral("%1 unknown").arg(what);
    };
    out += QStringLiteral(
        "Pod network %1 · security group %2 · router %3 with %4 · %5 in the project · %6%7\n")
               .arg(k.clusterCidr.toString(), printable(k.securityGroupName), printable(state.router.id),
                   counted(state.routerSource, state.router.routes.size(), QStringLiteral("route(s)")),
                   counted(state.serversSource, state.instances.size(), QStringLiteral("server(s)")),
                   counted(state.nodesSource, state.nodes.size(), QStringLiteral("node(s)")),
                   state.routerSource.known
                       ? QStringLiteral(" · route limit %1")
                             .arg(diagnosis.routeLimit > 0 ? QString::number(diagnosis.routeLimit)
                                                           : QStringLiteral("unknown"))
                       : QString());
    for (const QString &note : diagnosis.notDiagnosed)
        out += QStringLiteral("NOT DIAGNOSED: %1\n").arg(printable(note));

    const RemediationBudget &budget = diagnosis.budget;
    const int critical = diagnosis.count(Severity::Critical);
    const int warning = diagnosis.count(Severity::Warning);
    out += QStringLiteral("\nVerdict: %1 (%2 critical, %3 warning, %4 info)\n")
               .arg(critical     ? QStringLiteral("CRITICAL")
                       : warning ? QStringLiteral("WARNING")
                                 : QStringLiteral("OK"))
               .arg(critical)
               .arg(warning)
               .arg(diagnosis.count(Severity::Info));
    if (budget.deletionsAllowed)
        out += QStringLiteral(
            "Deletions of instances and nodes: allowed (%1 of %2 expected nodes unhealthy, at most %3)\n")
                   .arg(budget.unhealthy)
                   .arg(budget.expected)
                   .arg(budget.maxUnhealthy);
    else if (budget.reason == Refusal::TooManyUnhealthy)
        out += QStringLiteral(
            "Deletions of instances and nodes: REFUSED (TooManyUnhealthy: %1); one at a time only with an "
            "explicit override\n")
                   .arg(printable(budget.detail));
    else
        out += QStringLiteral("Deletions of instances and nodes: REFUSED (%1: %2)\n")
                   .arg(refusalName(budget.reason), printable(budget.detail));

    const ReportedPlans plans(state, diagnosis);
    if (diagnosis.findings.isEmpty()) {
        out += QStringLiteral("\nNo findings: the kluster looks healthy.\n");
    } else {
        out += QStringLiteral("\nAt a glance:\n");
        int routeRepairs = 0;
        // One finding's line (indented under its incident when it has one).
        const auto glance = [&](const Finding &f, const QString &indent) {
            const RepairGate::Decision decision = plans.of(f);
            const std::optional<RepairPlan> &repair = decision.plan;
            QString action = repair ? printable(repair->title) : QStringLiteral("no repair: see below");
            if (repair && !decision.mayBeSent(false)) // a report overrides nothing
                action += QStringLiteral(" (refused: %1)").arg(refusalName(decision.reason));
            if (repair && repair->changesRoutes())
                ++routeRepairs;
            out += QStringLiteral("%1%2  %3\n%1    -> %4\n")
                       .arg(indent, severityName(f.severity).toUpper().leftJustified(8), printable(f.id()),
                           action);
        };
        // The incidents first (one cause, its one repair), their members under them; then the findings in
        // none.
        for (const Incident &i : diagnosis.incidents) {
            out += QStringLiteral("  %1  INCIDENT %2\n      %3\n      -> %4\n")
                       .arg(severityName(i.severity).toUpper().leftJustified(8), printable(i.id()),
                           printable(i.title),
                           i.repairStyle != Incident::Repair::None
                               ? printable(i.repairTitle)
                               : QStringLiteral("no repair of its own: see its members"));
            for (const QString &id : i.members) {
                if (const Finding *f = diagnosis.find(id))
                    glance(*f, QStringLiteral("      "));
            }
        }
        for (const Finding &f : diagnosis.findings) {
            if (!diagnosis.incidentOf(f.id()))
                glance(f, QStringLiteral("  "));
        }
        if (routeRepairs > 1)
            out += QStringLiteral(
                "The route repairs of this router can be sent as one change, verified once: "
                "flightdeck-cli repair --all-routes (or --finding ID once per finding).\n");
    }
    writeAlertsText(out, alerts, diagnosis);
    writeKubernikusText(out, state);
    for (const QString &note : diagnosis.notes)
        out += QStringLiteral("Note: %1\n").arg(printable(note));

    static const Severity order[] = { Severity::Critical, Severity::Warning, Severity::Info };
    for (Severity severity : order) {
        const int n = diagnosis.count(severity);
        if (n == 0)
            continue;
        out += QStringLiteral("\n%1 (%2)\n").arg(severityName(severity).toUpper()).arg(n);
        for (const Finding &f : diagnosis.findings) {
            if (f.severity != severity)
                continue;
            out += QLatin1Char('\n') + findingText(state, f, plans);
        }
    }

    const RemediationBudget &b = diagnosis.budget;
    out += QStringLiteral(
        "\nRemediation budget: %1 expected node(s), %2 Ready, %3 unhealthy, at most %4 allowed: ")
               .arg(b.expected)
               .arg(b.ready)
               .arg(b.unhealthy)
               .arg(b.maxUnhealthy);
    out += b.deletionsAllowed ? QStringLiteral("instance deletions allowed\n")
                              : QStringLiteral("instance deletions refused (%1: %2)\n")
                                    .arg(refusalName(b.reason), printable(b.detail));
    out += QStringLiteral("Summary: %1 critical, %2 warning, %3 info\n")
               .arg(diagnosis.count(Severity::Critical))
               .arg(diagnosis.count(Severity::Warning))
               .arg(diagnosis.count(Severity::Info));
    return out.toUtf8();
}

bool readEverySource(const KlusterState &s)
{
    if (s.kluster.gone) // only what it left behind is there to read
        return s.klusterSource.known && s.volumesSource.known && s.loadBalancersSource.known;
    return s.klusterSource.known && s.serversSource.known && s.routerSource.known
        && s.securityGroupsSource.known && s.nodesSource.known;
}

int graverStatus(int a, int b)
{
    static constexpr int rank[] = { 0, 1, 3, 2 }; // by status: ok, warning, critical, unknown
    const auto r = [](int status) { return status >= 0 && status <= 3 ? rank[status] : rank[3]; };
    return r(a) >= r(b) ? a : b;
}

int exitStatus(const Diagnosis &diagnosis)
{
    if (diagnosis.count(Severity::Critical) > 0)
        return 2;
    if (diagnosis.count(Severity::Warning) > 0)
        return 1;
    return 0;
}

} // namespace CheckReport
