// flightdeck-cli against the simulated cloud's Cinder and Octavia (diagnosis.md §9): what the kluster
// `retired` left behind when Kubernikus forgot it, and the Terminating `gone` held by its stuck volume, found
// and attributed; an orphaned volume and load balancer deleted, verified and audited, nothing else touched;
// an attached volume, a live kluster's volume and eleven deletions at once refused with their reasons.
#include "tests/app/clifixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

class TestCliDebris : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void goneKlusterLeftDebris();
    void terminatingKlusterHeldByItsVolume();
    void mistypedKlusterIsStillNotFound();
    void orphanedVolumeDeletedAndVerified();
    void orphanedLoadBalancerDeletedAndVerified();
    void attachedVolumeRefused();
    void liveKlustersVolumeRefused();
    void elevenDeletionsRefused();
    void stuckVolumeIsHandedOver();
    void stuckVolumeResetAndDeletedByAnAdmin();
    void causedDebrisAndStuckVolumeFound();

private:
    using Run = CliFixture::Run;
    Run cli(const QStringList &args) { return m_cli->cli(args); }
    QJsonObject check(const QString &kluster, int *exitCode = nullptr);
    QStringList findingIds(const QJsonObject &report, const QString &kindPrefix);
    QStringList volumeIds() const;
    QStringList loadBalancerIds() const;

    std::unique_ptr<CliFixture> m_cli;
};

void TestCliDebris::init()
{
    m_cli = std::make_unique<CliFixture>();
}

void TestCliDebris::cleanup()
{
    m_cli.reset();
}

QJsonObject TestCliDebris::check(const QString &kluster, int *exitCode)
{
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), kluster, QStringLiteral("--format"), QStringLiteral("json") });
    if (exitCode)
        *exitCode = r.exitCode;
    const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
    if (report.isEmpty())
        qWarning("check %s: %s", qPrintable(kluster), qPrintable(r.err));
    return report;
}

QStringList TestCliDebris::findingIds(const QJsonObject &report, const QString &kindPrefix)
{
    QStringList ids;
    for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray()) {
        const QString id = f.toObject().value(QStringLiteral("id")).toString();
        if (id.startsWith(kindPrefix))
            ids << id;
    }
    ids.sort();
    return ids;
}

QStringList TestCliDebris::volumeIds() const
{
    QStringList ids;
    for (const SimVolume &v : m_cli->sim.sim.world().volumes)
        ids << v.id;
    ids.sort();
    return ids;
}

QStringList TestCliDebris::loadBalancerIds() const
{
    QStringList ids;
    for (const SimLoadBalancer &lb : m_cli->sim.sim.world().loadBalancers) {
        if (lb.provisioningStatus != QLatin1String("PENDING_DELETE") || !lb.goneAt.isValid())
            ids << lb.id;
    }
    ids.sort();
    return ids;
}

void TestCliDebris::goneKlusterLeftDebris()
{
    int exitCode = -1;
    const QJsonObject report = check(QStringLiteral("retired"), &exitCode);
    QCOMPARE(exitCode, 1); // warnings: nothing of a kluster gone holds anything
    QVERIFY(report.value(QStringLiteral("gone")).isObject());
    QVERIFY(report.value(QStringLiteral("phase")).isNull());
    QCOMPARE(findingIds(report, QStringLiteral("volume-orphaned")).size(), 2);
    QCOMPARE(findingIds(report, QStringLiteral("volume-stuck")).size(), 1);
    QCOMPARE(findingIds(report, QStringLiteral("loadbalancer-orphaned")).size(), 1);
    QCOMPARE(findingIds(report, QStringLiteral("loadbalancer-stuck")).size(), 1);
    // Nothing but what it left: no instance, route or node finding of a kluster that is not there.
    QCOMPARE(report.value(QStringLiteral("findings")).toArray().size(), 5);
    for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray()) {
        const QJsonObject o = f.toObject();
        QVERIFY2(
            o.value(QStringLiteral("message")).toString().contains(QLatin1String("kluster retired, gone")),
            qPrintable(o.value(QStringLiteral("message")).toString()));
    }
    // The text report says it is gone.
    const Run text = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired") });
    QVERIFY2(text.out.contains(QStringLiteral("· gone")), qPrintable(text.out));
}

void TestCliDebris::terminatingKlusterHeldByItsVolume()
{
    int exitCode = -1;
    const QJsonObject report = check(QStringLiteral("gone"), &exitCode);
    QCOMPARE(exitCode, 2);
    QCOMPARE(report.value(QStringLiteral("phase")).toString(), QStringLiteral("Terminating"));
    const QStringList stuck = findingIds(report, QStringLiteral("volume-stuck"));
    QCOMPARE(stuck.size(), 1);
    const QJsonArray findings = report.value(QStringLiteral("findings")).toArray();
    QCOMPARE(findings.first().toObject().value(QStringLiteral("id")).toString(), stuck.first());
    QCOMPARE(
        findings.first().toObject().value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
    QCOMPARE(findingIds(report, QStringLiteral("loadbalancer-stuck")).size(), 1);
    QCOMPARE(findingIds(report, QStringLiteral("kluster-terminating")).size(), 1);
    QVERIFY(findingIds(report, QStringLiteral("loadbalancer-orphaned")).isEmpty()); // it exists
}

void TestCliDebris::mistypedKlusterIsStillNotFound()
{
    const Run r = cli({ QStringLiteral("check"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retierd") });
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(QLatin1String("no kluster retierd")), qPrintable(r.err));
}

void TestCliDebris::orphanedVolumeDeletedAndVerified()
{
    const QStringList orphaned
        = findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-orphaned"));
    QVERIFY(!orphaned.isEmpty());
    const QString id = orphaned.first();
    const QString volume = id.section(QLatin1Char(':'), 1);
    const QStringList before = volumeIds();
    QVERIFY(before.contains(volume));
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--finding"), id,
        QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(QLatin1String("DELETE volumev3 /volumes/") + volume), qPrintable(r.out));
    QVERIFY2(r.out.contains(id + QLatin1String(" is gone")), qPrintable(r.out));
    // That volume, and nothing else.
    QStringList after = before;
    after.removeAll(volume);
    QCOMPARE(volumeIds(), after);
    QVERIFY(!findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-orphaned")).contains(id));
}

void TestCliDebris::orphanedLoadBalancerDeletedAndVerified()
{
    const QStringList orphaned
        = findingIds(check(QStringLiteral("retired")), QStringLiteral("loadbalancer-orphaned"));
    QCOMPARE(orphaned.size(), 1);
    const QString lb = orphaned.first().section(QLatin1Char(':'), 1);
    const QStringList before = loadBalancerIds();
    const QStringList volumesBefore = volumeIds();
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--finding"), orphaned.first(),
        QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(
                 QStringLiteral("DELETE load-balancer /v2/lbaas/loadbalancers/%1?cascade=true").arg(lb)),
        qPrintable(r.out));
    QStringList after = before;
    after.removeAll(lb);
    QCOMPARE(loadBalancerIds(), after);
    QCOMPARE(volumeIds(), volumesBefore);
}

void TestCliDebris::attachedVolumeRefused()
{
    const QStringList orphaned
        = findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-orphaned"));
    QVERIFY(!orphaned.isEmpty());
    const QString volume = orphaned.first().section(QLatin1Char(':'), 1);
    // Someone attaches it meanwhile: never deleted as debris.
    World &w = m_cli->sim.sim.world();
    for (SimVolume &v : w.volumes) {
        if (v.id == volume) {
            v.attachedTo = { w.servers.first().id };
            v.status = QStringLiteral("in-use");
        }
    }
    const QStringList before = volumeIds();
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--finding"), orphaned.first(),
        QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(QLatin1String("Attached: volume ") + volume + QLatin1String(" is attached")),
        qPrintable(r.out));
    QCOMPARE(volumeIds(), before);
}

void TestCliDebris::liveKlustersVolumeRefused()
{
    // demo's own volume, asked for as if it were debris.
    QString volume;
    const World &world = m_cli->sim.sim.world();
    const QString cluster = World::volumeClusterOf(
        QStringLiteral("demo"), world.klusters.at(world.klusterIndex(QStringLiteral("demo"))).projectId);
    for (const SimVolume &v : m_cli->sim.sim.world().volumes) {
        if (v.metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster")) == cluster
            && v.attachedTo.isEmpty())
            volume = v.id;
    }
    if (volume.isEmpty()) { // all of demo's are attached: detach one (it stays demo's)
        for (SimVolume &v : m_cli->sim.sim.world().volumes) {
            if (v.metadataValue(QStringLiteral("cinder.csi.openstack.org/cluster")) == cluster) {
                v.attachedTo.clear();
                v.status = QStringLiteral("available");
                volume = v.id;
                break;
            }
        }
    }
    QVERIFY(!volume.isEmpty());
    const QStringList before = volumeIds();
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("demo"), QStringLiteral("--finding"),
        QStringLiteral("volume-orphaned:") + volume, QStringLiteral("--yes") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.contains(QLatin1String("KlusterLive: kluster demo exists and is not Terminating")),
        qPrintable(r.out));
    QCOMPARE(volumeIds(), before);
}

void TestCliDebris::elevenDeletionsRefused()
{
    World &w = m_cli->sim.sim.world();
    const QString project = w.klusters.at(w.klusterIndex(QStringLiteral("demo"))).projectId;
    const QString cluster = World::volumeClusterOf(QStringLiteral("retired"), project);
    for (int i = 0; i < 10; ++i) {
        SimVolume v;
        v.id = QStringLiteral("0e1d2c3b-0000-4000-8000-%1").arg(i, 12, 10, QLatin1Char('0'));
        v.name = QStringLiteral("pv-extra-%1").arg(i);
        v.projectId = project;
        v.status = QStringLiteral("available");
        v.metadata = { { QStringLiteral("cinder.csi.openstack.org/cluster"), cluster } };
        v.created = w.now().addDays(-5);
        v.updated = w.now().addDays(-3);
        w.volumes.append(v);
    }
    const QStringList orphaned
        = findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-orphaned"));
    QCOMPARE(orphaned.size(), 12);
    QStringList args { QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--yes") };
    for (int i = 0; i < 11; ++i)
        args << QStringLiteral("--finding") << orphaned.at(i);
    const QStringList before = volumeIds();
    const Run r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        (r.out + r.err).contains(QLatin1String("TooManyDeletions: 11 deletions")), qPrintable(r.out + r.err));
    QCOMPARE(volumeIds(), before);
    // Ten go.
    args.removeLast();
    args.removeLast();
    const Run ten = cli(args);
    QVERIFY2(ten.exitCode == 0, qPrintable(ten.out + ten.err));
    QCOMPARE(volumeIds().size(), before.size() - 10);
}

void TestCliDebris::stuckVolumeIsHandedOver()
{
    const QStringList stuck = findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-stuck"));
    QCOMPARE(stuck.size(), 1);
    const QStringList before = volumeIds();
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("sim"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--finding"), stuck.first(),
        QStringLiteral("--yes") });
    // The demo user is a member: resetting a status is an admin's; the guide is printed instead.
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("NotPermitted: POST volumev3")), qPrintable(r.err));
    QVERIFY2(r.out.contains(QLatin1String("Guided manual repair")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("os-reset_status")), qPrintable(r.out));
    QCOMPARE(volumeIds(), before);
}

void TestCliDebris::stuckVolumeResetAndDeletedByAnAdmin()
{
    m_cli->addCloud(QStringLiteral("simadmin"), QStringLiteral("admin"));
    const QStringList stuck = findingIds(check(QStringLiteral("retired")), QStringLiteral("volume-stuck"));
    QCOMPARE(stuck.size(), 1);
    const QString volume = stuck.first().section(QLatin1Char(':'), 1);
    const Run r = cli({ QStringLiteral("repair"), QStringLiteral("--cloud"), QStringLiteral("simadmin"),
        QStringLiteral("--kluster"), QStringLiteral("retired"), QStringLiteral("--finding"), stuck.first(),
        QStringLiteral("--yes") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    QVERIFY(!volumeIds().contains(volume));
}

// The simulator's causes: a kluster that self-destructed leaves its volumes behind; one whose deorbiter is
// stuck on a volume is held in Terminating by it.
void TestCliDebris::causedDebrisAndStuckVolumeFound()
{
    const auto cause = [this](const QString &kluster, const QByteArray &rule) {
        return m_cli->sim
            .request("POST", m_cli->sim.sim.adminUrl() + QStringLiteral("/klusters/%1/cause").arg(kluster),
                R"({"rule": ")" + rule + R"("})", {}, false)
            .status;
    };
    QCOMPARE(cause(QStringLiteral("blue"), "debris"), 200);
    int exitCode = -1;
    const QJsonObject blue = check(QStringLiteral("blue"), &exitCode);
    QCOMPARE(exitCode, 1);
    QVERIFY(blue.value(QStringLiteral("gone")).isObject());
    QVERIFY(!findingIds(blue, QStringLiteral("volume-orphaned")).isEmpty());
    QCOMPARE(findingIds(blue, QStringLiteral("instance-")), QStringList()); // nothing but what it left

    QCOMPARE(cause(QStringLiteral("green"), "volume-stuck"), 200);
    const QJsonObject green = check(QStringLiteral("green"), &exitCode);
    QCOMPARE(exitCode, 2);
    QCOMPARE(green.value(QStringLiteral("phase")).toString(), QStringLiteral("Terminating"));
    const QStringList stuck = findingIds(green, QStringLiteral("volume-stuck"));
    QCOMPARE(stuck.size(), 1);
    QCOMPARE(green.value(QStringLiteral("findings"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("id"))
                 .toString(),
        stuck.first());
}

QTEST_GUILESS_MAIN(TestCliDebris)
#include "tst_cli_debris.moc"
