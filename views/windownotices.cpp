#include "views/windownotices.h"

#include "console/connectionregistry.h"
#include "console/consolesession.h"
#include "console/klusterstore.h"
#include "models/consolemodels.h"
#include "models/klustersmodel.h"
#include "services/connection.h"
#include "views/messagebanner.h"
#include "views/notifier.h"

#include <QTimer>
#include <QWidget>

WindowNotices::WindowNotices(ConsoleModels *models, QWidget *window)
    : QObject(window)
    , m_models(models)
    , m_window(window)
    , m_banner(new MessageBanner(window))
    , m_notifier(new Notifier(window))
    , m_trayTimer(new QTimer(this))
    , m_bannerTimer(new QTimer(this))
{
    m_trayTimer->setSingleShot(true);
    m_trayTimer->setInterval(200);
    connect(m_trayTimer, &QTimer::timeout, this, &WindowNotices::updateTray);
    // The banner, made once for every healthy result that came meanwhile (it looks at every kluster).
    m_bannerTimer->setSingleShot(true);
    m_bannerTimer->setInterval(100);
    connect(m_bannerTimer, &QTimer::timeout, this, &WindowNotices::updateBanner);
    connect(m_notifier, &Notifier::trayWantedChanged, this, &WindowNotices::updateTray);
    ConnectionRegistry *registry = models->session()->registry();
    connect(registry, &ConnectionRegistry::added, this, [this] {
        m_startupMessage.clear();
        updateBanner();
    });
    connect(registry, &ConnectionRegistry::secretNotKept, this,
        [this](const QString &connection, const QString &notice) {
            m_notice = notice; // said until dismissed (or the connection removed), not in passing
            m_noticeConnection = connection;
            updateBanner();
        });
}

void WindowNotices::setStartupMessage(const QString &message, bool demoAvailable)
{
    m_startupMessage = message;
    m_demoAvailable = demoAvailable;
    updateBanner();
}

void WindowNotices::refreshed(const KlusterKey &key, const KlusterData &before, bool cancelled)
{
    ConsoleSession *session = m_models->session();
    if (!cancelled) {
        if (const auto n = session->notification(key, before, m_window->isActiveWindow()))
            m_notifier->notify(n->title, n->body, key, n->finding, n->severity);
    }
    // What failed, in whole or in part (or no longer does), is said now, not once the rows are made; the rest
    // of a burst within a tenth of a second.
    if (const KlusterData *d = session->store()->data(key); before.failedInPart() || (d && d->failedInPart()))
        updateBanner();
    else if (!m_bannerTimer->isActive())
        m_bannerTimer->start();
    m_trayTimer->start(); // once for a burst of a thousand klusters refreshed, not for each
}

void WindowNotices::connectionRemoved(const QString &name)
{
    if (m_noticeConnection == name)
        m_notice.clear(); // about a connection that is no more
    updateTray();
    updateBanner();
}

void WindowNotices::updateBanner()
{
    const ConsoleText::Banner b = m_models->session()->banner(m_notice, m_startupMessage);
    switch (b.kind) {
    case ConsoleText::Banner::Kind::Failures:
        m_banner->setMessage({ MessageBanner::Type::Error, b.text, b.details, b.retry,
            b.listingFailed ? QList<QAction *> { m_actions.manage } : QList<QAction *>() });
        break;
    case ConsoleText::Banner::Kind::Notice:
        m_banner->setMessage(
            { MessageBanner::Type::Warning, b.text, QString(), false, { m_actions.manage } });
        break;
    case ConsoleText::Banner::Kind::Startup:
        m_banner->setMessage({ MessageBanner::Type::Information, b.text, QString(), false,
            m_demoAvailable ? QList<QAction *> { m_actions.add, m_actions.demo }
                            : QList<QAction *> { m_actions.add } });
        break;
    case ConsoleText::Banner::Kind::None:
        m_banner->clear();
        break;
    }
}

void WindowNotices::updateTray()
{
    ConnectionRegistry *registry = m_models->session()->registry();
    const bool on = registry->anyLive() && m_notifier->trayWanted();
    m_notifier->setTrayEnabled(on);
    if (on)
        m_notifier->showWorstOf(m_models->klusters(), [registry](const QString &connection) {
            const Connection *c = registry->connection(connection);
            return c && !c->spec().isSnapshot(); // nothing to watch in a snapshot
        });
}
