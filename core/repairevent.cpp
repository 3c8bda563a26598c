#include "core/repairevent.h"

#include "core/printable.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
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
    // No field longer than Flightdeck writes it: a 200 KiB annotation is cut here, before anything holds it.
    const auto field = [](const QJsonValue &v) { return v.toString().left(RepairEvent::MaxFieldChars); };
    if (r.node.size() > MaxFieldChars)
        r.node = r.node.left(MaxFieldChars);
    r.kluster = field(annotations.value(kKluster));
    r.findings = annotations.value(kFindings)
                     .toString()
                     .left(MaxFindings * MaxFieldChars)
                     .split(QLatin1Char(','), Qt::SkipEmptyParts)
                     .mid(0, MaxFindings);
    for (QString &id : r.findings)
        id = id.left(MaxFieldChars);
    r.repair = field(annotations.value(kRepair));
    r.user = field(annotations.value(kUser));
    r.auditId = field(annotations.value(kAudit));
    r.outcome = field(annotations.value(kOutcome));
    r.instance = field(event.value(QStringLiteral("reportingInstance")));
    r.name = field(metadata.value(QStringLiteral("name")));
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
    if (out.size() > MaxEvents)
        out = out.mid(out.size() - MaxEvents); // the newest
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
    // Each repair's start first (the earliest of its own), then the ends that may end it.
    QList<RepairEvent> out;
    QHash<QString, qsizetype> at;
    for (const RepairEvent &e : events) {
        if (e.phase != RepairEventPhase::Sent)
            continue;
        const auto it = at.constFind(e.auditId);
        if (it == at.constEnd()) {
            at.insert(e.auditId, out.size());
            out.append(e);
        } else if (e.time < out.at(*it).time) {
            out[*it] = e;
        }
    }
    QSet<QString> started(at.keyBegin(), at.keyEnd());
    for (const RepairEvent &e : events) {
        if (e.phase == RepairEventPhase::Sent)
            continue;
        const auto it = at.constFind(e.auditId);
        if (it == at.constEnd()) { // an end whose start is gone (or was never read): taken as it is
            at.insert(e.auditId, out.size());
            out.append(e);
            continue;
        }
        RepairEvent &kept = out[*it];
        const bool hasStart = started.contains(e.auditId);
        if (hasStart && (e.time < kept.time || e.instance != kept.instance))
            continue; // ends before it began, or written by another instance: not this repair's end
        if (kept.phase != RepairEventPhase::Sent && e.time <= kept.time)
            continue; // a later end of the same repair wins
        const QDateTime startedAt = hasStart ? kept.time : e.time;
        kept = e;
        kept.time = startedAt;
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
    // "user alice": a user named like a kluster is not taken for one.
    const QString who = repair.user.isEmpty()
        ? QStringLiteral("someone")
        : QStringLiteral("user %1").arg(OutsideText::line(repair.user, 64));
    QStringList findings;
    for (const QString &id : repair.findings.mid(0, 3))
        findings << OutsideText::line(id, 80);
    if (repair.findings.size() > 3)
        findings << QStringLiteral("%1 more").arg(repair.findings.size() - 3);
    QString line = QStringLiteral("%1 %2 \"%3\" (%4) %5")
                       .arg(who,
                           repair.phase == RepairEventPhase::Sent ? QStringLiteral("started")
                                                                  : QStringLiteral("repaired"),
                           OutsideText::line(repair.repair, 120), findings.join(QStringLiteral(", ")), ago);
    if (repair.phase != RepairEventPhase::Sent)
        line += QStringLiteral(": %1").arg(RepairEventPhases::word(repair.phase));
    if (!repair.outcome.isEmpty() && repair.phase == RepairEventPhase::Failed)
        line += QStringLiteral(" (%1)").arg(OutsideText::line(repair.outcome, 120));
    if (!repair.instance.isEmpty())
        line += QStringLiteral(", from %1").arg(OutsideText::line(repair.instance, 80));
    if (!repair.inAuditLog)
        line += QStringLiteral(" (from the kluster's Events, unverified)");
    return line;
}

QStringList RepairEvents::describeNewest(const QList<RepairEvent> &repairs, const QDateTime &now, int shown)
{
    QStringList lines;
    for (const RepairEvent &r : repairs.mid(0, shown))
        lines << describe(r, now);
    if (repairs.size() > shown)
        lines << QStringLiteral("… and %1 more").arg(repairs.size() - shown);
    return lines;
}
