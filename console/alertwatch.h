#pragma once

#include "core/alerts.h"
#include "core/klusterkey.h"
#include "services/monitoring/alertmanagerclient.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <memory>

class HttpClient;
struct KlusterData;

// The alerts beside the findings, for the console (docs/alertmanager.md): each connection that names an
// Alertmanager has its alerts read in one request with every refresh round (and after a repair), kept, and
// handed to each kluster as its own (Alerts::ofKluster: never another kluster's), matched to its findings.
// An Alertmanager that cannot be read is one line (`error`): the findings stand, the last alerts read stay,
// marked as of when they were read.
class AlertWatch : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertWatch)

public:
    explicit AlertWatch(QObject *parent = nullptr);
    ~AlertWatch() override;

    // The connection's Alertmanager (unset: none, forgotten); its secret, when it needs one and has none, is
    // read from the keychain first.
    void setTarget(const QString &connection, const AlertmanagerTarget &target);
    void remove(const QString &connection);
    bool watches(const QString &connection) const { return m_watched.contains(connection); }
    // The connection's Alertmanager client (silences are made through it); null without one.
    AlertmanagerClient *client(const QString &connection) const;

    // Reads the connection's alerts again (one at a time: a read under way is not doubled).
    void refresh(const QString &connection);
    void refreshAll();

    // The kluster's alerts as last read, matched to the findings of `data` (configured false: no
    // Alertmanager; known false: not read yet, or the last read failed, with `error`).
    KlusterAlerts alertsOf(const KlusterKey &key, const KlusterData &data) const;
    // How many of the kluster's alerts are firing (unsilenced), for badges; 0 without an Alertmanager.
    int firingCount(const KlusterKey &key, const QString &projectId) const;
    QString error(const QString &connection) const;
    QDateTime readAt(const QString &connection) const; // the last successful read; invalid before one

signals:
    void changed(const QString &connection); // its alerts, or why they could not be read, changed

private:
    struct Watched
    {
        std::unique_ptr<AlertmanagerClient> client;
        QList<Alert> alerts;
        QString error;
        QDateTime readAt;
        bool reading = false;
        bool again = false; // asked again while reading
        bool secretPending = false;
        quint64 generation = 0;
    };
    void read(const QString &connection);

    HttpClient *m_http;
    QHash<QString, std::shared_ptr<Watched>> m_watched;
};
