#include "console/guidedrepair.h"

#include "console/refreshcoordinator.h"
#include "core/repairproposal.h"
#include "services/connection.h"

#include <QTimer>

GuidedRepair::GuidedRepair(const KlusterKey &key, std::shared_ptr<const RepairProposal> proposal,
    KlusterStore *store, RefreshCoordinator *refreshes, Connection *connection, QObject *parent)
    : QObject(parent)
    , m_key(key)
    , m_proposal(std::move(proposal))
    , m_store(store)
    , m_refreshes(refreshes)
    , m_connection(connection)
    , m_handOffs(HandOff::of(*m_proposal))
{
    if (m_connection)
        connect(m_connection, &Connection::repairEventWritten, this,
            [this](const QString &kluster, const QString &outcome) {
                if (kluster == m_key.kluster && m_eventsPending > 0) {
                    --m_eventsPending;
                    emit eventWritten(outcome);
                }
            });
    connect(m_refreshes, &RefreshCoordinator::refreshed, this,
        [this](const KlusterKey &updated, const KlusterData &, bool) { refreshed(updated); });
}

QString GuidedRepair::markdown() const
{
    return HandOff::markdown(m_handOffs);
}

QStringList GuidedRepair::findings() const
{
    QStringList ids;
    for (const HandOff &h : m_handOffs)
        ids << h.findings;
    return ids;
}

QString GuidedRepair::handOver()
{
    if (!m_auditIds.isEmpty())
        return tr("recorded in the audit log as %1").arg(m_auditIds.join(QStringLiteral(", ")));
    QStringList errors;
    for (const HandOff &h : std::as_const(m_handOffs)) {
        QString error;
        const QString id = HandOffs::record(m_proposal->fetch()->state, h.findings, h.plan, &error);
        if (id.isEmpty())
            errors << error;
        else
            m_auditIds << id;
    }
    if (!errors.isEmpty())
        return tr("not recorded in the audit log: %1").arg(errors.join(QStringLiteral("; ")));
    return tr("recorded in the audit log as %1").arg(m_auditIds.join(QStringLiteral(", ")));
}

void GuidedRepair::verify()
{
    if (m_verifying)
        return;
    m_verifying = true;
    m_refreshes->refresh(m_key);
    // A refresh that never comes back (the connection removed meanwhile) says so, never waits for ever.
    const int attempt = ++m_attempt;
    QTimer::singleShot(VerifyTimeoutMs, this, [this, attempt] {
        if (m_verifying && attempt == m_attempt)
            notVerified(tr("the kluster was not read again within %1 s").arg(VerifyTimeoutMs / 1000));
    });
}

void GuidedRepair::notVerified(const QString &why)
{
    m_verifying = false;
    HandOffs::Verification v;
    v.open = findings();
    v.message = tr("not verified: %1").arg(why);
    v.error = tr("nothing recorded");
    emit verified(v);
}

void GuidedRepair::refreshed(const KlusterKey &key)
{
    if (!m_verifying || key != m_key)
        return;
    m_verifying = false;
    const KlusterData *now = m_store->data(key);
    // A finding gone because a source it rests on was not read proves nothing: only a whole read verifies.
    if (!now || !now->fetch || !now->diagnosis || now->failedInPart()) {
        notVerified(!now         ? tr("no data")
                : now->isStale() ? SourceError::joined(now->error)
                                 : SourceError::joined(now->incomplete));
        return;
    }
    HandOffs::Verification all;
    QStringList messages;
    for (qsizetype i = 0; i < m_handOffs.size(); ++i) {
        const HandOff &h = m_handOffs.at(i);
        const HandOffs::Verification v = HandOffs::verify(now->fetch->state, *now->diagnosis, h.findings,
            h.plan.title, h.plan.requests, m_auditIds.value(i));
        if (v.done() && m_connection && !m_auditIds.value(i).isEmpty()) {
            ++m_eventsPending;
            m_connection->writeRepairEvent(m_key.kluster,
                HandOffs::verifiedEvent(now->fetch->state, h.findings, h.plan.title, m_auditIds.value(i), v));
        }
        all.open << v.open;
        messages << v.message;
        if (!v.error.isEmpty())
            all.error = v.error;
    }
    all.message = messages.join(QStringLiteral("; "));
    emit verified(all);
}
