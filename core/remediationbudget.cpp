#include "core/remediationbudget.h"

#include "core/klusterindex.h"
#include "core/klusterphase.h"

RemediationBudget RemediationBudget::compute(const KlusterState &state, const DiagnosisOptions &options)
{
    RemediationBudget b;
    b.expected = state.kluster.expectedNodes();
    // A kluster being created expects the nodes of what has been created so far: those not there yet are
    // not unhealthy (diagnosis.md §7).
    if (KlusterPhases::building(KlusterPhases::parse(state.kluster.phase)) && state.serversSource.known) {
        const KlusterIndex index(state);
        b.expected = qMin<qint64>(b.expected, index.klusterInstances().size());
    }
    for (const Node &node : state.nodes) {
        if (node.isReady())
            ++b.ready;
    }
    b.unhealthy = qMax<qint64>(0, b.expected - b.ready);
    b.maxUnhealthy = options.maxUnhealthy.resolve(b.expected);

    if (!state.nodesSource.known) {
        b.deletionsAllowed = false;
        b.reason = Refusal::NoEvidence;
        b.detail
            = QStringLiteral("the node list could not be fetched (%1); no instance is deleted without it")
                  .arg(state.nodesSource.error.isEmpty() ? QStringLiteral("unknown error")
                                                         : state.nodesSource.error);
        return b;
    }
    if (state.nodes.isEmpty()) {
        const KlusterIndex index(state);
        qint64 active = 0;
        for (int i : index.klusterInstances()) {
            if (state.instances.at(i).isActive())
                ++active;
        }
        if (active > 0) {
            b.deletionsAllowed = false;
            b.reason = Refusal::NoEvidence;
            b.detail
                = QStringLiteral("the node list is empty while %1 of the kluster's instances are active; "
                                 "the likely cause is the Kubernetes API, not the nodes")
                      .arg(active);
            return b;
        }
    }
    if (b.unhealthy > b.maxUnhealthy) {
        b.deletionsAllowed = false;
        b.reason = Refusal::TooManyUnhealthy;
        b.detail = QStringLiteral(
            "%1 of %2 expected nodes are unhealthy, more than the %3 allowed (maxUnhealthy %4)")
                       .arg(b.unhealthy)
                       .arg(b.expected)
                       .arg(b.maxUnhealthy)
                       .arg(options.maxUnhealthy.toString());
    }
    return b;
}

bool RemediationBudget::allowsDeletion(qint64 count, bool override) const
{
    if (deletionsAllowed)
        return true;
    if (reason == Refusal::TooManyUnhealthy)
        return override && count == 1;
    return false;
}

QJsonObject RemediationBudget::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("expected"), expected);
    o.insert(QStringLiteral("ready"), ready);
    o.insert(QStringLiteral("unhealthy"), unhealthy);
    o.insert(QStringLiteral("maxUnhealthy"), maxUnhealthy);
    o.insert(QStringLiteral("deletionsAllowed"), deletionsAllowed);
    o.insert(
        QStringLiteral("reason"), reason == Refusal::None ? QJsonValue() : QJsonValue(refusalName(reason)));
    return o;
}
