#pragma once

#include "core/alerts.h"
#include "services/monitoring/alertmanagerclient.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <functional>

// Silences while repairing (docs/alertmanager.md "Silences"): the alerts of the findings a repair is about
// are silenced before it is sent (one silence per alert, its labels as the matchers: that alert and no
// other), each recorded in the audit log as a change of its own; once the repair is verified they are expired
// (recorded too); a repair that failed keeps them, so the page does not ring again while someone is on it. A
// silence that cannot be made never holds a repair back: the audit record and the caller say so.
class RepairSilences : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairSilences)

public:
    // Who silences, where: what the audit records carry.
    struct Context
    {
        QString cloud;
        QString user;
        QString project;
        QString projectId;
        QString kluster;
    };
    static constexpr int DefaultMinutes = 60;

    RepairSilences(AlertmanagerClient *client, Context context, QObject *parent = nullptr);

    // The alerts (findings matched) that concern any of `findingIds`, unsilenced ones only: a silenced one is
    // someone's already.
    static QList<Alert> alertsOf(const QList<Alert> &alerts, const QStringList &findingIds);
    // One silence per alert, from `now` for `minutes`, created by `user`, its comment naming the findings and
    // the repair.
    // `klusterLabels`: the Alertmanager's (SilenceRequest::matchersOf pins those the alert lacks).
    static QList<SilenceRequest> plan(const QList<Alert> &alerts, const QStringList &findingIds,
        const QString &repair, const QString &user, const QDateTime &now, int minutes = DefaultMinutes,
        const QStringList &klusterLabels = Alerts::defaultKlusterLabels());

    // What each silence would catch besides the alert it is made for, asked of Alertmanager before anything
    // is confirmed: one line each ("catches no other alert firing now", "also silences 2 other alerts:
    // X{…}; Y{…}", or why it could not be asked), and how many others in all; `done` once, later.
    void preview(const QList<SilenceRequest> &silences,
        const std::function<void(const QStringList &lines, int others)> &done);
    // The line for one silence of `preview`, from the alerts it catches.
    static QString caughtLine(
        const SilenceRequest &silence, const QList<Alert> &caught, const QString &error);

    // Makes them, each recorded in the audit log; `created` once all are answered.
    void create(const QList<SilenceRequest> &silences, const QStringList &findingIds);
    // The repair's end: verified, the silences made are expired (each recorded); else they are kept until
    // they end. `finished` with one line saying which.
    void finish(bool verified);
    QStringList silenceIds() const { return m_ids; }

signals:
    void created(const QStringList &ids, const QStringList &errors);
    void finished(const QString &summary);

private:
    void record(const QString &title, const PlannedRequest &request, int status, const QString &outcome,
        bool done, const QStringList &findingIds);

    QPointer<AlertmanagerClient> m_client;
    Context m_context;
    QStringList m_ids;
    QStringList m_findings;
    QDateTime m_endsAt;
    int m_waiting = 0;
};
