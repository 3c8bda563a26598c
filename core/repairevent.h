#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

// A repair as teammates see it: mirrored into the kluster as a Kubernetes Event (`events.k8s.io/v1`,
// reportingController `flightdeck`) when it is about to be sent and once it is verified or has failed, so
// `kubectl events`, Lens, k9s and Headlamp show it beside the kluster's own Events. What the console needs
// to read it back (which repair, whose, which audit record) rides in the Event's annotations; the note says
// the same in words.
enum class RepairEventPhase
{
    Sent, // about to be sent: reason RepairStarted, type Normal
    Verified, // sent and verified gone: RepairVerified, Normal
    Failed, // failed, not verified, refused midway or the router changed meanwhile: RepairFailed, Warning
};

namespace RepairEventPhases {
QString reason(RepairEventPhase phase); // RepairStarted, RepairVerified, RepairFailed
QString word(RepairEventPhase phase); // started, verified, failed
std::optional<RepairEventPhase> fromReason(const QString &reason);
} // namespace RepairEventPhases

struct RepairEvent
{
    RepairEventPhase phase = RepairEventPhase::Sent;
    QDateTime time;
    QString kluster;
    QString node; // the node the repair concerns (the Event's `regarding`), empty when none
    QStringList findings; // ids
    QString repair; // the plan's title
    QString user; // the OpenStack user who repairs
    QString auditId; // the audit record's id
    QString instance; // the console or command that repaired (reportingInstance)
    QString outcome; // Verified/Failed: what happened, in words
    QString name; // the Event's metadata.name (read back; made from the audit id and phase when written)
    // Read back: whether this machine's audit log holds the repair (its audit id). Anyone who may create
    // Events in the kluster may write one that claims a repair: what only the Events say is unverified.
    bool inAuditLog = false;

    // The Event to create in `nameSpace` (default): every field the API server requires, the note at most
    // 1 kB (cut on a character), names and lengths within its limits.
    QJsonObject toEvent(const QString &nameSpace = QStringLiteral("default")) const;
    QString note() const;
    QString eventName() const; // flightdeck.<audit id>.<started|verified|failed>, a DNS subdomain

    // The repairs among a list of Events (`EventList`, either API group): those reportingController
    // `flightdeck` wrote with their annotations, oldest first; every other Event is left out. Nothing in
    // them is trusted: one that does not read is skipped, every text is cut to what Flightdeck itself
    // writes (MaxFieldChars; a finding list to MaxFindings), and at most MaxEvents (the newest) are kept.
    static constexpr int MaxEvents = 500;
    static constexpr int MaxFieldChars = 256;
    static constexpr int MaxFindings = 20;
    static QList<RepairEvent> fromEventList(const QJsonObject &list);
    static std::optional<RepairEvent> fromEvent(const QJsonObject &event);

    // This console's instance name: host and a per-process tag (reportingInstance, at most 128 bytes).
    static QString instanceName(const QString &host, const QString &tag);

    friend bool operator==(const RepairEvent &a, const RepairEvent &b);
};

// What teammates did on one kluster lately, from its repair Events.
namespace RepairEvents {
constexpr int WarnMinutes = 15; // a teammate's repair started this recently is warned of before one's own
constexpr int Shown = 10; // the repairs a list shows (the newest), the rest counted
// The repairs (one per audit id), newest first: each as it started, then ended by an Event that ends it,
// one of the same reporting instance and never earlier than the start (an Event that claims to have ended
// a repair before it began is a forgery, and does not hide the start).
QList<RepairEvent> latestPerRepair(const QList<RepairEvent> &events);
// Repairs started by another instance than `ownInstance` since `now - minutes`, newest first: what to
// warn of before repairing the same kluster.
QList<RepairEvent> teammatesStarted(const QList<RepairEvent> &events, const QString &ownInstance,
    const QDateTime &now, int minutes = WarnMinutes);
// One line for a repair: "user alice started \"Remove duplicate route\" (route-duplicate/…) 4 min ago,
// from flightdeck@host/…"; the outcome once it is known; "(from the kluster's Events, unverified)" when this
// machine's audit log does not hold it. Its outside text made safe to show, each part cut short.
QString describe(const RepairEvent &repair, const QDateTime &now);
// The first `Shown` lines of `repairs` described, and "… and N more" when there are more.
QStringList describeNewest(const QList<RepairEvent> &repairs, const QDateTime &now, int shown = Shown);
} // namespace RepairEvents
