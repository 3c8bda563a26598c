// One story everywhere: the console's kluster list, its Fleet, its Overview and its Markdown hand-off, and
// `flightdeck-cli check --all`, on the same simulated cloud over real HTTP, agree on every kluster's order,
// counts and worst cause (the demo and a generated region); and with each source made unreadable in turn, no
// finding that needs it is reported, the same by the console and the command line.

#include "console/klusterstore.h"
#include "core/findingtraits.h"
#include "core/klusterstanding.h"
#include "core/knowledge.h"
#include "core/source.h"
#include "models/fleettiles.h"
#include "services/history/historystore.h"
#include "simulator/scenario.h"
#include "tests/app/clifixture.h"
#include "tests/views/consolefixture.h"
#include "views/fleetview.h"
#include "views/overviewpage.h"
#include "views/teamcommands.h"

#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

using ConsoleTest::select;

class TestConsoleStory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init()
    {
        QSettings().clear();
        // No history of an earlier run or row: what the command line (which keeps none) reports is what the
        // console reports (a history would add what only it knows: route-recycled, since-whens).
        for (const char *suffix : { "", "-wal", "-shm" })
            QFile::remove(HistoryStore::defaultPath() + QLatin1String(suffix));
    }
    void oneStoryEverywhere_data();
    void oneStoryEverywhere();
    void faultMatrix_data();
    void faultMatrix();

private:
    // `flightdeck-cli check --all --format json` on `cloud`, as a person runs it (its own home, clouds.yaml,
    // secure.yaml): the report, or a failure.
    static QJsonObject checkAll(const CloudConfig &cloud, QString *failure);
};

QJsonObject TestConsoleStory::checkAll(const CloudConfig &cloud, QString *failure)
{
    QTemporaryDir home;
    QDir(home.path()).mkpath(QStringLiteral("config/openstack"));
    QFile clouds(home.filePath(QStringLiteral("config/openstack/clouds.yaml")));
    QFile secure(home.filePath(QStringLiteral("config/openstack/secure.yaml")));
    if (!clouds.open(QIODevice::WriteOnly) || !secure.open(QIODevice::WriteOnly)) {
        *failure = QStringLiteral("cannot write clouds.yaml");
        return {};
    }
    clouds.write(QStringLiteral("clouds:\n  %1:\n    auth:\n      auth_url: %2\n      username: %3\n"
                                "      project_name: %4\n      user_domain_name: Default\n"
                                "      project_domain_name: Default\n")
                     .arg(cloud.name, cloud.authUrl, cloud.username, cloud.projectName)
                     .toUtf8());
    secure.write(QStringLiteral("clouds:\n  %1:\n    auth:\n      password: %2\n")
                     .arg(cloud.name, cloud.password)
                     .toUtf8());
    clouds.close();
    secure.close();
    QProcess p;
    p.setProcessEnvironment(CliFixture::environmentOf(home));
    p.setWorkingDirectory(home.path());
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(QStringLiteral(FLIGHTDECK_CLI),
        { QStringLiteral("check"), QStringLiteral("--all"), QStringLiteral("--no-automation"),
            QStringLiteral("--cloud"), cloud.name, QStringLiteral("--format"), QStringLiteral("json") });
    // The simulated cloud answers from this event loop while the command line runs.
    if (!finished.wait(240000)) {
        p.kill();
        p.waitForFinished(5000);
        *failure = QStringLiteral("check --all did not finish");
        return {};
    }
    const QByteArray err = p.readAllStandardError();
    QJsonParseError error;
    const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput(), &error).object();
    if (error.error != QJsonParseError::NoError)
        *failure = QStringLiteral("check --all: %1 (exit %2): %3")
                       .arg(error.errorString())
                       .arg(p.exitCode())
                       .arg(QString::fromUtf8(err));
    return report;
}

void TestConsoleStory::oneStoryEverywhere_data()
{
    QTest::addColumn<int>("klusters");
    QTest::newRow("demo") << 0;
    QTest::newRow("region") << 300;
}

void TestConsoleStory::oneStoryEverywhere()
{
    QFETCH(int, klusters);
    Simulator sim;
    QString error;
    CloudConfig cloud;
    if (klusters == 0) {
        QVERIFY(Scenario::load(Scenario::defaultScenario(), sim.world(), sim.faults(), &error));
    } else {
        // A region of many klusters of the sizes a real one has, its faults in some of them only.
        Scenario::RegionShape shape;
        shape.klusters = klusters;
        shape.nodes = 3;
        shape.mixedSizes = true;
        Scenario::generateRegion(sim.world(), shape);
    }
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    cloud = klusters == 0 ? simCloud(sim) : scaleCloud(sim, QStringLiteral("sim"));

    MainWindow window;
    ConnectionSpec spec;
    spec.name = cloud.name;
    spec.config = cloud;
    spec.options.automation = false; // the simulated cloud runs no Kubernikus controller
    window.addConnection(spec, false);
    window.show();
    // A region's 300 klusters take a minute and more to load under the sanitizers on two cores.
    QVERIFY(ConsoleTest::waitSettled(window, klusters == 0 ? 60000 : 240000));

    // The list: its order, each kluster's counts (causes) and worst cause.
    struct Shown
    {
        QString key;
        int critical = 0;
        int warning = 0;
        QString reason;
    };
    QList<Shown> list;
    for (const QModelIndex &row : ConsoleTest::sidebarRows(window.sidebar())) {
        list.append(
            { row.data(KlustersModel::KeyRole).toString(), row.data(KlustersModel::CriticalCountRole).toInt(),
                row.data(KlustersModel::WarningCountRole).toInt(),
                row.data(KlustersModel::ReasonRole).toString() });
        // The column the list sorts by shows that reason (after what the data is worth: "stale · …").
        QVERIFY(
            row.siblingAtColumn(KlustersModel::WorstColumn).data().toString().endsWith(list.last().reason));
    }
    QCOMPARE(list.size(), klusters == 0 ? 7 : klusters); // the demo world's seven, retired (gone) among them
    // The column the list is sorted by names the worst cause: the header says what it sorts by.
    const QHeaderView *header = window.sidebar()->header();
    QCOMPARE(header->sortIndicatorSection(), int(KlustersModel::WorstColumn));
    QCOMPARE(window.sidebar()->model()->headerData(KlustersModel::WorstColumn, Qt::Horizontal).toString(),
        QStringLiteral("Worst cause"));
    QVERIFY(!window.sidebar()->isColumnHidden(KlustersModel::WorstColumn));
    // In the one ranking: each row's sort key (KlusterRanking::sortKey) after the one above it.
    const QList<QModelIndex> rows = ConsoleTest::sidebarRows(window.sidebar());
    for (qsizetype i = 1; i < rows.size(); ++i)
        QVERIFY2(rows.at(i - 1).data(KlustersModel::RankRole).toString()
                < rows.at(i).data(KlustersModel::RankRole).toString(),
            qPrintable(list.at(i).key));
    // Worst first: no kluster below one that ranks after it.
    int trouble = 0;
    for (qsizetype i = 0; i < list.size(); ++i)
        trouble += list.at(i).critical + list.at(i).warning > 0 ? 1 : 0;
    QVERIFY2(trouble > 0, "the world has klusters in trouble");
    for (qsizetype i = 0; i < trouble; ++i)
        QVERIFY2(list.at(i).critical + list.at(i).warning > 0, qPrintable(list.at(i).key));

    // The Fleet: the same order, the same counts and cause on each tile.
    window.setTab(Tab::Fleet);
    auto *fleet = window.findChild<FleetView *>();
    QVERIFY(fleet);
    fleet->settle();
    QCOMPARE(fleet->tileCount(), int(list.size()));
    for (int i = 0; i < fleet->tileCount(); ++i) {
        const FleetTile *tile = fleet->tile(i);
        QCOMPARE(tile->key.toString(), list.at(i).key);
        QCOMPARE(tile->reason, list.at(i).reason);
        if (list.at(i).critical + list.at(i).warning > 0) {
            QVERIFY2(tile->causes
                    && tile->counts.endsWith(QStringLiteral("%1 critical · %2 warning")
                                                 .arg(list.at(i).critical)
                                                 .arg(list.at(i).warning)),
                qPrintable(tile->counts));
        }
    }

    // The command line: the same order, counts and cause.
    QString failure;
    const QJsonObject report = checkAll(cloud, &failure);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const QJsonArray ranked = report.value(QLatin1String("klusters")).toArray();
    QCOMPARE(ranked.size(), list.size());
    for (qsizetype i = 0; i < ranked.size(); ++i) {
        const QJsonObject row = ranked.at(i).toObject();
        const QJsonObject standing = row.value(QLatin1String("standing")).toObject();
        const QString key = row.value(QLatin1String("cloud")).toString() + QLatin1Char('/')
            + row.value(QLatin1String("kluster")).toString();
        QCOMPARE(key, list.at(i).key);
        QCOMPARE(row.value(QLatin1String("rank")).toInt(), int(i) + 1);
        QCOMPARE(standing.value(QLatin1String("critical")).toInt(), list.at(i).critical);
        QCOMPARE(standing.value(QLatin1String("warning")).toInt(), list.at(i).warning);
        QCOMPARE(standing.value(QLatin1String("reason")).toString(), list.at(i).reason);
    }

    // The Overview and the Markdown of the worst klusters (every one of the demo's): the same counts, in the
    // same words.
    for (qsizetype i = 0; i < qMin<qsizetype>(list.size(), 7); ++i) {
        const KlusterKey key = KlusterKey::fromString(list.at(i).key);
        QVERIFY(select(window, key));
        const KlusterData *data = window.kluster(key);
        QVERIFY(data && data->diagnosis);
        const KlusterStanding standing = KlusterStanding::of(*data->diagnosis);
        QCOMPARE(standing.critical, list.at(i).critical);
        QCOMPARE(standing.warning, list.at(i).warning);
        const QString title = window.overviewPage()->title();
        if (standing.worst) {
            QVERIFY2(title.contains(standing.text()) && title.contains(list.at(i).reason), qPrintable(title));
        }
        window.copyMarkdownCommand()->update();
        const QString markdown = window.copyMarkdownCommand()->markdown();
        if (standing.worst)
            QVERIFY2(
                markdown.contains(QStringLiteral("**%1**; worst: %2").arg(standing.text(), standing.reason)),
                qPrintable(markdown.left(600)));
    }
}

void TestConsoleStory::faultMatrix_data()
{
    QTest::addColumn<int>("source");
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("path");
    QTest::newRow("servers") << int(Source::Servers) << QStringLiteral("compute")
                             << QStringLiteral("^/v2.1/servers");
    QTest::newRow("router") << int(Source::Router) << QStringLiteral("network")
                            << QStringLiteral("^/v2.0/routers");
    QTest::newRow("security groups") << int(Source::SecurityGroups) << QStringLiteral("network")
                                     << QStringLiteral("^/v2.0/security-groups");
    QTest::newRow("nodes") << int(Source::Nodes) << QStringLiteral("kubernetes")
                           << QStringLiteral("^/api/v1/nodes");
    QTest::newRow("ports") << int(Source::Ports) << QStringLiteral("network")
                           << QStringLiteral("^/v2.0/ports");
}

void TestConsoleStory::faultMatrix()
{
    QFETCH(int, source);
    QFETCH(QString, service);
    QFETCH(QString, path);
    const Source failed = Source(source);
    Simulator sim;
    QString error;
    QVERIFY(Scenario::load(Scenario::defaultScenario(), sim.world(), sim.faults(), &error));
    QVERIFY2(sim.start(Simulator::Ports(), &error), qPrintable(error));
    FaultRule rule = ConsoleTest::fault(service, FaultRule::Kind::Status, 500);
    rule.path = QRegularExpression(path);
    sim.faults().add(rule);
    const CloudConfig cloud = simCloud(sim);

    // The kinds that judge from the failed source: none of them may be reported anywhere.
    QStringList needing;
    for (int k = 0; k < FindingKindCount; ++k) {
        if (findingTraits(FindingKind(k)).needs & sourceBit(failed))
            needing << QString(findingTraits(FindingKind(k)).name);
    }
    QVERIFY(!needing.isEmpty());

    MainWindow window;
    ConnectionSpec spec;
    spec.name = cloud.name;
    spec.config = cloud;
    spec.options.automation = false; // the simulated cloud runs no Kubernikus controller
    QVERIFY(ConsoleTest::open(window, spec));
    QHash<QString, QStringList> console; // by kluster: the finding ids the console reports
    // Klusters that lost another source too: a service whose every answer to one path fails is given a rest
    // after five (services/http/endpointhealth.h), and what a kluster asks of it meanwhile is not sent. Which
    // klusters meet that rest depends on the order their requests go out, so they are not compared.
    QSet<QString> restedToo;
    for (const QModelIndex &row : ConsoleTest::sidebarRows(window.sidebar())) {
        const KlusterKey key = KlusterKey::fromString(row.data(KlustersModel::KeyRole).toString());
        const KlusterData *data = window.kluster(key);
        QVERIFY2(data && data->diagnosis && data->fetch, qPrintable(key.toString()));
        // The source is unknown and said so.
        QVERIFY2(!Knowledge(data->fetch->state).known(failed), qPrintable(key.toString()));
        for (const Source other : Sources::required()) {
            if (other != failed && !Knowledge(data->fetch->state).known(other))
                restedToo.insert(key.kluster);
        }
        QStringList ids;
        for (const Finding &f : data->diagnosis->findings) {
            QVERIFY2(!needing.contains(QString(findingTraits(f.kind).name)), qPrintable(f.id()));
            ids << f.id();
        }
        ids.sort();
        console.insert(key.kluster, ids);
    }
    QCOMPARE(console.size(), 7); // the demo world's klusters, retired (gone) among them

    QString failure;
    const QJsonObject report = checkAll(cloud, &failure);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const QJsonArray rows = report.value(QLatin1String("klusters")).toArray();
    QCOMPARE(rows.size(), 7); // the demo world's klusters, retired (gone) among them
    int compared = 0;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        const QString kluster = row.value(QLatin1String("kluster")).toString();
        QStringList ids;
        for (const QJsonValue &f :
            row.value(QLatin1String("report")).toObject().value(QLatin1String("findings")).toArray()) {
            QVERIFY2(!needing.contains(f.toObject().value(QLatin1String("kind")).toString()),
                qPrintable(f.toObject().value(QLatin1String("id")).toString()));
            ids << f.toObject().value(QLatin1String("id")).toString();
        }
        ids.sort();
        if (restedToo.contains(kluster)
            || row.value(QLatin1String("error")).toString().contains(QLatin1String("not sent:")))
            continue;
        ++compared;
        // The console and the command line report the same findings.
        QVERIFY2(ids == console.value(kluster),
            qPrintable(kluster + QStringLiteral(": the command line ") + ids.join(QLatin1Char(' '))
                + QStringLiteral("; the console ") + console.value(kluster).join(QLatin1Char(' '))));
    }
    QVERIFY2(compared >= 1, "no kluster was read alike by both: nothing compared");
}

QTEST_MAIN(TestConsoleStory)
#include "tst_console_story.moc"
