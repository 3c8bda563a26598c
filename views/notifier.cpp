#include "views/notifier.h"

#include "models/klustersmodel.h"
#include "services/settings.h"
#include "views/severitystyle.h"

#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QHash>
#include <QMenu>
#include <QSystemTrayIcon>
#include <algorithm>

namespace {
const QString Service = QStringLiteral("org.freedesktop.Notifications");
const QString Path = QStringLiteral("/org/freedesktop/Notifications");
const QString Interface = QStringLiteral("org.freedesktop.Notifications");
} // namespace

Notifier::Notifier(QObject *parent)
    : QObject(parent)
    , m_notificationsAction(new QAction(tr("Desktop &notifications while watching"), this))
    , m_trayAction(new QAction(tr("&Tray icon"), this))
    , m_acknowledgeLast(new QAction(tr("Acknowledge the last notified finding for an hour"), this))
{
    m_acknowledgeLast->setEnabled(false); // nothing notified yet
    connect(m_acknowledgeLast, &QAction::triggered, this, [this] {
        if (!m_lastNotified.second.isEmpty())
            emit acknowledgeRequested(m_lastNotified.first, m_lastNotified.second);
    });
    m_notifications = Settings::desktopNotifications().value();
    m_notificationsAction->setCheckable(true);
    m_notificationsAction->setChecked(m_notifications);
    m_notificationsAction->setToolTip(
        tr("With auto-refresh on and the window in the background: a new critical "
           "finding or an unreachable kluster is announced on the desktop"));
    connect(m_notificationsAction, &QAction::toggled, this, [this](bool on) {
        setNotificationsEnabled(on);
        Settings::desktopNotifications().setValue(on);
    });
    m_trayAction->setCheckable(true);
    m_trayAction->setChecked(Settings::trayIcon().value());
    connect(m_trayAction, &QAction::toggled, this, [this](bool on) {
        Settings::trayIcon().setValue(on);
        emit trayWantedChanged();
    });
}

bool Notifier::trayWanted() const
{
    return m_trayAction->isChecked();
}

Notifier::~Notifier() = default;

bool Notifier::trayAvailable() const
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

void Notifier::ensureTray()
{
    if (m_tray || !m_trayWanted || !trayAvailable())
        return;
    m_tray = new QSystemTrayIcon(this);
    m_tray->setIcon(SeverityStyle::statusIcon(m_worst));
    m_tray->setToolTip(m_summary);
    auto *menu = new QMenu;
    menu->addAction(tr("Show Flightdeck"), this, &Notifier::showWindowRequested);
    menu->addSeparator();
    menu->addAction(m_acknowledgeLast);
    menu->addAction(m_notificationsAction);
    menu->addSeparator();
    menu->addAction(tr("Quit"), qApp, &QApplication::quit);
    m_tray->setContextMenu(menu);
    connect(m_tray, &QObject::destroyed, menu, &QObject::deleteLater);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            emit showWindowRequested();
    });
    connect(m_tray, &QSystemTrayIcon::messageClicked, this,
        [this] { emit activated(m_lastTrayTarget.first, m_lastTrayTarget.second); });
    m_tray->show();
}

void Notifier::setTrayEnabled(bool on)
{
    m_trayWanted = on;
    if (!on) {
        delete m_tray;
        m_tray = nullptr;
        return;
    }
    ensureTray();
}

void Notifier::setWorst(std::optional<Severity> severity, const QString &summary)
{
    m_worst = severity;
    m_summary = summary;
    ensureTray();
    if (m_tray) {
        m_tray->setIcon(SeverityStyle::statusIcon(severity));
        m_tray->setToolTip(summary);
    }
}

void Notifier::notify(const QString &title, const QString &body, const KlusterKey &key,
    const QString &findingId, Severity severity)
{
    if (!m_notifications)
        return;
    ++m_sent;
    emit notified(title, body, key, findingId);
    if (!findingId.isEmpty()) {
        m_lastNotified = { key, findingId };
        m_acknowledgeLast->setText(tr("Acknowledge %1 on %2 for an hour").arg(findingId, key.toString()));
        m_acknowledgeLast->setEnabled(true);
    }
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected() && bus.interface() && bus.interface()->isServiceRegistered(Service)) {
        if (!m_dbusConnected) {
            bus.connect(Service, Path, Interface, QStringLiteral("ActionInvoked"), this,
                SLOT(onActionInvoked(uint, QString)));
            bus.connect(Service, Path, Interface, QStringLiteral("NotificationClosed"), this,
                SLOT(onClosed(uint, uint)));
            m_dbusConnected = true;
        }
        QDBusMessage call
            = QDBusMessage::createMethodCall(Service, Path, Interface, QStringLiteral("Notify"));
        const QVariantMap hints { { QStringLiteral("urgency"),
                                      QVariant::fromValue(uchar(severity == Severity::Critical ? 2 : 1)) },
            { QStringLiteral("desktop-entry"), QStringLiteral("flightdeck") },
            { QStringLiteral("category"), QStringLiteral("device.error") } };
        call << QStringLiteral("Flightdeck") << uint(0) << QStringLiteral("flightdeck") << title << body
             << (findingId.isEmpty() ? QStringList { QStringLiteral("default"), tr("Open in Flightdeck") }
                                     : QStringList { QStringLiteral("default"), tr("Open in Flightdeck"),
                                         QStringLiteral("acknowledge"), tr("Acknowledge for an hour") })
             << hints << int(-1);
        auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call), this);
        const QPair<KlusterKey, QString> target { key, findingId };
        connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, target, title, body, severity] {
                watcher->deleteLater();
                const QDBusPendingReply<uint> reply = *watcher;
                if (reply.isError()) { // the server went away: the tray's message instead
                    ensureTray();
                    if (m_tray) {
                        m_lastTrayTarget = target;
                        m_tray->showMessage(title, body,
                            severity == Severity::Critical ? QSystemTrayIcon::Critical
                                                           : QSystemTrayIcon::Warning);
                        m_lastChannel = QStringLiteral("tray");
                    }
                    return;
                }
                m_targets.insert(reply.value(), target);
            });
        m_lastChannel = QStringLiteral("dbus");
        return;
    }
    ensureTray();
    if (m_tray && QSystemTrayIcon::supportsMessages()) {
        m_lastTrayTarget = { key, findingId };
        m_tray->showMessage(title, body,
            severity == Severity::Critical ? QSystemTrayIcon::Critical : QSystemTrayIcon::Warning);
        m_lastChannel = QStringLiteral("tray");
        return;
    }
    m_lastChannel = QStringLiteral("none");
}

void Notifier::onActionInvoked(uint id, const QString &action)
{
    const auto it = m_targets.constFind(id);
    if (it == m_targets.cend())
        return; // another program's notification
    if (action == QLatin1String("acknowledge") && !it->second.isEmpty())
        emit acknowledgeRequested(it->first, it->second);
    else
        emit activated(it->first, it->second);
}

void Notifier::onClosed(uint id, uint reason)
{
    Q_UNUSED(reason);
    m_targets.remove(id);
}

void Notifier::showWorstOf(
    const QAbstractItemModel *klusters, const std::function<bool(const QString &connection)> &watched)
{
    std::optional<Severity> worst;
    QStringList lines;
    int more = 0;
    QHash<QString, bool> isWatched; // a connection asked once, not once for each of its klusters
    // In the one ranking (the list's order): the first lines are the worst klusters.
    QList<std::pair<QString, int>> ranked;
    ranked.reserve(klusters->rowCount());
    for (int row = 0; row < klusters->rowCount(); ++row)
        ranked.append({ klusters->index(row, 0).data(KlustersModel::RankRole).toString(), row });
    std::sort(ranked.begin(), ranked.end());
    for (const auto &[rank, row] : std::as_const(ranked)) {
        const QModelIndex i = klusters->index(row, 0);
        const QString connection = i.data(KlustersModel::ConnectionRole).toString();
        auto known = isWatched.constFind(connection);
        if (known == isWatched.cend())
            known = isWatched.insert(connection, watched(connection));
        if (!known.value())
            continue;
        const std::optional<Severity> s = ConsoleRole::severityOf(i);
        worst = ConsoleRole::worse(worst, s);
        if (s != Severity::Critical && s != Severity::Warning)
            continue;
        if (lines.size() < MaxTrayLines)
            lines << QStringLiteral("%1: %2, %3")
                         .arg(i.data(KlustersModel::KeyRole).toString(), severityName(*s),
                             i.data(KlustersModel::ReasonRole).toString());
        else
            ++more;
    }
    if (more > 0)
        lines << tr("… and %n more", nullptr, more);
    setWorst(worst,
        lines.isEmpty() ? tr("Flightdeck: every kluster healthy")
                        : tr("Flightdeck\n") + lines.join(QLatin1Char('\n')));
}
