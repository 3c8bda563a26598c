#pragma once

#include "core/diagnosis.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

struct KlusterState;

// An alert as Alertmanager's v2 API gives it (GET /api/v2/alerts: GettableAlert), and what Flightdeck makes
// of it beside a kluster's findings (docs/alertmanager.md): whose kluster it is, which findings it concerns.

// Alertmanager's own word for where an alert stands (status.state).
enum class AlertState
{
    Active,
    Suppressed, // silenced or inhibited
    Unprocessed,
};
QString alertStateName(AlertState state); // "active", "suppressed", "unprocessed"
std::optional<AlertState> alertStateFromName(QStringView name);

struct Alert
{
    QString fingerprint;
    QMap<QString, QString> labels; // sorted by name, as reports print them
    QMap<QString, QString> annotations;
    QDateTime startsAt; // UTC
    AlertState state = AlertState::Active;
    QStringList silencedBy; // silence ids
    QStringList inhibitedBy; // fingerprints of the alerts that inhibit it
    QStringList findings; // the ids of this kluster's findings it concerns (matchFindings), sorted

    QString name() const { return labels.value(QStringLiteral("alertname")); }
    QString severity() const { return labels.value(QStringLiteral("severity")); }
    QString summary() const; // the summary annotation, else the description's first line, else the name
    bool silenced() const { return !silencedBy.isEmpty(); }
};

namespace Alerts {

// The labels that name an alert's kluster, in turn: the first of them the alert has is the one that counts.
QStringList defaultKlusterLabels(); // kluster_name (as Kubernikus and Flightdeck label), then kluster

// How many alerts are taken in: of one answer (an Alertmanager of a whole region: thousands), and of one
// kluster (what its reports and the console hold). Past these the worst are kept (worstFirst) and the rest
// counted: 100,000 alerts of one kluster cost neither gigabytes nor minutes of layout.
constexpr int MaxRead = 20000;
constexpr int MaxPerKluster = 500;

// The order in which alerts are kept and shown when there are too many: by severity (critical, warning,
// info, none), the unsilenced before the silenced, then the oldest, then by fingerprint.
bool worstFirst(const Alert &a, const Alert &b);

// The labels that tell one alert of a kluster from another's or from another alert of the same name: the
// kluster labels, project_id, the labels naming a node, server or security group, and Flightdeck's own
// (kind, subject, rule, router_id, severity). A silence "of this alert and no other" pins each of them that
// the alert lacks to "" (Alertmanager: absent or empty), since a silence catches every alert whose labels
// include its matchers.
QStringList identifyingLabels(const QStringList &klusterLabels);

// Alertmanager's GettableAlerts (a JSON array): at most MaxRead of them, the worst (in the answer's order
// otherwise); `total` (if given) is how many the answer held. Throws ParseError naming the JSON path of what
// is missing or of the wrong type (`source` names the body in it).
QList<Alert> parse(const QString &source, const QByteArray &body, qsizetype *total = nullptr);

// Whether `alert` is of the kluster `name` (of the project `projectId`): the first of `klusterLabels` the
// alert carries names it, and a project_id label, where there is one, is the kluster's project. Never
// another kluster's, even of the same name in another project.
bool belongsTo(
    const Alert &alert, const QStringList &klusterLabels, const QString &name, const QString &projectId);
// The alerts of one kluster out of many (one answer for a whole Alertmanager), by start, then fingerprint:
// at most MaxPerKluster, the worst; `omitted` (if given) counts those left out.
QList<Alert> ofKluster(const QList<Alert> &alerts, const QStringList &klusterLabels, const QString &name,
    const QString &projectId, qsizetype *omitted = nullptr);

// Sets each alert's `findings`: the findings of `diagnosis` it concerns (docs/alertmanager.md "Matching"):
// - its `kind` label is the finding's kind (and its `subject` label, if any, the finding's subject; its
//   `severity`, when it is one of critical, warning and info, the finding's);
// - its `rule` label is the rule of an incident the finding belongs to;
// - a label naming a node or server (node, nodename, kubernetes_node, server, server_name, instance without
//   its :port) names the finding's subject or one of the nodes or instances it concerns;
// - its `router_id` label is the kluster's router and the finding is about routes;
// - a label naming a security group (security_group, security_group_name, security_group_id) names one of
//   the groups it concerns.
void matchFindings(QList<Alert> &alerts, const KlusterState &state, const Diagnosis &diagnosis);

// The two gaps the console shows: alerts no finding explains (the cause is outside Flightdeck's view), and
// critical findings no alert covers (a monitoring gap), as finding ids in the diagnosis' order.
int unexplainedCount(const QList<Alert> &alerts);
QStringList uncoveredCriticalFindings(const QList<Alert> &alerts, const Diagnosis &diagnosis);

} // namespace Alerts

// What a check or a refresh read from Alertmanager for one kluster: nothing asked (no Alertmanager
// configured), the alerts, or why they could not be read (the findings stand without them).
struct KlusterAlerts
{
    bool configured = false;
    bool known = false; // read in this check or refresh
    QList<Alert> alerts; // when known: this kluster's, findings matched (at most Alerts::MaxPerKluster)
    qsizetype omitted = 0; // when known: this kluster's alerts not kept (the least grave past the bounds)
    QString error; // when configured and not known: what failed, in one line
};
