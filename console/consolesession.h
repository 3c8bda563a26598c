#pragma once

#include "console/consoletext.h"
#include "core/flightdecklink.h"
#include "core/klusterkey.h"
#include "services/repair/repairsilences.h"

#include <QHash>
#include <QObject>
#include <QSet>

class AlertWatch;
class ConnectionRegistry;
class HistoryClient;
class KlusterStore;
class RefreshCoordinator;
class TeamRepairs;
class BootEvidenceStore;
class ExportedReports;
class QTimer;

// The console without its window (Wireshark's CaptureFile, qBittorrent's Session): the klusters and their
// data (KlusterStore), the connections, the refreshes, the history, the alerts and the team's repairs; and
// which kluster is shown. It holds no item model: the views' models (models/consolemodels.h) follow it and
// make the rows of the kluster shown when it asks (rowsWanted). The window arranges widgets over both and
// follows their signals; tests drive it without a window.
class ConsoleSession : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleSession)

public:
    explicit ConsoleSession(QObject *parent = nullptr);
    ~ConsoleSession() override;

    KlusterStore *store() const { return m_store; }
    ConnectionRegistry *registry() const { return m_registry; }
    RefreshCoordinator *refreshes() const { return m_refreshes; }
    HistoryClient *history() const { return m_history; }
    AlertWatch *alerts() const { return m_alerts; } // the connections' Alertmanagers
    TeamRepairs *team() const { return m_team; } // who repaired what on the klusters, from their Events
    // The boot evidence of the servers whose findings the person opened (read on demand).
    BootEvidenceStore *bootEvidence() const { return m_bootEvidence; }
    // The exporters' reports of the Prometheus klusters opened (read on demand, read-only).
    ExportedReports *exportedReports() const { return m_exportedReports; }

    // Protected klusters ask for their name typed before every repair: those of a protected connection, and
    // those marked one by one (kept in the settings).
    bool isProtected(const KlusterKey &key) const;
    // Every protected kluster the store holds ("<connection>/<kluster>"), the settings read once: the
    // sidebar's marks, made again on every change of the connections (a QSettings per kluster there was most
    // of the window's time at a thousand klusters).
    QSet<QString> protectedKlusters() const;
    // Another kluster of the connection on the same router is protected (tearing the router's devices down
    // would cut it off too), or a protected kluster of the connection was not read and may be.
    bool isRouterProtected(const KlusterKey &key) const;
    void setKlusterProtected(const KlusterKey &key, bool on);

    // Links (core/flightdecklink.h): the kluster's (and a finding's or incident's) and back. A link's cloud
    // is a connection's name, its clouds.yaml cloud, or the project id of one of its klusters.
    FlightdeckLink linkOf(const KlusterKey &key, const QString &item = QString()) const;
    // Who silences a kluster's alerts from this console, and where (what the audit records carry): the
    // connection's OpenStack user (an application credential: "Flightdeck console (<connection>)").
    RepairSilences::Context silenceContext(const KlusterKey &key) const;
    std::optional<KlusterKey> resolve(const FlightdeckLink &link, QString *error) const;

    // The kluster shown (a connection's own row: its kluster is empty), remembered for the next run.
    // showCurrent() asks for its rows (rowsWanted); shown() once they are in (rowsShown).
    KlusterKey current() const { return m_current; }
    void setCurrent(const KlusterKey &key);
    void showCurrent(); // its data again (a refresh brought new data)
    bool isCurrentShown() const
    {
        return m_shownKey == m_current;
    } // the views' rows are the current kluster's
    // Whoever makes the views' rows (ConsoleModels) says they are in: `key`'s.
    void rowsShown(const KlusterKey &key);
    void forgetCurrent() { m_current = {}; } // its connection went

    // Each kluster's own filters of its views (the texts of their filter boxes, in the views' order): another
    // kluster opens with none, so that words typed for one never empty the next one's tables, and going back
    // finds them. Forgotten with the kluster (no longer listed, its connection removed).
    QStringList viewFilters(const KlusterKey &key) const { return m_viewFilters.value(key); }
    void keepViewFilters(const KlusterKey &key, const QStringList &texts);

    // A Prometheus connection's kluster in a connection to its cloud that lists it (the same name, and
    // project where known): where it is read live and repaired. Null when none.
    KlusterKey liveTwin(const KlusterKey &key) const;
    // What the header and the tables' captions say of the kluster shown.
    ConsoleText::CaptionFacts captionFacts(const QString &alarmColor) const;
    ConsoleText::Banner banner(const QString &notice, const QString &startupMessage) const;
    // The desktop notification a change of `key` calls for while watching (auto-refresh on, a live cloud), if
    // any; `windowActive`: the person is looking, nothing to announce.
    std::optional<ConsoleText::Notification> notification(
        const KlusterKey &key, const KlusterData &before, bool windowActive) const;

signals:
    void rowsWanted(const KlusterKey &key); // the views' rows of `key` (its data again, or none)
    void shown(const KlusterKey &key); // the views' rows are the kluster's
    void protectionChanged();

private:
    KlusterStore *m_store;
    ConnectionRegistry *m_registry;
    RefreshCoordinator *m_refreshes;
    HistoryClient *m_history;
    AlertWatch *m_alerts;
    TeamRepairs *m_team;
    BootEvidenceStore *m_bootEvidence;
    ExportedReports *m_exportedReports;
    KlusterKey m_current;
    // Writes m_current to the settings once the selection rests (a write syncs the file to disk).
    QTimer *m_lastKlusterLater;
    KlusterKey m_shownKey; // whose rows the views hold
    QHash<KlusterKey, QStringList> m_viewFilters;
};
