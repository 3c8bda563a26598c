#include "app/gui/consoleapp.h"

#include "app/gui/democloud.h"
#include "console/consolesession.h"
#include "views/mainwindow.h"

#include <QTextStream>

ConsoleApp::ConsoleApp(const Demo &demo, QObject *parent)
    : QObject(parent)
    , m_session(new ConsoleSession(this))
    , m_window(std::make_unique<MainWindow>(m_session))
    , m_demo(demo)
{
    connect(m_window.get(), &MainWindow::demoRequested, this, &ConsoleApp::startDemo);
}

ConsoleApp::~ConsoleApp() = default;

void ConsoleApp::takeLinks()
{
    QString why;
    // Another console is starting, or the socket's place is not this user's alone (or holds something
    // else): this one takes no links, and says why unless it is the first.
    if (!m_instance.listen(
            [this](const QString &received) {
                QString error;
                return m_window->openLink(received, &error) ? QString() : error;
            },
            &why)
        && !why.contains(QStringLiteral("another console")))
        QTextStream(stderr) << "flightdeck: links are not taken: " << why << Qt::endl;
    connect(&m_instance, &SingleInstance::problem, this, [](const QString &problem) {
        QTextStream(stderr) << "flightdeck: links are not taken: " << problem << Qt::endl;
    });
}

void ConsoleApp::startDemo()
{
    if (m_demoCloud)
        return;
    m_demoCloud = std::make_unique<DemoCloud>();
    connect(m_demoCloud.get(), &DemoCloud::ready, this, [this](const CloudConfig &cloud) {
        ConnectionSpec spec;
        spec.name = QStringLiteral("demo");
        spec.config = cloud;
        spec.alertmanager = m_demo.alertmanager;
        spec.options.activeDevices = m_demoCloud->activeDevices();
        if (m_demoCloud->routeLimit() > 0) {
            spec.options.routeLimit = m_demoCloud->routeLimit();
            spec.options.routeLimitExplicit = true;
        }
        m_window->addConnection(spec, false);
    });
    connect(m_demoCloud.get(), &DemoCloud::failed, this, [this](const QString &error) {
        m_window->showStartupMessage(tr("The demo cloud could not start: %1").arg(error));
    });
    m_window->setStarting(m_demo.klusters > 0
            ? tr("Starting the built-in simulated cloud: a region of %1 klusters (this takes a moment)…")
                  .arg(m_demo.klusters)
            : tr("Starting the built-in simulated cloud…"));
    m_demoCloud->start(m_demo.scenario, m_demo.generatedNodes, m_demo.klusters, m_demo.mixedSizes);
}
