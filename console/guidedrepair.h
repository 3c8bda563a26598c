#pragma once

#include "console/klusterstore.h"
#include "core/klusterkey.h"
#include "core/manualrepair.h"
#include "services/repair/handoffs.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <memory>

class Connection;
class RefreshCoordinator;
class RepairProposal;

// A guided manual repair in the console (diagnosis.md §8): the repairs of a proposal these credentials may
// not send, as the commands for someone who may; handed over (recorded in the audit log) when the person
// copies them, and verified by reading the kluster again: "repaired by someone else, verified" or "not yet",
// recorded too. The dialog that shows it only arranges it.
class GuidedRepair : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuidedRepair)

public:
    // `connection`: the kluster's, where a verified repair's Event is written (null: none is).
    GuidedRepair(const KlusterKey &key, std::shared_ptr<const RepairProposal> proposal, KlusterStore *store,
        RefreshCoordinator *refreshes, Connection *connection, QObject *parent = nullptr);

    const QList<HandOff> &handOffs() const { return m_handOffs; }
    bool isEmpty() const { return m_handOffs.isEmpty(); }
    QString markdown() const; // what Copy as Markdown copies
    QStringList findings() const; // every finding the guides repair

    // The guides handed over: each recorded in the audit log once (a second copy records nothing new). The
    // ids, or why they could not be recorded.
    QString handOver();
    QStringList auditIds() const { return m_auditIds; }

    // Reads the kluster again; verified() says whether its findings are gone, once recorded; when they are,
    // the Kubernetes Event that tells teammates is written (eventWritten() says how).
    void verify();
    static constexpr int VerifyTimeoutMs = 120000;

signals:
    void verified(const HandOffs::Verification &result);
    void eventWritten(const QString &outcome); // "RepairVerified written", or why not

private:
    void refreshed(const KlusterKey &key);
    void notVerified(const QString &why);

    KlusterKey m_key;
    std::shared_ptr<const RepairProposal> m_proposal;
    KlusterStore *m_store;
    RefreshCoordinator *m_refreshes;
    QPointer<Connection> m_connection;
    QList<HandOff> m_handOffs;
    QStringList m_auditIds;
    bool m_verifying = false;
    int m_attempt = 0;
    int m_eventsPending = 0; // verified Events asked for and not yet answered
};
