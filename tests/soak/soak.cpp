// The soak: the console against the simulated cloud (its own process, as a
// real cloud is) for a long while, refreshing every few seconds, with random
// faults switched on and off, repairs sent meanwhile, and the world broken
// again every minute. Samples the console's resident memory and open file
// descriptors, and checks as it goes that no repair goes unrecorded and no
// failure goes unshown.
//
//   QT_QPA_PLATFORM=offscreen build/tests/soak/flightdeck-soak --seconds 600 --csv /tmp/soak.csv
//
// Exit status 0 when it held: no crash, every repair sent is in the audit log,
// every failed refresh was shown, and memory and descriptors have no upward
// trend over the second half of the run.

#include "core/repairgate.h"
#include "models/klustersmodel.h"
#include "services/http/endpointhealth.h"
#include "services/kubernetes/watchbudget.h"
#include "services/repair/auditlog.h"
#include "tests/common/processmemory.h"
#include "views/findingspage.h"
#include "views/mainwindow.h"
#include "views/messagebanner.h"
#include "views/repairdialog.h"
#include "views/tablepage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTextStream>
#include <QTimer>
#include <QTreeView>
#include <cmath>
#include <limits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

struct Sample
{
    double seconds;
    double rssMb;
    int fds;
    double anonMb = 0; // resident anonymous memory (the heaps, stacks, backing store)
    double fileMb = 0; // resident file-backed memory (libraries, fonts)
    double heapInUseMb = 0; // what malloc has handed out and not had back (all arenas, mmapped chunks)
    double heapHeldMb = 0; // what malloc holds from the system (all arenas, mmapped chunks)
};

Sample sampleNow(double seconds, int fds)
{
    Sample s { seconds, processMegabytes("VmRSS:"), fds };
    s.anonMb = processMegabytes("RssAnon:");
    s.fileMb = processMegabytes("RssFile:");
#if defined(__GLIBC__)
    const struct mallinfo2 info = mallinfo2();
    s.heapInUseMb = double(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
    s.heapHeldMb = double(info.arena + info.hblkhd) / (1024.0 * 1024.0);
#endif
    return s;
}

int openDescriptors()
{
    return int(QDir(QStringLiteral("/proc/self/fd"))
                   .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                   .size());
}

// The slope of a least-squares line through (x, y), per unit of x.
double slope(const QList<Sample> &samples, double Sample::*y)
{
    const double n = double(samples.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Sample &s : samples) {
        sx += s.seconds;
        sy += s.*y;
        sxx += s.seconds * s.seconds;
        sxy += s.seconds * (s.*y);
    }
    const double d = n * sxx - sx * sx;
    return d == 0 ? 0 : (n * sxy - sx * sy) / d;
}

double slopeFds(const QList<Sample> &samples)
{
    QList<Sample> copy = samples;
    for (Sample &s : copy)
        s.rssMb = s.fds;
    return slope(copy, &Sample::rssMb);
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
        QStringLiteral("How long (default 600)."), QStringLiteral("s"), QStringLiteral("600"));
    const QCommandLineOption csvOption(
        QStringLiteral("csv"), QStringLiteral("Write the samples to this CSV file."), QStringLiteral("file"));
    const QCommandLineOption refreshOption(QStringLiteral("refresh-ms"),
        QStringLiteral("The refresh interval (default 2000)."), QStringLiteral("ms"), QStringLiteral("2000"));
    const QCommandLineOption repairOption(QStringLiteral("repair-ms"),
        QStringLiteral("A repair every this often (default 10000; 0: none)."), QStringLiteral("ms"),
        QStringLiteral("10000"));
    const QCommandLineOption klustersOption(QStringLiteral("klusters"),
        QStringLiteral("A generated fleet of this many klusters of 20 nodes instead of the demo world."),
        QStringLiteral("n"));
    const QCommandLineOption faultOption(QStringLiteral("fault"),
        QStringLiteral("This fault (a rule of the simulator's admin API) on for the whole run, instead of "
                       "random ones switched on and off; no world resets."),
        QStringLiteral("json"));
    const QCommandLineOption faultAfterOption(QStringLiteral("fault-after"),
        QStringLiteral(
            "With --fault: switch it on after this many seconds (default 0); the requests are then "
            "counted from that moment."),
        QStringLiteral("s"), QStringLiteral("0"));
    const QCommandLineOption noBackoffOption(QStringLiteral("no-shared-backoff"),
        QStringLiteral("Every request sent, whatever its endpoint's health (as before the shared backoff): "
                       "to measure what it saves."));
    parser.addOptions({ secondsOption, csvOption, refreshOption, repairOption, klustersOption, faultOption,
        faultAfterOption, noBackoffOption });
    parser.process(app);
    const int duration = parser.value(secondsOption).toInt();
    QTextStream out(stdout);
    QFile::remove(AuditLog::path());

    // The cloud, in a process of its own.
    QProcess cloud;
    cloud.setProgram(QStringLiteral(FLIGHTDECK_SIM));
    const int fleet = parser.value(klustersOption).toInt();
    cloud.setArguments(fleet > 0
            ? QStringList { QStringLiteral("--klusters"), QString::number(fleet),
                QStringLiteral("--nodes-per-kluster"), QStringLiteral("20"), QStringLiteral("--json") }
            : QStringList { QStringLiteral("--json") });
    if (parser.isSet(noBackoffOption))
        EndpointHealth::shared().setPolicy({ std::numeric_limits<int>::max(), 0, 0 });
    cloud.start();
    if (!cloud.waitForReadyRead(60000)) {
        out << "soak: the simulated cloud did not start" << Qt::endl;
        return 2;
    }
    const QJsonObject endpoints = QJsonDocument::fromJson(cloud.readLine()).object();
    const QString admin = endpoints.value(QStringLiteral("admin")).toString();
    CloudConfig config;
    config.name = QStringLiteral("sim");
    config.authUrl = endpoints.value(QStringLiteral("authUrl")).toString();
    config.username = fleet > 0 ? QStringLiteral("scale") : QStringLiteral("demo");
    config.password = fleet > 0 ? QStringLiteral("scale-password") : QStringLiteral("flightdeck-demo");
    config.userDomainName = QStringLiteral("Default");
    config.projectName = fleet > 0 ? QStringLiteral("scale") : QStringLiteral("flightdeck-demo");
    config.projectDomainName = QStringLiteral("Default");
    ConnectionSpec spec;
    spec.name = QStringLiteral("sim");
    spec.config = config;
    spec.options.automation = false; // the simulated cloud runs no Kubernikus controller
    QNetworkAccessManager nam;
    const auto adminCall
        = [&](const QByteArray &method, const QString &path, const QByteArray &body = QByteArray()) {
              QNetworkRequest request { QUrl(admin + path) };
              request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
              QNetworkReply *reply = nam.sendCustomRequest(request, method, body);
              QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
          };
    adminCall("POST", QStringLiteral("/settings"),
        R"({"registrationDelaySeconds": 2, "replacementBootSeconds": 1})");

    MainWindow window;
    window.resize(1280, 800);
    Connection *connection = window.addConnection(spec, false);
    window.show();
    window.setAutoRefreshMilliseconds(parser.value(refreshOption).toInt());

    QList<Sample> samples;
    // A repair confirmed may send nothing (no token to be had during a fault, the gate refusing it):
    // what must be in the audit log is every repair that sent a request.
    int repairsConfirmed = 0, repairsSent = 0, repairsFixed = 0, faultsOn = 0, resets = 0, unshown = 0,
        refreshes = 0, failedRefreshes = 0;
    QStringList problems;
    QElapsedTimer clock;
    clock.start();
    QRandomGenerator random(20261122);

    QObject::connect(&window, &MainWindow::klusterUpdated, &window, [&](const KlusterKey &key) {
        ++refreshes;
        const KlusterData *d = window.kluster(key);
        if (!d || (!d->isStale() && d->incomplete.isEmpty()))
            return;
        ++failedRefreshes;
        // Every failure shown: in the banner, under its connection (unless the person dismissed it).
        QTimer::singleShot(0, &window, [&, key] {
            const KlusterData *now = window.kluster(key);
            if (now && (now->isStale() || !now->incomplete.isEmpty())
                && !window.bannerText().contains(QStringLiteral("sim:"))) {
                ++unshown;
                problems << QStringLiteral("%1 s: %2 failed but the banner says \"%3\"")
                                .arg(clock.elapsed() / 1000)
                                .arg(key.toString(), window.bannerText());
            }
        });
    });

    // Faults: one at a time, on for a few seconds.
    const QList<QByteArray> faults {
        R"({"id": "soak", "kind": "status", "status": 503, "retryAfter": "0", "service": "compute"})",
        R"({"id": "soak", "kind": "status", "status": 500, "service": "network"})",
        R"({"id": "soak", "kind": "status", "status": 429, "retryAfter": "0", "service": "kubernetes"})",
        R"({"id": "soak", "kind": "html", "service": "kubernikus"})",
        R"({"id": "soak", "kind": "malformed", "service": "compute"})",
        R"({"id": "soak", "kind": "truncated", "service": "network"})",
        R"({"id": "soak", "kind": "drop", "service": "kubernetes"})",
        R"({"id": "soak", "kind": "latency", "latencyMs": 1500})",
        R"({"id": "soak", "kind": "expire-tokens", "count": 1})"
    };
    QTimer faultTimer;
    bool faultOn = false;
    // What the cloud was sent so far, by service (the admin API's count).
    const auto worldRequests = [&] {
        QNetworkReply *reply = nam.get(QNetworkRequest { QUrl(admin + QStringLiteral("/world")) });
        QElapsedTimer waited;
        waited.start();
        while (!reply->isFinished() && waited.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const QJsonObject requests
            = QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("requests")).toObject();
        delete reply;
        return requests;
    };
    const bool fixedFault = parser.isSet(faultOption);
    QJsonObject requestsBefore; // at the moment the fixed fault came on
    qint64 heldBefore = 0;
    QTimer fixedFaultTimer;
    fixedFaultTimer.setSingleShot(true);
    QObject::connect(&fixedFaultTimer, &QTimer::timeout, &window, [&] {
        requestsBefore = worldRequests();
        heldBefore = EndpointHealth::shared().heldCount();
        adminCall("POST", QStringLiteral("/faults"), parser.value(faultOption).toUtf8());
        ++faultsOn;
    });
    if (fixedFault)
        fixedFaultTimer.start(parser.value(faultAfterOption).toInt() * 1000);
    QObject::connect(&faultTimer, &QTimer::timeout, &window, [&] {
        if (faultOn) {
            adminCall("DELETE", QStringLiteral("/faults/soak"));
        } else {
            adminCall("POST", QStringLiteral("/faults"), faults.at(int(random.bounded(int(faults.size())))));
            ++faultsOn;
        }
        faultOn = !faultOn;
    });
    if (!fixedFault)
        faultTimer.start(4000);

    // The world broken again every minute.
    QTimer resetTimer;
    QObject::connect(&resetTimer, &QTimer::timeout, &window, [&] {
        adminCall("POST", QStringLiteral("/reset"));
        ++resets;
    });
    if (!fixedFault)
        resetTimer.start(60000);

    // A repair every ten seconds: a finding with a repair in the kluster shown, through the dialog as a
    // person does it.
    QPointer<RepairDialog> dialog;
    QObject::connect(&window, &MainWindow::repairDialogOpened, &window,
        [&](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    QTimer repairTimer;
    QObject::connect(&repairTimer, &QTimer::timeout, &window, [&] {
        if (dialog)
            return; // the last one is still running
        const KlusterData *d = window.kluster(window.currentKey());
        if (!d || !d->diagnosis || d->isStale())
            return;
        QStringList candidates;
        for (const Finding &f : d->diagnosis->findings) {
            if (RepairGate::judge(f, f.repair(), d->diagnosis->budget).mayBeSent(false))
                candidates << f.id();
        }
        if (candidates.isEmpty()) {
            // Another kluster may have something to repair.
            const QAbstractItemModel *sidebar = window.sidebar()->model();
            const QModelIndex group = sidebar->index(int(random.bounded(qMax(1, sidebar->rowCount()))), 0);
            const QModelIndex row
                = sidebar->index(int(random.bounded(qMax(1, sidebar->rowCount(group)))), 0, group);
            window.selectKluster({ row.data(KlustersModel::ConnectionRole).toString(),
                row.data(KlustersModel::KlusterRole).toString() });
            return;
        }
        window.setTab(Tab::Findings);
        if (window.findingsPage()->selectKeys({ candidates.at(int(random.bounded(int(candidates.size())))) })
            == 0)
            return;
        window.repairAction()->trigger();
        if (!dialog)
            return;
        if (dialog->confirmationBox()->isVisible())
            dialog->confirmationBox()->setText(
                dialog->confirmationBox()->placeholderText().section(QLatin1Char(' '), 1));
        if (!dialog->confirmButton()->isEnabled()) {
            dialog->reject();
            return;
        }
        ++repairsConfirmed;
        QObject::connect(dialog.data(), &RepairDialog::repairsFinished, &window, [&](int fixed, int) {
            repairsFixed += fixed;
            QTimer::singleShot(500, dialog.data(), [&] {
                if (dialog)
                    dialog->reject();
            });
        });
        dialog->confirmButton()->click();
    });
    QObject::connect(connection, &Connection::repairStepFinished, &window,
        [&](const QString &, const RepairExecutor::Outcome &outcome) {
            if (!outcome.requests.isEmpty())
                ++repairsSent;
        });
    if (parser.value(repairOption).toInt() > 0)
        repairTimer.start(parser.value(repairOption).toInt());

    // Samples every five seconds.
    QTimer sampleTimer;
    QObject::connect(&sampleTimer, &QTimer::timeout, &window, [&] {
        samples << sampleNow(clock.elapsed() / 1000.0, openDescriptors());
        if (clock.elapsed() >= qint64(duration) * 1000)
            QApplication::exit(0);
    });
    sampleTimer.start(5000);
    QApplication::exec();
    faultTimer.stop();
    repairTimer.stop();
    resetTimer.stop();

    // Every repair that sent a request is in the audit log (a repair still running at the very end may
    // be there too).
    QString error;
    const QList<AuditRecord> records = AuditLog::read(&error);
    const qsizetype recorded = records.size();
    if (recorded < repairsSent)
        problems << QStringLiteral("%1 repairs sent, %2 recorded").arg(repairsSent).arg(recorded);
    // No upward trend over the second half (after warming up).
    const QList<Sample> second = samples.mid(samples.size() / 2);
    const double rssPerMinute = slope(second, &Sample::rssMb) * 60;
    const double heapPerMinute = slope(second, &Sample::heapInUseMb) * 60;
    const double fdsPerMinute = slopeFds(second) * 60;
    // A trend needs time to show: over less than four minutes, a few samples of a busy machine's noise
    // would read as growth. A short run judges the bounds instead (what a leak of every refresh would pass).
    const bool judgeTrend = second.size() >= 2 && second.last().seconds - second.first().seconds >= 240;
    if (judgeTrend && rssPerMinute > 1.0)
        problems << QStringLiteral("resident memory grows by %1 MB a minute").arg(rssPerMinute, 0, 'f', 2);
    if (judgeTrend && fdsPerMinute > 0.5)
        problems << QStringLiteral("open descriptors grow by %1 a minute").arg(fdsPerMinute, 0, 'f', 2);
    if (parser.isSet(csvOption)) {
        QFile csv(parser.value(csvOption));
        if (csv.open(QIODevice::WriteOnly)) {
            csv.write("seconds,rss_mb,fds,anon_mb,file_mb,heap_in_use_mb,heap_held_mb\n");
            for (const Sample &s : std::as_const(samples))
                csv.write(QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                              .arg(s.seconds, 0, 'f', 1)
                              .arg(s.rssMb, 0, 'f', 1)
                              .arg(s.fds)
                              .arg(s.anonMb, 0, 'f', 1)
                              .arg(s.fileMb, 0, 'f', 1)
                              .arg(s.heapInUseMb, 0, 'f', 2)
                              .arg(s.heapHeldMb, 0, 'f', 2)
                              .toUtf8());
        }
    }
    double minRss = 1e9, maxRss = 0;
    int minFds = 1 << 30, maxFds = 0;
    for (const Sample &s : std::as_const(second)) {
        minRss = qMin(minRss, s.rssMb);
        maxRss = qMax(maxRss, s.rssMb);
        minFds = qMin(minFds, s.fds);
        maxFds = qMax(maxFds, s.fds);
    }
    out << QStringLiteral(
        "soak: %1 s, %2 refreshes (%3 failed, %4 not shown), %5 faults switched on, %6 world resets, "
        "%7 repairs confirmed, %8 sent (%9 fixed, %10 recorded)\n")
               .arg(duration)
               .arg(refreshes)
               .arg(failedRefreshes)
               .arg(unshown)
               .arg(faultsOn)
               .arg(resets)
               .arg(repairsConfirmed)
               .arg(repairsSent)
               .arg(repairsFixed)
               .arg(recorded)
        << QStringLiteral("soak: second half: resident %1–%2 MB (trend %3 MB/min), descriptors %4–%5 (trend "
                          "%6/min), heap "
                          "in use trend %7 MB/min\n")
               .arg(minRss, 0, 'f', 1)
               .arg(maxRss, 0, 'f', 1)
               .arg(rssPerMinute, 0, 'f', 2)
               .arg(minFds)
               .arg(maxFds)
               .arg(fdsPerMinute, 0, 'f', 2)
               .arg(heapPerMinute, 0, 'f', 2);
    // A fleet holds a descriptor per node watch (within the watch bound) besides the demo's 200.
    const int fdBound = 200 + (fleet > 0 ? WatchBudget::shared().limit() : 0);
    if (maxFds > fdBound)
        problems << QStringLiteral("%1 open descriptors (at most %2)").arg(maxFds).arg(fdBound);
    if (maxRss > 1024)
        problems << QStringLiteral("%1 MB resident").arg(maxRss, 0, 'f', 1);
    if (!judgeTrend)
        out << "soak: too short to judge a trend (the second half must span four minutes); bounds judged "
               "instead\n";
    // What the cloud was sent, by service: how polite the console was (since the fixed fault came on).
    {
        const QJsonObject requests = worldRequests();
        out << (fixedFault ? "soak: requests the cloud was sent since the fault came on:"
                           : "soak: requests the cloud was sent:");
        for (auto it = requests.begin(); it != requests.end(); ++it)
            out << " " << it.key() << " "
                << it.value().toInteger() - requestsBefore.value(it.key()).toInteger();
        out << " (held by the shared backoff: " << EndpointHealth::shared().heldCount() - heldBefore << ")\n";
    }
    for (const QString &p : std::as_const(problems))
        out << "soak: PROBLEM: " << p << "\n";
    out.flush();
    cloud.kill();
    cloud.waitForFinished();
    return problems.isEmpty() && unshown == 0 ? 0 : 1;
}
