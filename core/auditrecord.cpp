#include "core/auditrecord.h"

#include "core/json/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <array>

namespace {

struct ResultTraits
{
    RepairResult result;
    const char *name;
};

constexpr std::array<ResultTraits, 8> Results { {
    { RepairResult::Fixed, "fixed" },
    { RepairResult::StillThere, "still there" },
    { RepairResult::Failed, "failed" },
    { RepairResult::Refused, "refused" },
    { RepairResult::Changed, "changed meanwhile" },
    { RepairResult::InProgress, "in progress" },
    { RepairResult::Interrupted, "interrupted" },
    { RepairResult::Unknown, "" },
} };

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < Results.size(); ++i) {
        if (Results[i].result != RepairResult(i))
            return false;
    }
    return true;
}
static_assert(inEnumOrder(), "one entry per result, in the order of the enum");

QString timeText(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

QDateTime timeOf(const QJsonValue &v)
{
    return v.isString() ? QDateTime::fromString(v.toString(), Qt::ISODateWithMs) : QDateTime();
}

QString phaseName(AuditRecord::Phase phase)
{
    switch (phase) {
    case AuditRecord::Phase::Started:
        return QStringLiteral("started");
    case AuditRecord::Phase::Finished:
        return QStringLiteral("finished");
    case AuditRecord::Phase::Whole:
        break;
    }
    return QString();
}

} // namespace

QString RepairResults::name(RepairResult result)
{
    return QString::fromLatin1(Results.at(std::size_t(result)).name);
}

RepairResult RepairResults::fromName(const QString &name)
{
    for (const ResultTraits &t : Results) {
        if (name == QLatin1String(t.name))
            return t.result;
    }
    return RepairResult::Unknown;
}

bool RepairResults::failed(RepairResult result)
{
    return result == RepairResult::Failed || result == RepairResult::Interrupted;
}

bool RepairResults::settled(RepairResult result)
{
    return result == RepairResult::Fixed || result == RepairResult::InProgress;
}

QString AuditRecord::finding() const
{
    return findings.join(QStringLiteral(", "));
}

QByteArray AuditRecord::toJson() const
{
    JsonWriter w(JsonWriter::Style::Compact);
    w.beginObject();
    const auto text = [&w](const char *key, const QString &value) {
        if (!value.isEmpty()) {
            w.key(QLatin1String(key));
            w.value(value);
        }
    };
    const auto instant = [&w](const char *key, const QDateTime &value) {
        if (value.isValid()) {
            w.key(QLatin1String(key));
            w.value(timeText(value));
        }
    };
    text("id", id);
    text("phase", phaseName(phase));
    instant("time", time);
    instant("finishedAt", finishedAt);
    text("cloud", cloud);
    text("user", user);
    text("project", project);
    text("projectId", projectId);
    text("kluster", kluster);
    if (!findings.isEmpty()) {
        text("finding", finding());
        w.key(QStringLiteral("findings"));
        w.beginArray();
        for (const QString &f : findings)
            w.value(f);
        w.endArray();
    }
    text("repair", repair);
    if (override) {
        w.key(QStringLiteral("override"));
        w.value(true);
    }
    if (firstSeen.isValid()) {
        w.key(QStringLiteral("firstSeen"));
        w.value(firstSeen.toUTC().toString(Qt::ISODate));
    }
    if (!planned.isEmpty()) {
        w.key(QStringLiteral("planned"));
        w.beginArray();
        for (const PlannedRequest &r : planned)
            r.write(w);
        w.endArray();
    }
    if (requests) {
        w.key(QStringLiteral("requests"));
        w.beginArray();
        for (const AuditRequest &r : *requests) {
            // The request as sent, then its answer: one object.
            JsonWriter request(JsonWriter::Style::Compact);
            r.request.write(request);
            QJsonObject o = QJsonDocument::fromJson(request.takeBytes()).object();
            o.insert(QStringLiteral("status"), r.status);
            o.insert(QStringLiteral("outcome"), r.outcome);
            if (r.mayHaveBeenSent)
                o.insert(QStringLiteral("mayHaveBeenSent"), true);
            w.value(o);
        }
        w.endArray();
    }
    text("verification", RepairResults::name(verification));
    if (interrupted()) {
        w.key(QStringLiteral("interrupted"));
        w.value(true);
    }
    text("message", message);
    if (!events.isEmpty()) {
        w.key(QStringLiteral("events"));
        w.beginArray();
        for (const QString &e : events)
            w.value(e);
        w.endArray();
    }
    if (process) {
        w.key(QStringLiteral("process"));
        QJsonObject p { { QStringLiteral("pid"), process->pid }, { QStringLiteral("host"), process->host } };
        if (!process->started.isEmpty())
            p.insert(QStringLiteral("started"), process->started);
        if (!process->boot.isEmpty())
            p.insert(QStringLiteral("boot"), process->boot);
        w.value(p);
    }
    w.endObject();
    return w.takeBytes();
}

QJsonObject AuditRecord::toJsonObject() const
{
    return QJsonDocument::fromJson(toJson()).object();
}

AuditRecord AuditRecord::fromJson(const QJsonObject &json)
{
    AuditRecord r;
    const auto text = [&json](const char *key) { return json.value(QLatin1String(key)).toString(); };
    r.id = text("id");
    const QString phase = text("phase");
    r.phase = phase == QLatin1String("started") ? Phase::Started
        : phase == QLatin1String("finished")    ? Phase::Finished
                                                : Phase::Whole;
    r.time = timeOf(json.value(QStringLiteral("time")));
    r.finishedAt = timeOf(json.value(QStringLiteral("finishedAt")));
    r.cloud = text("cloud");
    r.user = text("user");
    r.project = text("project");
    r.projectId = text("projectId");
    r.kluster = text("kluster");
    const QJsonValue findings = json.value(QStringLiteral("findings"));
    if (findings.isArray()) {
        for (const QJsonValue f : findings.toArray())
            r.findings << f.toString();
    } else if (const QString finding = text("finding"); !finding.isEmpty()) {
        r.findings = finding.split(QStringLiteral(", ")); // as earlier versions wrote several
    }
    r.repair = text("repair");
    r.override = json.value(QStringLiteral("override")).toBool();
    r.firstSeen = QDateTime::fromString(text("firstSeen"), Qt::ISODate);
    for (const QJsonValue v : json.value(QStringLiteral("planned")).toArray()) {
        if (const std::optional<PlannedRequest> p = PlannedRequest::fromJson(v.toObject()))
            r.planned << *p;
    }
    if (const QJsonValue requests = json.value(QStringLiteral("requests")); requests.isArray()) {
        r.requests.emplace();
        for (const QJsonValue v : requests.toArray()) {
            const QJsonObject o = v.toObject();
            AuditRequest sent;
            sent.request = PlannedRequest::fromJson(o).value_or(PlannedRequest());
            sent.status = o.value(QStringLiteral("status")).toInt();
            sent.outcome = o.value(QStringLiteral("outcome")).toString();
            sent.mayHaveBeenSent = o.value(QStringLiteral("mayHaveBeenSent")).toBool();
            r.requests->append(sent);
        }
    }
    r.verification = json.value(QStringLiteral("interrupted")).toBool()
        ? RepairResult::Interrupted
        : RepairResults::fromName(text("verification"));
    r.message = text("message");
    for (const QJsonValue e : json.value(QStringLiteral("events")).toArray()) {
        if (e.isString())
            r.events << e.toString();
    }
    if (const QJsonValue p = json.value(QStringLiteral("process")); p.isObject()) {
        const QJsonObject o = p.toObject();
        r.process = AuditProcess { o.value(QStringLiteral("pid")).toInteger(),
            o.value(QStringLiteral("host")).toString(), o.value(QStringLiteral("started")).toString(),
            o.value(QStringLiteral("boot")).toString() };
    }
    return r;
}

void AuditRecord::complete(const AuditRecord &finished)
{
    phase = Phase::Finished;
    finishedAt = finished.time;
    requests = finished.requests;
    verification = finished.verification;
    message = finished.message;
    events = finished.events;
}

bool operator==(const AuditRecord &a, const AuditRecord &b)
{
    return a.id == b.id && a.phase == b.phase && a.time == b.time && a.finishedAt == b.finishedAt
        && a.cloud == b.cloud && a.user == b.user && a.project == b.project && a.projectId == b.projectId
        && a.kluster == b.kluster && a.findings == b.findings && a.repair == b.repair
        && a.override == b.override && a.firstSeen == b.firstSeen && a.planned == b.planned
        && a.requests == b.requests && a.verification == b.verification && a.message == b.message
        && a.events == b.events && a.process == b.process;
}
