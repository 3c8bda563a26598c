// What a terminated kluster leaves behind (diagnosis.md §9) judged: volume-orphaned, volume-stuck,
// loadbalancer-orphaned and loadbalancer-stuck derived only for a kluster that is Terminating or gone, from
// the volumes and load balancers the CSI driver and the cloud provider made for it; their repairs as the
// exact requests, refused past ten deletions and confirmed by the kluster's name.
#include "core/debris.h"
#include "core/debrisfindings.h"
#include "core/diagnosis.h"
#include "core/repairgate.h"

#include <QTest>

namespace {

const QString Project = QStringLiteral("2f94b45ab3444cff92cbf030591a1126");
const QDateTime Now = QDateTime(QDate(2026, 11, 30), QTime(10, 0), Qt::UTC);

Volume volume(const QString &id, const QString &kluster, const QString &status, int updatedMinutesAgo,
    const QStringList &attachedTo = {})
{
    Volume v;
    v.id = id;
    v.name = QStringLiteral("pv-") + id;
    v.status = status;
    v.sizeGb = 10;
    v.attachedTo = attachedTo;
    v.cluster = kluster.isEmpty() ? QString() : Debris::volumeClusterOf(kluster, Project);
    v.pvcNamespace = QStringLiteral("default");
    v.pvcName = QStringLiteral("data-") + id;
    v.createdAt = Now.addDays(-30);
    v.updatedAt = Now.addSecs(-60 * updatedMinutesAgo);
    return v;
}

LoadBalancer loadBalancer(
    const QString &id, const QString &name, const QString &status, int updatedMinutesAgo)
{
    LoadBalancer lb;
    lb.id = id;
    lb.name = name;
    lb.projectId = Project;
    lb.provisioningStatus = status;
    lb.operatingStatus = QStringLiteral("ONLINE");
    lb.vipAddress = QStringLiteral("10.180.0.200");
    lb.tags << name;
    lb.createdAt = Now.addDays(-30);
    lb.updatedAt = Now.addSecs(-60 * updatedMinutesAgo);
    return lb;
}

// Kluster `name` as Kubernikus has it in `phase` (or gone), with the project's volumes and load balancers.
KlusterState state(const QString &name, const QString &phase, bool gone = false)
{
    KlusterState s;
    s.capturedAt = Now;
    s.kluster.name = name;
    s.kluster.projectId = Project;
    s.kluster.phase = phase;
    s.kluster.gone = gone;
    s.klusterSource.known = true;
    s.volumesSource.known = true;
    s.loadBalancersSource.known = true;
    s.volumes = {
        volume(QStringLiteral("v-avail"), name, QStringLiteral("available"), 3 * 24 * 60),
        volume(QStringLiteral("v-inuse"), name, QStringLiteral("in-use"), 60, { QStringLiteral("srv-1") }),
        volume(QStringLiteral("v-stuck"), name, QStringLiteral("error_deleting"), 40),
        volume(QStringLiteral("v-young"), name, QStringLiteral("deleting"), 3),
        volume(QStringLiteral("v-other"), QStringLiteral("other"), QStringLiteral("available"), 600),
        volume(QStringLiteral("v-mine"), QString(), QStringLiteral("available"), 600),
        // Another kluster whose name begins with this one's: never this one's.
        volume(QStringLiteral("v-prefix"), name + QStringLiteral("-2"), QStringLiteral("available"), 600),
    };
    s.loadBalancers = {
        loadBalancer(QStringLiteral("lb-active"), QStringLiteral("kube_service_%1_default_web").arg(name),
            QStringLiteral("ACTIVE"), 600),
        loadBalancer(QStringLiteral("lb-error"),
            QStringLiteral("kube_service_%1_monitoring_grafana").arg(name), QStringLiteral("ERROR"), 5),
        loadBalancer(QStringLiteral("lb-pending"), QStringLiteral("kube_service_%1_default_api").arg(name),
            QStringLiteral("PENDING_DELETE"), 25),
        loadBalancer(QStringLiteral("lb-young"), QStringLiteral("kube_service_%1_default_ui").arg(name),
            QStringLiteral("PENDING_DELETE"), 2),
        loadBalancer(QStringLiteral("lb-other"), QStringLiteral("kube_service_othercluster_default_web"),
            QStringLiteral("ACTIVE"), 600),
    };
    return s;
}

QStringList ids(const Diagnosis &d)
{
    QStringList out;
    for (const Finding &f : d.findings)
        out << f.id();
    out.sort();
    return out;
}

} // namespace

class TestDebrisFindings : public QObject
{
    Q_OBJECT

private slots:
    void liveKlusterHasNoDebris();
    void goneKlusterLeftDebris();
    void terminatingKlusterIsHeldByItsStuckVolume();
    void terminatingForAnHourOrphansItsVolumes();
    void repairsAreTheExactRequests();
    void unreadSourcesDecideNothing();
    void atMostTenDeletionsConfirmedByTheKlustersName();
    void goneKlustersFromTheVolumes();
};

void TestDebrisFindings::liveKlusterHasNoDebris()
{
    for (const char *phase : { "Running", "Upgrading", "Creating", "" }) {
        const Diagnosis d = Diagnosis::run(state(QStringLiteral("demo"), QLatin1String(phase)));
        for (const Finding &f : d.findings)
            QVERIFY2(findingFamily(f.kind) != FindingFamily::Debris, qPrintable(f.id()));
    }
}

void TestDebrisFindings::goneKlusterLeftDebris()
{
    const Diagnosis d = Diagnosis::run(state(QStringLiteral("retired"), QString(), true));
    QCOMPARE(ids(d),
        QStringList({ QStringLiteral("loadbalancer-orphaned:lb-active"),
            QStringLiteral("loadbalancer-stuck:lb-error"), QStringLiteral("loadbalancer-stuck:lb-pending"),
            QStringLiteral("volume-orphaned:v-avail"), QStringLiteral("volume-stuck:v-stuck") }));
    for (const Finding &f : d.findings) {
        QCOMPARE(f.severity, Severity::Warning); // nothing of a kluster gone holds anything
        QVERIFY2(f.message().contains(QLatin1String("kluster retired, gone")), qPrintable(f.message()));
    }
    const Finding *orphaned = d.find(QStringLiteral("volume-orphaned:v-avail"));
    QVERIFY(orphaned->message().contains(QLatin1String("the claim default/data-v-avail")));
    QCOMPARE(orphaned->evidence().value(QStringLiteral("kluster")).toObject().value(QStringLiteral("gone")),
        QJsonValue(true));
    QCOMPARE(orphaned->affected().volumes, QStringList { QStringLiteral("v-avail") });
    // Stuck PENDING_DELETE: Octavia changes nothing while pending: an operator's, no plan of its own.
    QVERIFY(!d.find(QStringLiteral("loadbalancer-stuck:lb-pending"))->repair());
    QVERIFY(d.find(QStringLiteral("loadbalancer-stuck:lb-pending"))
                ->message()
                .contains(QLatin1String("PENDING_DELETE for 25 min")));
    // Last seen, from the history.
    KlusterState seen = state(QStringLiteral("retired"), QString(), true);
    seen.kluster.lastSeen = Now.addDays(-2);
    const Diagnosis d2 = Diagnosis::run(seen);
    QVERIFY2(d2.findings.first().message().contains(QLatin1String("gone since 2026-11-28T10:00:00Z")),
        qPrintable(d2.findings.first().message()));
}

void TestDebrisFindings::terminatingKlusterIsHeldByItsStuckVolume()
{
    const Diagnosis d = Diagnosis::run(state(QStringLiteral("gone"), QStringLiteral("Terminating")));
    // Since when it is Terminating is not known: its available volumes are not called orphaned yet; its
    // load balancers are not orphaned while it exists.
    QCOMPARE(ids(d),
        QStringList(
            { QStringLiteral("kluster-terminating:gone"), QStringLiteral("loadbalancer-stuck:lb-error"),
                QStringLiteral("loadbalancer-stuck:lb-pending"), QStringLiteral("volume-stuck:v-stuck") }));
    const Finding *stuck = d.find(QStringLiteral("volume-stuck:v-stuck"));
    QCOMPARE(stuck->severity, Severity::Critical);
    QVERIFY(stuck->message().contains(QLatin1String("holds kluster gone in Terminating")));
    QCOMPARE(d.findings.first().id(), QStringLiteral("volume-stuck:v-stuck")); // the worst first
}

void TestDebrisFindings::terminatingForAnHourOrphansItsVolumes()
{
    KlusterState s = state(QStringLiteral("gone"), QStringLiteral("Terminating"));
    s.findingsSince.insert(QStringLiteral("kluster-terminating:gone"), Now.addSecs(-59 * 60));
    QVERIFY(!Diagnosis::run(s).find(QStringLiteral("volume-orphaned:v-avail")));
    s.findingsSince.insert(QStringLiteral("kluster-terminating:gone"), Now.addSecs(-61 * 60));
    QVERIFY(Diagnosis::run(s).find(QStringLiteral("volume-orphaned:v-avail")));
}

void TestDebrisFindings::repairsAreTheExactRequests()
{
    const Diagnosis d = Diagnosis::run(state(QStringLiteral("retired"), QString(), true));
    const std::optional<RepairPlan> volume = d.find(QStringLiteral("volume-orphaned:v-avail"))->repair();
    QVERIFY(volume);
    QCOMPARE(volume->requests.size(), 1);
    QCOMPARE(volume->requests.first().summary(), QStringLiteral("DELETE volumev3 /volumes/v-avail"));
    QCOMPARE(volume->typedName(), QStringLiteral("retired"));
    QCOMPARE(volume->refusal, Refusal::None);

    const std::optional<RepairPlan> lb = d.find(QStringLiteral("loadbalancer-orphaned:lb-active"))->repair();
    QCOMPARE(lb->requests.first().summary(),
        QStringLiteral("DELETE load-balancer /v2/lbaas/loadbalancers/lb-active?cascade=true"));
    const std::optional<RepairPlan> error = d.find(QStringLiteral("loadbalancer-stuck:lb-error"))->repair();
    QCOMPARE(error->requests.first().summary(),
        QStringLiteral("DELETE load-balancer /v2/lbaas/loadbalancers/lb-error?cascade=true"));

    // Stuck deleting: an admin resets it to error, then it is deleted.
    const std::optional<RepairPlan> stuck = d.find(QStringLiteral("volume-stuck:v-stuck"))->repair();
    QCOMPARE(stuck->requests.size(), 2);
    QCOMPARE(stuck->requests.at(0).summary(), QStringLiteral("POST volumev3 /volumes/v-stuck/action"));
    QCOMPARE(stuck->requests.at(0).body.toObject(),
        QJsonObject({ { QStringLiteral("os-reset_status"),
            QJsonObject { { QStringLiteral("status"), QStringLiteral("error") } } } }));
    QCOMPARE(stuck->requests.at(1).summary(), QStringLiteral("DELETE volumev3 /volumes/v-stuck"));
}

void TestDebrisFindings::unreadSourcesDecideNothing()
{
    KlusterState s = state(QStringLiteral("retired"), QString(), true);
    s.volumesSource = SourceStatus { false, QStringLiteral("HTTP 503"), QString() };
    const Diagnosis d = Diagnosis::run(s);
    for (const Finding &f : d.findings)
        QVERIFY(!f.id().startsWith(QLatin1String("volume-")));
    QVERIFY2(d.notDiagnosed.join(QLatin1Char('\n'))
                 .contains(QLatin1String("the volumes could not be read (HTTP 503)")),
        qPrintable(d.notDiagnosed.join(QLatin1Char('\n'))));
}

void TestDebrisFindings::atMostTenDeletionsConfirmedByTheKlustersName()
{
    KlusterState s = state(QStringLiteral("retired"), QString(), true);
    s.volumes.clear();
    s.loadBalancers.clear();
    for (int i = 0; i < 11; ++i)
        s.volumes << volume(QStringLiteral("v%1").arg(i, 2, 10, QLatin1Char('0')), QStringLiteral("retired"),
            QStringLiteral("available"), 600);
    const Diagnosis d = Diagnosis::run(s);
    QCOMPARE(d.findings.size(), 11);
    QList<const Finding *> ten;
    for (int i = 0; i < 10; ++i)
        ten << &d.findings.at(i);
    const RepairGate allowed(ten, d.budget);
    QCOMPARE(allowed.sendable().size(), 10);
    QCOMPARE(allowed.typeToConfirm(QStringLiteral("retired")), QStringLiteral("retired"));
    QCOMPARE(allowed.deletedNames().size(), 10);

    QList<const Finding *> eleven = ten;
    eleven << &d.findings.at(10);
    const RepairGate refused(eleven, d.budget);
    QVERIFY(refused.sendable().isEmpty());
    for (const RepairGate::Decision &decision : refused.decisions()) {
        QCOMPARE(decision.reason, Refusal::TooManyDeletions);
        QVERIFY(decision.detail.contains(QLatin1String("at most 10")));
    }
    // One alone is confirmed by the kluster's name too, not the volume's.
    const RepairGate one({ &d.findings.first() }, d.budget);
    QCOMPARE(one.typeToConfirm(QStringLiteral("retired")), QStringLiteral("retired"));
}

void TestDebrisFindings::goneKlustersFromTheVolumes()
{
    const KlusterState s = state(QStringLiteral("retired"), QString(), true);
    QCOMPARE(Debris::goneKlusters(s.volumes, { QStringLiteral("demo") }, Project),
        QStringList({ QStringLiteral("other"), QStringLiteral("retired"), QStringLiteral("retired-2") }));
    QCOMPARE(Debris::goneKlusters(s.volumes, { QStringLiteral("retired"), QStringLiteral("other") }, Project),
        QStringList { QStringLiteral("retired-2") });
    QVERIFY(Debris::goneKlusters(s.volumes, {}, QString()).isEmpty());
    QCOMPARE(Debris::leftBehind(s), 8); // 4 volumes, 4 load balancers of retired
}

QTEST_GUILESS_MAIN(TestDebrisFindings)
#include "tst_debrisfindings.moc"
