#pragma once

#include "core/finding.h"
#include "core/klusterkey.h"

#include <QHash>
#include <QObject>
#include <QPair>
#include <QString>
#include <functional>
#include <optional>

class QAbstractItemModel;
class QAction;
class QSystemTrayIcon;

// While the console watches (auto-refresh on), tells the desktop when a
// finding turns critical or a kluster becomes unreachable: a freedesktop
// notification (org.freedesktop.Notifications over D-Bus) where a
// notification server runs, else the tray icon's message. Clicking it opens
// the console on that kluster and finding. The tray icon shows the worst
// state of the watched klusters. Both can be switched off.
class Notifier : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Notifier)

public:
    explicit Notifier(QObject *parent = nullptr);
    ~Notifier() override;

    // The View menu's switches, remembered between runs: desktop notifications while watching, and the tray
    // icon (shown while a live connection is watched: trayWanted()).
    QAction *notificationsAction() const { return m_notificationsAction; }
    QAction *trayAction() const { return m_trayAction; }
    bool trayWanted() const;

    void setNotificationsEnabled(bool on) { m_notifications = on; }
    void setTrayEnabled(bool on);
    bool trayAvailable() const;
    QSystemTrayIcon *tray() const { return m_tray; }

    // The worst severity across watched klusters (none: healthy), and a line per kluster for the tooltip.
    void setWorst(std::optional<Severity> severity, const QString &summary);
    // The same from the klusters' list (the sidebar's model): the worst of those `watched` says to watch, and
    // a line for each in trouble (the first MaxTrayLines, then how many more).
    static constexpr int MaxTrayLines = 20;
    void showWorstOf(
        const QAbstractItemModel *klusters, const std::function<bool(const QString &connection)> &watched);
    std::optional<Severity> worst() const { return m_worst; }

    // Tells the desktop; `key` and `findingId` say where a click leads (findingId may be empty).
    void notify(const QString &title, const QString &body, const KlusterKey &key, const QString &findingId,
        Severity severity);

    // Where the last notification went: "dbus", "tray" or "none".
    QString lastChannel() const { return m_lastChannel; }
    int sentCount() const { return m_sent; }
    QAction *acknowledgeLastAction() const { return m_acknowledgeLast; }

signals:
    void activated(const KlusterKey &key, const QString &findingId);
    void notified(const QString &title, const QString &body, const KlusterKey &key, const QString &findingId);
    void showWindowRequested();
    // "Acknowledge for an hour", from a notification's button or the tray's menu: the last finding notified.
    void acknowledgeRequested(const KlusterKey &key, const QString &findingId);
    void trayWantedChanged();

private slots:
    void onActionInvoked(uint id, const QString &action);
    void onClosed(uint id, uint reason);

private:
    void ensureTray();

    bool m_notifications = true;
    QAction *m_notificationsAction;
    QAction *m_trayAction;
    bool m_trayWanted = true;
    QSystemTrayIcon *m_tray = nullptr;
    std::optional<Severity> m_worst;
    QString m_summary;
    QHash<uint, QPair<KlusterKey, QString>> m_targets; // D-Bus notification id -> (kluster, finding)
    QPair<KlusterKey, QString> m_lastTrayTarget;
    QPair<KlusterKey, QString> m_lastNotified; // the last finding notified, for the tray's "acknowledge"
    QAction *m_acknowledgeLast; // the tray's "Acknowledge … for an hour"
    QString m_lastChannel = QStringLiteral("none");
    int m_sent = 0;
    bool m_dbusConnected = false;
};
