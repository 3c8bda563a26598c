#include "core/alerts.h"

#include "core/apiparser.h"
#include "core/klusterstate.h"

#include <QSet>
#include <algorithm>
#include <array>

namespace {

struct StateName
{
    AlertState state;
    const char *name;
};
constexpr std::array<StateName, 3> stateNames { {
    { AlertState::Active, "active" },
    { AlertState::Suppressed, "suppressed" },
    { AlertState::Unprocessed, "unprocessed" },
} };

QMap<QString, QString> stringMap(const JsonReader &object, const QString &key)
{
    QMap<QString, QString> out;
    const JsonReader member = object.child(key);
    if (member.isUndefined() || member.isNull())
        return out;
    member.forEachMember([&out](const QString &name, const JsonReader &value) {
        out.insert(name, value.requireStringValue());
    });
    return out;
}

QStringList stringList(const JsonReader &object, const QString &key)
{
    QStringList out;
    object.forEachElementOf(key, [&out](const JsonReader &e) { out.append(e.requireStringValue()); });
    return out;
}

// The labels that name a node or a server, and the security group, of docs/alertmanager.md "Matching".
const QStringList &machineLabels()
{
    static const QStringList labels { QStringLiteral("node"), QStringLiteral("nodename"),
        QStringLiteral("kubernetes_node"), QStringLiteral("server"), QStringLiteral("server_name"),
        QStringLiteral("instance") };
    return labels;
}

const QStringList &groupLabels()
{
    static const QStringList labels { QStringLiteral("security_group"), QStringLiteral("security_group_name"),
        QStringLiteral("security_group_id") };
    return labels;
}

// `instance` is Prometheus' host:port of the scrape; the machine is the host.
QString machineOf(const QString &label, const QString &value)
{
    if (label != QLatin1String("instance"))
        return value;
    if (value.startsWith(QLatin1Char('['))) // [v6]:port
        return value.mid(1, value.indexOf(QLatin1Char(']')) - 1);
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    return colon > 0 && value.count(QLatin1Char(':')) == 1 ? value.left(colon) : value;
}

bool concerns(const Alert &alert, const Finding &finding, const Diagnosis &diagnosis,
    const KlusterState &state, const AffectedObjects *affected)
{
    const QMap<QString, QString> &l = alert.labels;
    if (const auto kind = l.constFind(QStringLiteral("kind")); kind != l.cend()) {
        if (kind.value() != findingKindName(finding.kind))
            return false;
        // An alert on the critical findings of a kind (Flightdeck's own rule) is not about its warnings.
        const auto severity = l.constFind(QStringLiteral("severity"));
        if (severity != l.cend() && severityFromName(severity.value())
            && severity.value() != severityName(finding.severity))
            return false;
        const auto subject = l.constFind(QStringLiteral("subject"));
        return subject == l.cend() || subject.value() == finding.subject;
    }
    if (const auto rule = l.constFind(QStringLiteral("rule")); rule != l.cend()) {
        const Incident *incident = diagnosis.incidentOf(finding.id());
        return incident && incidentRuleName(incident->rule) == rule.value();
    }
    if (const auto router = l.constFind(QStringLiteral("router_id")); router != l.cend())
        return findingFamily(finding.kind) == FindingFamily::Route && !router.value().isEmpty()
            && (router.value() == state.router.id || router.value() == state.kluster.routerId);
    for (const QString &label : machineLabels()) {
        const auto it = l.constFind(label);
        if (it == l.cend() || it.value().isEmpty())
            continue;
        const QString machine = machineOf(label, it.value());
        if (machine == finding.subject
            || (affected && (affected->nodes.contains(machine) || affected->instances.contains(machine))))
            return true;
    }
    for (const QString &label : groupLabels()) {
        const auto it = l.constFind(label);
        if (it != l.cend() && !it.value().isEmpty() && affected
            && affected->securityGroups.contains(it.value()))
            return true;
    }
    return false;
}

} // namespace

QString alertStateName(AlertState state)
{
    for (const StateName &s : stateNames)
        if (s.state == state)
            return QLatin1String(s.name);
    return {};
}

std::optional<AlertState> alertStateFromName(QStringView name)
{
    for (const StateName &s : stateNames)
        if (name == QLatin1String(s.name))
            return s.state;
    return std::nullopt;
}

QString Alert::summary() const
{
    if (QString s = annotations.value(QStringLiteral("summary")).trimmed(); !s.isEmpty())
        return s;
    if (const QString d = annotations.value(QStringLiteral("description")).trimmed(); !d.isEmpty())
        return d.section(QLatin1Char('\n'), 0, 0);
    return name();
}

namespace Alerts {

QStringList defaultKlusterLabels()
{
    return { QStringLiteral("kluster_name"), QStringLiteral("kluster") };
}

static int severityRank(const Alert &a)
{
    const QString s = a.severity();
    return s == QLatin1String("critical") ? 0
        : s == QLatin1String("warning")   ? 1
        : s == QLatin1String("info")      ? 2
                                          : 3;
}

bool worstFirst(const Alert &a, const Alert &b)
{
    if (const int ra = severityRank(a), rb = severityRank(b); ra != rb)
        return ra < rb;
    if (a.silenced() != b.silenced())
        return !a.silenced();
    if (a.startsAt != b.startsAt)
        return a.startsAt < b.startsAt;
    return a.fingerprint < b.fingerprint;
}

// The worst `keep` of `alerts`, in the order they came.
static void keepWorst(QList<Alert> &alerts, qsizetype keep)
{
    if (alerts.size() <= keep)
        return;
    QList<qsizetype> order(alerts.size());
    for (qsizetype i = 0; i < order.size(); ++i)
        order[i] = i;
    std::nth_element(order.begin(), order.begin() + keep, order.end(),
        [&alerts](qsizetype x, qsizetype y) { return worstFirst(alerts.at(x), alerts.at(y)); });
    order.resize(keep);
    std::sort(order.begin(), order.end());
    QList<Alert> kept;
    kept.reserve(keep);
    for (qsizetype i : order)
        kept.append(std::move(alerts[i]));
    alerts = std::move(kept);
}

QList<Alert> parse(const QString &source, const QByteArray &body, qsizetype *total)
{
    const JsonReader top(source, parseJsonDocument(source, body));
    if (!top.isArray())
        top.fail(QStringLiteral("expected a JSON array of alerts (Alertmanager's GET /api/v2/alerts)"));
    QList<Alert> alerts;
    qsizetype count = 0;
    top.forEachElement([&alerts, &count](const JsonReader &a) {
        ++count;
        if (alerts.size() >= 2 * qsizetype(MaxRead)) // bounded as it goes: never all of a huge answer at once
            keepWorst(alerts, MaxRead);
        Alert alert;
        alert.fingerprint = a.requireString(QStringLiteral("fingerprint"));
        alert.labels = stringMap(a, QStringLiteral("labels"));
        if (!a.has(QStringLiteral("labels")))
            a.failAt(QStringLiteral("labels"), QStringLiteral("required field is missing"));
        alert.annotations = stringMap(a, QStringLiteral("annotations"));
        const QString starts = a.requireString(QStringLiteral("startsAt"));
        alert.startsAt = ApiParser::parseTimestamp(starts, true);
        if (!alert.startsAt.isValid())
            a.failAt(QStringLiteral("startsAt"),
                QStringLiteral("%1 is not an RFC 3339 date-time").arg(quotedExcerpt(starts)));
        const JsonReader status = a.requireField(QStringLiteral("status"));
        const QString state = status.requireString(QStringLiteral("state"));
        const std::optional<AlertState> known = alertStateFromName(state);
        if (!known)
            status.failAt(QStringLiteral("state"),
                QStringLiteral("%1 is not active, suppressed or unprocessed").arg(quotedExcerpt(state)));
        alert.state = *known;
        alert.silencedBy = stringList(status, QStringLiteral("silencedBy"));
        alert.inhibitedBy = stringList(status, QStringLiteral("inhibitedBy"));
        alerts.append(std::move(alert));
    });
    keepWorst(alerts, MaxRead);
    if (total)
        *total = count;
    return alerts;
}

bool belongsTo(
    const Alert &alert, const QStringList &klusterLabels, const QString &name, const QString &projectId)
{
    if (name.isEmpty())
        return false;
    bool named = false;
    for (const QString &label : klusterLabels) {
        const auto it = alert.labels.constFind(label);
        if (it != alert.labels.cend() && !it.value().isEmpty()) {
            named = it.value() == name;
            break;
        }
    }
    if (!named)
        return false;
    const auto project = alert.labels.constFind(QStringLiteral("project_id"));
    return project == alert.labels.cend() || project.value().isEmpty() || projectId.isEmpty()
        || project.value() == projectId;
}

QStringList identifyingLabels(const QStringList &klusterLabels)
{
    QStringList out = klusterLabels;
    out << QStringLiteral("project_id") << machineLabels() << groupLabels() << QStringLiteral("kind")
        << QStringLiteral("subject") << QStringLiteral("rule") << QStringLiteral("router_id")
        << QStringLiteral("severity");
    out.removeDuplicates();
    return out;
}

QList<Alert> ofKluster(const QList<Alert> &alerts, const QStringList &klusterLabels, const QString &name,
    const QString &projectId, qsizetype *omitted)
{
    QList<Alert> out;
    QSet<QString> seen;
    for (const Alert &a : alerts)
        if (belongsTo(a, klusterLabels, name, projectId) && !seen.contains(a.fingerprint)) {
            seen.insert(a.fingerprint);
            out.append(a);
        }
    if (omitted)
        *omitted = qMax<qsizetype>(0, out.size() - MaxPerKluster);
    keepWorst(out, MaxPerKluster);
    std::sort(out.begin(), out.end(), [](const Alert &a, const Alert &b) {
        return a.startsAt != b.startsAt ? a.startsAt < b.startsAt : a.fingerprint < b.fingerprint;
    });
    return out;
}

void matchFindings(QList<Alert> &alerts, const KlusterState &state, const Diagnosis &diagnosis)
{
    // What each finding concerns is made once, and only when an alert names machines or groups.
    const bool needAffected = std::any_of(alerts.cbegin(), alerts.cend(), [](const Alert &a) {
        const auto names = [&a](const QStringList &labels) {
            return std::any_of(
                labels.cbegin(), labels.cend(), [&a](const QString &l) { return a.labels.contains(l); });
        };
        return !a.labels.contains(QStringLiteral("kind")) && !a.labels.contains(QStringLiteral("rule"))
            && (names(machineLabels()) || names(groupLabels()));
    });
    QList<AffectedObjects> affected;
    if (needAffected) {
        affected.reserve(diagnosis.findings.size());
        for (const Finding &f : diagnosis.findings)
            affected.append(f.affected());
    }
    for (Alert &alert : alerts) {
        alert.findings.clear();
        for (qsizetype i = 0; i < diagnosis.findings.size(); ++i) {
            const Finding &f = diagnosis.findings.at(i);
            if (concerns(alert, f, diagnosis, state, needAffected ? &affected.at(i) : nullptr))
                alert.findings.append(f.id());
        }
        alert.findings.sort();
    }
}

int unexplainedCount(const QList<Alert> &alerts)
{
    return int(
        std::count_if(alerts.cbegin(), alerts.cend(), [](const Alert &a) { return a.findings.isEmpty(); }));
}

QStringList uncoveredCriticalFindings(const QList<Alert> &alerts, const Diagnosis &diagnosis)
{
    QSet<QString> covered;
    for (const Alert &a : alerts)
        for (const QString &id : a.findings)
            covered.insert(id);
    QStringList out;
    for (const Finding &f : diagnosis.findings)
        if (f.severity == Severity::Critical && !covered.contains(f.id()))
            out.append(f.id());
    return out;
}

} // namespace Alerts
