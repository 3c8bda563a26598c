#pragma once

#include "core/klusterkey.h"

#include <QObject>
#include <QString>

class ConsoleModels;
class MessageBanner;
class Notifier;
class QAction;
class QTimer;
class QWidget;
struct KlusterData;

// What the window says outside its views (Dolphin's KMessageWidget over the view, a tray icon, the desktop's
// notifications): the banner's one message (what failed, with Retry or Connections…; a notice kept until
// dismissed, such as a secret kept for this session only; the first-run message with Add connection… and
// the demo cloud), the tray's worst kluster, and a notification of what changed while watching. The words
// are ConsoleText's (ConsoleSession::banner, ::notification); this places them and decides when, at most
// once per burst of refreshes.
class WindowNotices : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowNotices)

public:
    // The banner's actions: adding and managing connections, and opening the demo cloud.
    struct Actions
    {
        QAction *add;
        QAction *manage;
        QAction *demo;
    };

    WindowNotices(ConsoleModels *models, QWidget *window);

    MessageBanner *banner() const { return m_banner; }
    Notifier *notifier() const { return m_notifier; }
    void setActions(const Actions &actions) { m_actions = actions; }

    // The first-run message (until a connection is added), with the demo cloud offered when `demoAvailable`.
    void setStartupMessage(const QString &message, bool demoAvailable);
    // A kluster refreshed (`before`: what it was): what changed said to the desktop while watching, the
    // banner now if something failed or stopped failing, else with the rest of the burst; the tray too.
    void refreshed(const KlusterKey &key, const KlusterData &before, bool cancelled);
    void connectionRemoved(const QString &name);
    void updateBanner();
    void updateTray();

private:
    ConsoleModels *m_models;
    QWidget *m_window;
    MessageBanner *m_banner;
    Notifier *m_notifier;
    QTimer *m_trayTimer; // the tray's worst, once for a burst of refreshes
    QTimer *m_bannerTimer; // the banner, at most every 100 ms while refreshes come back
    Actions m_actions {};
    QString m_startupMessage;
    QString m_notice; // a warning that stays until dismissed (a secret kept for this session only)
    QString m_noticeConnection; // the connection m_notice is about
    bool m_demoAvailable = false;
};
