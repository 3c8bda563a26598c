#include "core/repairevent.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>

namespace {

const QString kController = QStringLiteral("flightdeck");
const QString kAction = QStringLiteral("Repair");
const QString kFindings = QStringLiteral("flightdeck.io/findings");
const QString kRepair = QStringLiteral("flightdeck.io/repair");
const QString kUser = QStringLiteral("flightdeck.io/user");
const QString kAudit = QStringLiteral("flightdeck.io/audit-id");
const QString kKluster = QStringLiteral("flightdeck.io/kluster");
const QString kOutcome = QStringLiteral("flightdeck.io/outcome");

// At most `bytes` of UTF-8, cut on a character.
QString cut(const QString &text, int bytes)
{
    if (text.toUtf8().size() <= bytes)
        return text;
    QString out = text;
    while (!out.isEmpty() && out.toUtf8().size() > bytes - 3)
        out.chop(1);
    if (!out.isEmpty() && out.back().isHighSurrogate())
        out.chop(1);
    return out + QStringLiteral("…");
}

// The lower-case DNS label characters of `text`, others as '-'.
QString dnsPart(const QString &text)
{
    QString out;
    for (const QChar c : text.toLower())
        out += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('-');
    while (out.startsWith(QLatin1Char('-')))
        out.remove(0, 1);
    while (out.endsWith(QLatin1Char('-')))
        out.chop(1);
    return out;
}

} // namespace

QString RepairEventPhases::reason(RepairEventPhase phase)
{
    switch (phase) {
    case RepairEventPhase::Sent:
        return QStringLiteral("RepairStarted");
    case RepairEventPhase::Verified:
        return QStringLiteral("RepairVerified");
    case RepairEventPhase::Failed:
        return QStringLiteral("RepairFailed");
    }
    return QString();
}

QString RepairEventPhases::word(RepairEventPhase phase)
{
    switch (phase) {
    case RepairEventPhase::Sent:
        return QStringLiteral("started");
    case RepairEventPhase::Verified:
        return QStringLiteral("verified");
    case RepairEventPhase::Failed:
        return QStringLiteral("failed");
    }
    return QString();
}

std::optional<RepairEventPhase> RepairEventPhases::fromReason(const QString &reason)
{
    for (RepairEventPhase p :
        { RepairEventPhase::Sent, RepairEventPhase::Verified, RepairEventPhase::Failed }) {
        if (RepairEventPhases::reason(p) == reason)
            return p;
    }
    return std::nullopt;
}

QString RepairEvent::instanceName(const QString &host, const QString &tag)
{
    return cut(
        QStringLiteral("flightdeck@%1/%2").arg(host.isEmpty() ? QStringLiteral("localhost") : host, tag),
        128);
}

QString RepairEvent::eventName() const
{
    QString id = dnsPart(auditId);
    if (id.isEmpty())
        id = dnsPart(findings.join(QLatin1Char('-'))).left(60);
    return QStringLiteral("flightdeck.%1.%2").arg(id.left(200), RepairEventPhases::word(phase));
}

QString RepairEvent::note() const
{
    QString text;
    switch (phase) {
    case RepairEventPhase::Sent:
        text = QStringLiteral("%1 started \"%2\"").arg(user, repair);
        break;
    case RepairEventPhase::Verified:
        text = QStringLiteral("\"%1\" by %2 verified").arg(repair, user);
        break;
    case RepairEventPhase::Failed:
        text = QStringLiteral("\"%1\" by %2 failed").arg(repair, user);
        break;
    }
    text += QStringLiteral(" for %1 (kluster %2; audit record %3)")
                .arg(findings.join(QStringLiteral(", ")), kluster, auditId);
    if (!outcome.isEmpty())
        text += QStringLiteral(": ") + outcome;
    return cut(text, 1024);
}

QJsonObject RepairEvent::toEvent(const QString &nameSpace) const
{
    QJsonObject annotations { { kFindings, findings.join(QLatin1Char(',')) }, { kRepair, repair },
        { kUser, user }, { kAudit, auditId }, { kKluster, kluster } };
    if (!outcome.isEmpty())
        annotations.insert(kOutcome, outcome);
    const QJsonObject regarding = node.isEmpty()
        ? QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("kubernikus.sap.cc/v1") },
              { QStringLiteral("kind"), QStringLiteral("Kluster") }, { QStringLiteral("name"), kluster } }
        : QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("v1") },
              { QStringLiteral("kind"), QStringLiteral("Node") }, { QStringLiteral("name"), node } };
    return QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("events.k8s.io/v1") },
        { QStringLiteral("kind"), QStringLiteral("Event") },
        { QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("name"), eventName() }, { QStringLiteral("namespace"), nameSpace },
                { QStringLiteral("labels"),
                    QJsonObject { { QStringLiteral("app.kubernetes.io/managed-by"), kController } } },
                { QStringLiteral("annotations"), annotations } } },
        { QStringLiteral("eventTime"), time.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000Z")) },
        { QStringLiteral("reportingController"), kController },
        { QStringLiteral("reportingInstance"), cut(instance, 128) }, { QStringLiteral("action"), kAction },
        { QStringLiteral("reason"), RepairEventPhases::reason(phase) },
        { QStringLiteral("type"),
            phase == RepairEventPhase::Failed ? QStringLiteral("Warning") : QStringLiteral("Normal") },
        { QStringLiteral("regarding"), regarding }, { QStringLiteral("note"), note() } };
}

std::optional<RepairEvent> RepairEvent::fromEvent(const QJsonObject &event)
{
    // Either group's form: events.k8s.io/v1 (reportingController, regarding, note) or core v1
    // (reportingComponent, involvedObject, message).
    const QString controller = event.value(QStringLiteral("reportingController"))
                                   .toString(event.value(QStringLiteral("reportingComponent")).toString());
    if (controller != kController)
        return std::nullopt;
    const std::optional<RepairEventPhase> phase
        = RepairEventPhases::fromReason(event.value(QStringLiteral("reason")).toString());
    const QJsonObject metadata = event.value(QStringLiteral("metadata")).toObject();
    const QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
    if (!phase || annotations.value(kAudit).toString().isEmpty())
        return std::nullopt;
    RepairEvent r;
    r.phase = *phase;
    QString time = event.value(QStringLiteral("eventTime")).toString();
    if (time.isEmpty())
        time = metadata.value(QStringLiteral("creationTimestamp")).toString();
    r.time = QDateTime::fromString(time, Qt::ISODateWithMs);
    if (!r.time.isValid())
        return std::nullopt;
    r.time = r.time.toUTC();
    QJsonObject regarding = event.value(QStringLiteral("regarding")).toObject();
    if (regarding.isEmpty())
        regarding = event.value(QStringLiteral("involvedObject")).toObject();
    if (regarding.value(QStringLiteral("kind")).toString() == QLatin1String("Node"))
        r.node = regarding.value(QStringLiteral("name")).toString();
    r.kluster = annotations.value(kKluster).toString();
    r.findings = annotations.value(kFindings).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    r.repair = annotations.value(kRepair).toString();
    r.user = annotations.value(kUser).toString();
    r.auditId = annotations.value(kAudit).toString();
    r.outcome = annotations.value(kOutcome).toString();
    r.instance = event.value(QStringLiteral("reportingInstance")).toString();
    r.name = metadata.value(QStringLiteral("name")).toString();
    return r;
}

QList<RepairEvent> RepairEvent::fromEventList(const QJsonObject &list)
{
    QList<RepairEvent> out;
    for (const QJsonValue item : list.value(QStringLiteral("items")).toArray()) {
        if (std::optional<RepairEvent> r = fromEvent(item.toObject()))
            out.append(*r);
    }
    std::stable_sort(
        out.begin(), out.end(), [](const RepairEvent &a, const RepairEvent &b) { return a.time < b.time; });
    return out;
}

bool operator==(const RepairEvent &a, const RepairEvent &b)
{
    return a.phase == b.phase && a.time == b.time && a.kluster == b.kluster && a.node == b.node
        && a.findings == b.findings && a.repair == b.repair && a.user == b.user && a.auditId == b.auditId
        && a.instance == b.instance && a.outcome == b.outcome;
}

QList<RepairEvent> RepairEvents::latestPerRepair(const QList<RepairEvent> &events)
{
    QList<RepairEvent> out;
    QHash<QString, qsizetype> at;
    for (const RepairEvent &e : events) {
        const auto it = at.constFind(e.auditId);
        if (it == at.constEnd()) {
            at.insert(e.auditId, out.size());
            out.append(e);
            continue;
        }
        RepairEvent &kept = out[*it];
        // The end of a repair outranks its start, whatever the clocks say; the started time is kept.
        if (kept.phase == RepairEventPhase::Sent && e.phase != RepairEventPhase::Sent) {
            const QDateTime started = kept.time;
            kept = e;
            kept.time = qMin(started, e.time);
        }
    }
    std::stable_sort(
        out.begin(), out.end(), [](const RepairEvent &a, const RepairEvent &b) { return a.time > b.time; });
    return out;
}

QList<RepairEvent> RepairEvents::teammatesStarted(
    const QList<RepairEvent> &events, const QString &ownInstance, const QDateTime &now, int minutes)
{
    QList<RepairEvent> out;
    for (const RepairEvent &e : latestPerRepair(events)) {
        if (e.instance != ownInstance && e.time.secsTo(now) <= qint64(minutes) * 60)
            out.append(e);
    }
    return out;
}

QString RepairEvents::describe(const RepairEvent &repair, const QDateTime &now)
{
    const qint64 seconds = qMax<qint64>(0, repair.time.secsTo(now));
    const QString ago = seconds < 90 ? QStringLiteral("just now")
        : seconds < 5400             ? QStringLiteral("%1 min ago").arg((seconds + 30) / 60)
                                     : QStringLiteral("%1 h ago").arg(seconds / 3600);
    QString who = repair.user.isEmpty() ? QStringLiteral("someone") : repair.user;
    QString line = QStringLiteral("%1 %2 \"%3\" (%4) %5")
                       .arg(who,
                           repair.phase == RepairEventPhase::Sent ? QStringLiteral("started")
                                                                  : QStringLiteral("repaired"),
                           repair.repair, repair.findings.join(QStringLiteral(", ")), ago);
    if (repair.phase != RepairEventPhase::Sent)
        line += QStringLiteral(": %1").arg(RepairEventPhases::word(repair.phase));
    if (!repair.outcome.isEmpty() && repair.phase == RepairEventPhase::Failed)
        line += QStringLiteral(" (%1)").arg(repair.outcome);
    return line;
}
