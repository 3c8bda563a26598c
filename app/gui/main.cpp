// flightdeck: the desktop console.

#include "connection.h"
#include "democloud.h"
#include "findingspage.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>
#include <QDialog>
#include <QPainter>
#include <QPixmap>
#include <QTimer>

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "flightdeck: " << message << Qt::endl;
    return 2;
}

const QStringList ViewNames{QStringLiteral("overview"), QStringLiteral("findings"), QStringLiteral("nodes"),
                            QStringLiteral("routes"), QStringLiteral("security"), QStringLiteral("audit")};

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("flightdeck"));
    QApplication::setApplicationName(QStringLiteral("flightdeck"));
    QApplication::setApplicationDisplayName(QStringLiteral("Flightdeck"));
    QApplication::setApplicationVersion(QStringLiteral(FLIGHTDECK_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The operations console for Kubernikus klusters: every kluster's health at a glance, the visual route audit,\n"
        "and guided, verified, audited repairs.\n\n"
        "Without options it opens the connections you added before (and offers the clouds of clouds.yaml and the\n"
        "OS_* variables when there are none)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Start the built-in simulated cloud (its demo world) and open the console on it."));
    const QCommandLineOption scenario(QStringLiteral("scenario"), QStringLiteral("With --demo: load the simulated world from this scenario file."), QStringLiteral("file"));
    const QCommandLineOption nodes(QStringLiteral("nodes"), QStringLiteral("With --demo: a generated world of <n> nodes instead of the demo world."), QStringLiteral("n"));
    const QCommandLineOption snapshot(QStringLiteral("snapshot"), QStringLiteral("Open a snapshot folder (or a folder of them) offline and read-only."), QStringLiteral("dir"));
    const QCommandLineOption readOnly(QStringLiteral("read-only"), QStringLiteral("Hide every repair, on every connection of this run."));
    const QCommandLineOption kluster(QStringLiteral("kluster"), QStringLiteral("Select this kluster first."), QStringLiteral("name"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("Show this view first: %1.").arg(ViewNames.join(QStringLiteral(", "))), QStringLiteral("name"));
    const QCommandLineOption finding(QStringLiteral("finding"), QStringLiteral("Select this finding (<kind>:<subject>) and its rows in every view."), QStringLiteral("id"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render the main window to <file> (PNG) after the first refresh, and quit."), QStringLiteral("file"));
    parser.addOptions({demo, scenario, nodes, snapshot, readOnly, kluster, view, finding, screenshot});
    parser.process(app);

    int viewIndex = -1;
    if (parser.isSet(view)) {
        viewIndex = int(ViewNames.indexOf(parser.value(view)));
        if (viewIndex < 0)
            return fail(QStringLiteral("--view: \"%1\" is none of %2").arg(parser.value(view), ViewNames.join(QStringLiteral(", "))));
    }
    int generated = 0;
    if (parser.isSet(nodes)) {
        bool ok = false;
        generated = parser.value(nodes).toInt(&ok);
        if (!ok || generated <= 0 || generated > 60000)
            return fail(QStringLiteral("--nodes: \"%1\" is not a count from 1 to 60000").arg(parser.value(nodes)));
    }
    if (parser.isSet(snapshot) && !QFileInfo(parser.value(snapshot)).isDir())
        return fail(QStringLiteral("--snapshot: %1 is not a folder").arg(parser.value(snapshot)));

    MainWindow window;
    window.setForceReadOnly(parser.isSet(readOnly));
    if (parser.isSet(screenshot))
        window.resize(1440, 900);
    const QString wantedKluster = parser.value(kluster);
    const auto selectWanted = [&] {
        if (wantedKluster.isEmpty())
            return;
        for (Connection *c : window.connections())
            window.selectKluster(c->name() + QLatin1Char('/') + wantedKluster);
    };

    DemoCloud demoCloud;
    if (parser.isSet(demo)) {
        QObject::connect(&demoCloud, &DemoCloud::ready, &window, [&](const CloudConfig &cloud) {
            ConnectionSpec spec;
            spec.name = QStringLiteral("demo");
            spec.config = cloud;
            window.addConnection(spec, false);
        });
        QObject::connect(&demoCloud, &DemoCloud::failed, &window, [&](const QString &error) { window.showStartupMessage(error); });
        demoCloud.start(parser.value(scenario), generated);
    } else if (parser.isSet(snapshot)) {
        ConnectionSpec spec;
        spec.name = QStringLiteral("snapshot");
        spec.snapshotPath = QDir(parser.value(snapshot)).absolutePath();
        spec.readOnly = true;
        window.addConnection(spec, false);
    } else {
        window.restoreConnections();
        if (window.connections().isEmpty()) {
            window.showStartupMessage(QObject::tr("No connection yet. Add one with File → Add connection… (Ctrl+Shift+N): the clouds "
                                                  "of clouds.yaml and OS_* are offered. Or start `flightdeck --demo` to try the "
                                                  "built-in simulated cloud."));
            QTimer::singleShot(0, &window, [&window] { window.addConnectionInteractively(); });
            if (parser.isSet(screenshot)) {  // nothing to refresh: render the first screen
                QTimer::singleShot(500, &window, [&] {
                    QPixmap shot = window.grab();
                    if (QWidget *dialog = QApplication::activeModalWidget() ? QApplication::activeModalWidget() : window.findChild<QDialog *>()) {
                        QPainter painter(&shot);
                        painter.drawPixmap((shot.width() - dialog->width()) / 2, (shot.height() - dialog->height()) / 2, dialog->grab());
                    }
                    QApplication::exit(shot.save(parser.value(screenshot)) ? 0 : 2);
                });
            }
        }
    }

    bool first = true;
    QObject::connect(&window, &MainWindow::refreshesSettled, &window, [&] {
        if (!first)
            return;
        first = false;
        selectWanted();
        if (viewIndex >= 0)
            window.setTab(MainWindow::Tab(viewIndex));
        if (parser.isSet(finding))
            window.findingsPage()->selectId(parser.value(finding));
        if (!parser.isSet(screenshot))
            return;
        QTimer::singleShot(300, &window, [&] {
            const bool ok = window.grab().save(parser.value(screenshot));
            if (!ok)
                fail(QStringLiteral("could not write %1").arg(parser.value(screenshot)));
            QApplication::exit(ok ? 0 : 2);
        });
    });
    if (parser.isSet(screenshot)) {
        QTimer::singleShot(120000, &window, [&] {
            fail(QStringLiteral("no refresh came back within 120 s; rendering what there is"));
            window.grab().save(parser.value(screenshot));
            QApplication::exit(1);
        });
    }
    window.show();
    return QApplication::exec();
}
