#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

struct Finding;

// Who else repairs what Flightdeck finds (diagnosis.md §7): Kubernikus' own controllers and the kluster's
// route controller, each on its own period (sapcc/kubernikus pkg/controller/, docs/wire-formats.md).
enum class Actor
{
    Flight, // every 5 min, only while the kluster is Running
    RouteGc, // every 5 min, only while the kluster is Running
    RouteController, // the kluster's cloud controller manager, every 60 s
};

// What an actor does about a finding.
enum class AutomationAction
{
    DeleteInstance,
    AddSecurityGroup,
    CreateRules,
    RemoveRoute,
    AddRoute,
};

namespace Actors {
QString name(Actor actor); // "flight", "routegc", "route-controller"
std::optional<Actor> fromName(QStringView name);
int periodSeconds(Actor actor);
// Who runs it: whom an automation-stalled incident is handed to.
QString owners(Actor actor);
QString actionName(AutomationAction action); // "delete-instance", … (the JSON's "action")
QString actionWords(AutomationAction action); // "deletes the instance", …
QString pastWords(AutomationAction action); // "deleted the instance", …
} // namespace Actors

// What the actor will do about a finding, and when: `due` the moment by which it should have acted (the
// finding's since-when, from the history where it has one, plus one period; without one, the reference
// instant plus one period); `overdue` once the reference instant is past `due` plus one more period: the
// actor is not doing its job.
struct Automation
{
    Actor actor = Actor::Flight;
    AutomationAction action = AutomationAction::DeleteInstance;
    QDateTime due;
    bool overdue = false;
    QDateTime since; // since when it should have acted (invalid: not known)

    // "flight deletes the instance at 10:45 UTC, in 7 min", "… should have … by 10:45 UTC, 25 min ago".
    QString line(const QDateTime &reference) const;
    // {"actor", "action", "due", "overdue"}
    QJsonObject toJson() const;

    // The arithmetic of §7, on the reference instant: `since` (invalid: not known) is clamped to the
    // reference (a clock that steps back is not a future).
    static Automation at(Actor actor, AutomationAction action, const QDateTime &since,
        const QDateTime &reference, qint64 delaySeconds = -1);
};

// The automation of a finding, if an actor repairs it in the kluster's phase (none otherwise).
std::optional<Automation> automationOf(const Finding &finding);
