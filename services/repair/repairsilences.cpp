#include "services/repair/repairsilences.h"

#include "core/auditrecord.h"
#include "core/printable.h"
#include "services/http/httpclient.h"
#include "services/repair/auditlog.h"

#include <QJsonDocument>
#include <QSet>
#include <memory>

namespace {

PlannedRequest plannedPost(const SilenceRequest &silence)
{
    PlannedRequest r;
    r.service = QStringLiteral("alertmanager");
    r.method = QStringLiteral("POST");
    r.path = QStringLiteral("/api/v2/silences");
    r.body = QJsonDocument::fromJson(silence.toJson()).object();
    return r;
}

PlannedRequest plannedDelete(const QString &id)
{
    PlannedRequest r;
    r.service = QStringLiteral("alertmanager");
    r.method = QStringLiteral("DELETE");
    r.path = QStringLiteral("/api/v2/silence/") + id;
    return r;
}

} // namespace

RepairSilences::RepairSilences(AlertmanagerClient *client, Context context, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_context(std::move(context))
{ }

QList<Alert> RepairSilences::alertsOf(const QList<Alert> &alerts, const QStringList &findingIds)
{
    const QSet<QString> wanted(findingIds.cbegin(), findingIds.cend());
    QList<Alert> out;
    for (const Alert &a : alerts) {
        if (a.silenced())
            continue;
        for (const QString &id : a.findings)
            if (wanted.contains(id)) {
                out.append(a);
                break;
            }
    }
    return out;
}

QList<SilenceRequest> RepairSilences::plan(const QList<Alert> &alerts, const QStringList &findingIds,
    const QString &repair, const QString &user, const QDateTime &now, int minutes,
    const QStringList &klusterLabels)
{
    QList<SilenceRequest> out;
    for (const Alert &a : alertsOf(alerts, findingIds)) {
        SilenceRequest s;
        s.matchers = SilenceRequest::matchersOf(a, klusterLabels);
        s.alertFingerprint = a.fingerprint;
        s.startsAt = now.toUTC();
        s.endsAt = s.startsAt.addSecs(qint64(minutes) * 60);
        s.createdBy = user;
        QStringList concerned;
        for (const QString &id : a.findings)
            if (findingIds.contains(id))
                concerned.append(id);
        s.comment = QStringLiteral("Flightdeck: repairing %1 (%2); expired once the repair is verified")
                        .arg(concerned.join(QStringLiteral(", ")), repair);
        out.append(s);
    }
    return out;
}

QString RepairSilences::caughtLine(
    const SilenceRequest &silence, const QList<Alert> &caught, const QString &error)
{
    if (!error.isEmpty())
        return QStringLiteral("Which other alerts it would silence could not be asked: %1").arg(error);
    QStringList others;
    for (const Alert &a : caught) {
        if (a.fingerprint == silence.alertFingerprint || a.silenced())
            continue;
        SilenceRequest labels;
        for (auto it = a.labels.cbegin(); it != a.labels.cend(); ++it)
            labels.matchers.append({ it.key(), it.value(), false, true });
        others << OutsideText::line(labels.matchersText(), 200);
    }
    if (others.isEmpty())
        return QStringLiteral("It silences no other alert firing now.");
    const qsizetype count = others.size();
    if (others.size() > 5) {
        others = others.mid(0, 5);
        others << QStringLiteral("and %1 more").arg(count - 5);
    }
    return QStringLiteral("It would ALSO silence %1 other alert(s) firing now: %2")
        .arg(count)
        .arg(others.join(QStringLiteral("; ")));
}

void RepairSilences::preview(
    const QList<SilenceRequest> &silences, const std::function<void(const QStringList &, int)> &done)
{
    if (silences.isEmpty() || !m_client) {
        done({}, 0);
        return;
    }
    struct Gathering
    {
        QStringList lines;
        int others = 0;
        int waiting = 0;
    };
    auto gathering = std::make_shared<Gathering>();
    gathering->lines = QStringList(silences.size(), QString());
    gathering->waiting = int(silences.size());
    for (qsizetype i = 0; i < silences.size(); ++i) {
        const SilenceRequest &silence = silences.at(i);
        m_client->fetchCaught(
            silence, this, [gathering, silence, i, done](const QList<Alert> &caught, const QString &error) {
                gathering->lines[i] = caughtLine(silence, caught, error);
                for (const Alert &a : caught)
                    gathering->others += a.fingerprint != silence.alertFingerprint && !a.silenced() ? 1 : 0;
                if (--gathering->waiting == 0)
                    done(gathering->lines, gathering->others);
            });
    }
}

void RepairSilences::record(const QString &title, const PlannedRequest &request, int status,
    const QString &outcome, bool done, const QStringList &findingIds)
{
    AuditRecord r;
    r.cloud = m_context.cloud;
    r.user = m_context.user;
    r.project = m_context.project;
    r.projectId = m_context.projectId;
    r.kluster = m_context.kluster;
    r.findings = findingIds;
    r.repair = title;
    r.planned = { request };
    AuditRequest sent;
    sent.request = request;
    sent.status = status;
    sent.outcome = outcome;
    r.requests = QList<AuditRequest> { sent };
    r.verification = done ? RepairResult::Fixed : RepairResult::Failed;
    r.message = outcome;
    QString error;
    AuditLog::append(r, &error); // a silence the log cannot hold is still said by the caller
}

void RepairSilences::create(const QList<SilenceRequest> &silences, const QStringList &findingIds)
{
    m_findings = findingIds;
    if (silences.isEmpty() || !m_client) {
        QMetaObject::invokeMethod(
            this, [this] { emit created({}, {}); }, Qt::QueuedConnection);
        return;
    }
    m_waiting = int(silences.size());
    auto errors = std::make_shared<QStringList>();
    for (const SilenceRequest &s : silences) {
        m_endsAt = s.endsAt;
        HttpCall *call = m_client->createSilence(s);
        connect(call, &HttpCall::finished, this, [this, s, errors](const ApiResponse &response) {
            const QString id = response.ok() ? AlertmanagerClient::silenceIdOf(response.body) : QString();
            const QString title
                = QStringLiteral("Silence %1 until %2").arg(s.matchersText(), s.endsAt.toString(Qt::ISODate));
            if (!id.isEmpty()) {
                m_ids.append(id);
                record(title, plannedPost(s), response.status, QStringLiteral("done: silence %1").arg(id),
                    true, m_findings);
            } else {
                const QString why = response.ok() ? QStringLiteral("the answer named no silence")
                                                  : response.error.toString();
                errors->append(QStringLiteral("silence %1 not made: %2").arg(s.matchersText(), why));
                record(title, plannedPost(s), response.status, QStringLiteral("failed: ") + why, false,
                    m_findings);
            }
            if (--m_waiting == 0)
                emit created(m_ids, *errors);
        });
    }
}

void RepairSilences::finish(bool verified)
{
    if (m_ids.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [this] { emit finished(QString()); }, Qt::QueuedConnection);
        return;
    }
    if (!verified || !m_client) {
        const QString summary
            = QStringLiteral("kept %1 silence(s) (%2) until %3: the repair was not verified")
                  .arg(m_ids.size())
                  .arg(m_ids.join(QStringLiteral(", ")), m_endsAt.toString(Qt::ISODate));
        QMetaObject::invokeMethod(
            this, [this, summary] { emit finished(summary); }, Qt::QueuedConnection);
        return;
    }
    m_waiting = int(m_ids.size());
    auto expired = std::make_shared<QStringList>();
    auto failures = std::make_shared<QStringList>();
    for (const QString &id : std::as_const(m_ids)) {
        HttpCall *call = m_client->expireSilence(id);
        connect(call, &HttpCall::finished, this, [this, id, expired, failures](const ApiResponse &response) {
            const QString title = QStringLiteral("Silence %1 expired: the repair was verified").arg(id);
            if (response.ok()) {
                expired->append(id);
                record(title, plannedDelete(id), response.status, QStringLiteral("done"), true, m_findings);
            } else {
                failures->append(QStringLiteral("%1 (%2)").arg(id, response.error.toString()));
                record(title, plannedDelete(id), response.status,
                    QStringLiteral("failed: ") + response.error.toString(), false, m_findings);
            }
            if (--m_waiting > 0)
                return;
            QString summary
                = QStringLiteral("expired %1 silence(s): the repair was verified").arg(expired->size());
            if (!failures->isEmpty())
                summary += QStringLiteral("; not expired: ") + failures->join(QStringLiteral(", "));
            emit finished(summary);
        });
    }
}
