// flightdeck: the desktop console.

#include "app/gui/consoleapp.h"
#include "console/consolesession.h"
#include "console/exportedreports.h"
#include "core/flightdecklink.h"
#include "core/printable.h"
#include "services/connection.h"
#include "services/local/hardening.h"
#include "services/local/singleinstance.h"
#include "views/findingspage.h"
#include "views/mainwindow.h"
#include "views/tabs.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QTextStream>
#include <QTimer>
#include <functional>
#include <memory>

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "flightdeck: " << message << Qt::endl;
    return 2;
}

void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("flightdeck"));
    QCoreApplication::setApplicationName(QStringLiteral("flightdeck"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FLIGHTDECK_VERSION));
}

struct Options
{
    QCommandLineOption demo { QStringLiteral("demo"),
        QStringLiteral("Start the built-in simulated cloud (its demo world) and open the console on it.") };
    QCommandLineOption scenario { QStringLiteral("scenario"),
        QStringLiteral("With --demo: load the simulated world from this scenario file."),
        QStringLiteral("file") };
    QCommandLineOption nodes { QStringLiteral("nodes"),
        QStringLiteral("With --demo: a generated world of <n> nodes instead of the demo world."),
        QStringLiteral("n") };
    QCommandLineOption klusters { QStringLiteral("klusters"),
        QStringLiteral(
            "With --demo: a generated region of <n> klusters, of the sizes a real region has (most "
            "3–30 nodes, a few hundreds) and faults in some; with --nodes, of that many nodes each."),
        QStringLiteral("n") };
    QCommandLineOption snapshot { QStringLiteral("snapshot"),
        QStringLiteral("Open a snapshot folder (or a folder of them) offline and read-only."),
        QStringLiteral("dir") };
    QCommandLineOption readOnly { QStringLiteral("read-only"),
        QStringLiteral("Hide every repair, on every connection of this run.") };
    QCommandLineOption kluster { QStringLiteral("kluster"), QStringLiteral("Select this kluster first."),
        QStringLiteral("name") };
    QCommandLineOption view { QStringLiteral("view"),
        QStringLiteral("Show this view first: %1.").arg(Tabs::names().join(QStringLiteral(", "))),
        QStringLiteral("name") };
    QCommandLineOption finding { QStringLiteral("finding"),
        QStringLiteral("Select this finding (<kind>:<subject>) and its rows in every view."),
        QStringLiteral("id") };
    QCommandLineOption screenshot { QStringLiteral("screenshot"),
        QStringLiteral("Render the main window to <file> (PNG) after the first refresh, and quit."),
        QStringLiteral("file") };
    QCommandLineOption alertmanager { QStringLiteral("alertmanager"),
        QStringLiteral(
            "With --demo: show the alerts of this Alertmanager (no authentication) beside the demo's "
            "findings; other connections name theirs in File → Connections…."),
        QStringLiteral("url") };
    QCommandLineOption prometheus { QStringLiteral("prometheus"),
        QStringLiteral(
            "Open the fleet the team's Prometheus holds from the flightdeck-cli serve exporters it "
            "scrapes (no authentication; read-only), for this run; connections with a password or "
            "token are added in File → Connections…."),
        QStringLiteral("url") };
    QCommandLineOption size { QStringLiteral("window-size"),
        QStringLiteral("The window's size, e.g. 1024x640 (with --screenshot: the picture's)."),
        QStringLiteral("WxH") };

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            QStringLiteral("The operations console for Kubernikus klusters: every kluster's health at a "
                           "glance, the visual route audit,\n"
                           "and guided, verified, audited repairs.\n\n"
                           "Without options it opens the connections you added before (File → Connections…), "
                           "and offers the clouds\n"
                           "of clouds.yaml and the OS_* variables when there are none. F1 in the window "
                           "lists every shortcut."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({ demo, scenario, nodes, klusters, snapshot, readOnly, kluster, view, finding,
            screenshot, alertmanager, prometheus, size });
        parser.addPositionalArgument(QStringLiteral("link"),
            QStringLiteral("A flightdeck://<cloud>/<kluster>[/<finding or incident id>] link: opened in the "
                           "console already running (handed over), else in this one."),
            QStringLiteral("[link]"));
    }
};

// --help and --version answer without a display (over SSH, in a terminal with no desktop).
bool wantsOnlyText(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--help" || a == "-h" || a == "--help-all" || a == "-?" || a == "--version" || a == "-v")
            return true;
        if (a == "--")
            break;
    }
    return false;
}

// The link given (at most one, well-formed), or nullopt having said why (`status` 2); empty when none.
std::optional<QString> linkOf(const QCommandLineParser &parser, int *status)
{
    const QStringList args = parser.positionalArguments();
    if (args.isEmpty())
        return QString();
    if (args.size() > 1) {
        *status = fail(QStringLiteral("one link at a time (%1 were given)").arg(args.size()));
        return std::nullopt;
    }
    QString why;
    if (!FlightdeckLink::parse(args.first(), &why)) {
        *status = fail(QStringLiteral("%1: %2").arg(printable(args.first().left(200)), why));
        return std::nullopt;
    }
    return args.first().trimmed();
}

// Hands `link` to the console running: its exit status when it was opened there or refused, nullopt when
// no console answers (then it is opened here, if this process can).
std::optional<int> handOver(const QString &link)
{
    QString why;
    switch (SingleInstance::handOver(link, 3000, &why)) {
    case SingleInstance::HandOver::Opened:
        QTextStream(stdout) << "flightdeck: opened in the console running: " << link << Qt::endl;
        return 0;
    case SingleInstance::HandOver::Refused:
        return fail(QStringLiteral("the console running could not open %1: %2").arg(link, printable(why)));
    case SingleInstance::HandOver::NoConsole:
        break;
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    Hardening::noCoreDumps(); // before anything holds a secret
    Hardening::moreOpenFiles(); // a fleet: a socket per kluster API and node watch
    describeApplication();
    const Options options;
    if (wantsOnlyText(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCommandLineParser parser;
        options.addTo(parser);
        parser.process(core); // prints and exits
        return 0;
    }

    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        // A link needs no display of this process's own: the console running opens it (from a terminal, a
        // browser's handler, a session without $DISPLAY).
        QCoreApplication core(argc, argv);
        QCommandLineParser parser;
        options.addTo(parser);
        if (parser.parse(QCoreApplication::arguments()) && !parser.isSet(options.demo)
            && !parser.isSet(options.snapshot) && !parser.isSet(options.screenshot)) {
            int status = 0;
            const std::optional<QString> link = linkOf(parser, &status);
            if (!link)
                return status;
            if (!link->isEmpty()) {
                if (const std::optional<int> handed = handOver(*link))
                    return *handed;
                return fail(QStringLiteral("no console runs to open %1, and this one has no display: neither "
                                           "DISPLAY nor WAYLAND_DISPLAY is set")
                                .arg(*link));
            }
        }
        // Say so, rather than let the platform plugin abort.
        return fail(QStringLiteral(
            "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. Run it in a desktop session; "
            "without one, `QT_QPA_PLATFORM=offscreen flightdeck --demo --screenshot FILE` renders the "
            "console to a picture, and `flightdeck-cli check` diagnoses on the command line."));
    }
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("Flightdeck"));
    QGuiApplication::setDesktopFileName(QStringLiteral("flightdeck"));
    QApplication::setWindowIcon(MainWindow::applicationIcon());

    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);

    std::optional<Tab> view;
    if (parser.isSet(options.view)) {
        view = Tabs::fromName(parser.value(options.view));
        if (!view)
            return fail(QStringLiteral("--view: \"%1\" is none of %2")
                            .arg(parser.value(options.view), Tabs::names().join(QStringLiteral(", "))));
    }
    int generated = 0;
    if (parser.isSet(options.nodes)) {
        bool ok = false;
        generated = parser.value(options.nodes).toInt(&ok);
        if (!ok || generated <= 0 || generated > 60000)
            return fail(QStringLiteral("--nodes: \"%1\" is not a count from 1 to 60000")
                            .arg(parser.value(options.nodes)));
    }
    int fleet = 0;
    bool mixedSizes = false;
    if (parser.isSet(options.klusters)) {
        bool ok = false;
        fleet = parser.value(options.klusters).toInt(&ok);
        if (!ok || fleet <= 0 || fleet > 1000)
            return fail(QStringLiteral("--klusters: \"%1\" is not a count from 1 to 1000")
                            .arg(parser.value(options.klusters)));
        mixedSizes = generated == 0;
        if (generated == 0)
            generated = 20;
        if (generated > 240)
            return fail(QStringLiteral("--nodes: at most 240 per kluster of a fleet"));
    }
    QSize size;
    if (parser.isSet(options.size)) {
        const QStringList wh = parser.value(options.size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh.at(0).toInt(&okW), wh.at(1).toInt(&okH));
        if (!okW || !okH || size.width() < 320 || size.height() < 240)
            return fail(QStringLiteral("--window-size: \"%1\" is not WIDTHxHEIGHT (at least 320x240)")
                            .arg(parser.value(options.size)));
    }
    AlertmanagerTarget alertmanager;
    if (parser.isSet(options.alertmanager)) {
        QString why;
        const std::optional<QUrl> url = AlertmanagerTarget::readUrl(parser.value(options.alertmanager), &why);
        if (!url)
            return fail(QStringLiteral("--alertmanager: ") + why);
        alertmanager.url = *url;
    }
    if (parser.isSet(options.snapshot) && !QFileInfo(parser.value(options.snapshot)).isDir())
        return fail(QStringLiteral("--snapshot: %1 is not a folder").arg(parser.value(options.snapshot)));

    // A link: checked first (a malformed one is one clear error), then handed to the console running, if any.
    int status = 0;
    const std::optional<QString> given = linkOf(parser, &status);
    if (!given)
        return status;
    const QString &link = *given;
    const bool ownWorld
        = parser.isSet(options.demo) || parser.isSet(options.snapshot) || parser.isSet(options.screenshot);
    if (!link.isEmpty() && !ownWorld) {
        if (const std::optional<int> handed = handOver(link))
            return *handed;
    }

    ConsoleApp::Demo demo;
    demo.scenario = parser.value(options.scenario);
    demo.generatedNodes = generated;
    demo.klusters = fleet;
    demo.mixedSizes = mixedSizes;
    demo.alertmanager = alertmanager;
    ConsoleApp console(demo);
    MainWindow &window = *console.window();
    window.setForceReadOnly(parser.isSet(options.readOnly));
    // One console per user: links opened later (`flightdeck LINK`, a browser, a notification) come here.
    if (!parser.isSet(options.screenshot)) // a picture to render takes no links
        console.takeLinks();
    if (parser.isSet(options.screenshot) || size.isValid())
        window.resize(size.isValid() ? size : QSize(1440, 900));
    const QString wantedKluster = parser.value(options.kluster);
    const QString wantedFinding = parser.value(options.finding);

    if (parser.isSet(options.demo)) {
        console.startDemo();
    } else if (parser.isSet(options.prometheus)) {
        QString why;
        const std::optional<QUrl> url = PrometheusTarget::readUrl(parser.value(options.prometheus), &why);
        if (!url)
            return fail(QStringLiteral("--prometheus: ") + why);
        ConnectionSpec spec;
        spec.name = QStringLiteral("prometheus");
        spec.prometheus.url = *url;
        spec.readOnly = true;
        window.addConnection(spec, false);
    } else if (parser.isSet(options.snapshot)) {
        ConnectionSpec spec;
        spec.name = QStringLiteral("snapshot");
        spec.snapshotPath = QDir(parser.value(options.snapshot)).absolutePath();
        spec.readOnly = true;
        window.addConnection(spec, false);
    } else {
        window.startFromSettings(true);
        if (window.connections().isEmpty()) {
            if (parser.isSet(options.screenshot)) { // nothing to refresh: render the first screen
                QTimer::singleShot(500, &window, [&] {
                    QPixmap shot = window.grab();
                    if (QWidget *dialog = window.findChild<QDialog *>()) {
                        QPainter painter(&shot);
                        painter.drawPixmap((shot.width() - dialog->width()) / 2,
                            (shot.height() - dialog->height()) / 2, dialog->grab());
                    }
                    QApplication::exit(shot.save(parser.value(options.screenshot)) ? 0 : 2);
                });
            }
        }
    }

    bool first = true;
    QObject::connect(&window, &MainWindow::refreshesSettled, &window, [&] {
        if (!first)
            return;
        first = false;
        const KlusterKey before = window.currentKey(); // shown now
        KlusterKey key;
        for (Connection *c : window.connections()) {
            if (!wantedKluster.isEmpty() && window.selectKluster({ c->name(), wantedKluster }))
                key = { c->name(), wantedKluster };
        }
        if (view)
            window.setTab(*view);
        if (!wantedFinding.isEmpty())
            window.showFinding(key.isNull() ? window.currentKey() : key, wantedFinding);
        if (!link.isEmpty()) {
            QString why;
            if (window.openLink(link, &why))
                key = window.currentKey() == before ? KlusterKey() : window.currentKey();
            else
                fail(QStringLiteral("%1: %2").arg(printable(link), why));
        }
        if (!parser.isSet(options.screenshot))
            return;
        // Rendered once the views show the kluster asked for (and its finding selected).
        // A Prometheus kluster's report from its exporter is read once it is shown: its answer awaited.
        static std::function<void()> shoot;
        shoot = [&] {
            const ExportedReports::Entry *report
                = window.session()->exportedReports()->entry(window.currentKey());
            if (report && report->pending) {
                QTimer::singleShot(100, &window, [] { shoot(); });
                return;
            }
            const bool ok = window.grab().save(parser.value(options.screenshot));
            if (!ok)
                fail(QStringLiteral("could not write %1").arg(parser.value(options.screenshot)));
            QApplication::exit(ok ? 0 : 2);
        };
        const auto render = [&] { QTimer::singleShot(300, &window, [] { shoot(); }); };
        // Shown already (a kluster without rows to make is shown at once).
        if (key.isNull() || key == before
            || (window.currentKey() == key && window.session()->isCurrentShown())) {
            render();
            return;
        }
        QObject::connect(&window, &MainWindow::viewsShown, &window, [key, render](const KlusterKey &shown) {
            if (shown == key)
                render();
        });
    });
    if (parser.isSet(options.screenshot)) {
        QTimer::singleShot(120000, &window, [&] {
            fail(QStringLiteral("no refresh came back within 120 s; rendering what there is"));
            window.grab().save(parser.value(options.screenshot));
            QApplication::exit(1);
        });
    }
    window.show();
    return QApplication::exec();
}
