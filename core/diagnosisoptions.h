#pragma once

#include <QString>
#include <QStringList>
#include <optional>

// The remediation budget's threshold: a count of nodes, or a percentage of
// the expected nodes (rounded down), after Cluster API's MachineHealthCheck.
struct MaxUnhealthy
{
    bool isPercent = true;
    int value = 40;

    // "40%", "40 %" or "3"; nullopt when the text is neither.
    static std::optional<MaxUnhealthy> parse(const QString &text);
    qint64 resolve(qint64 expected) const;
    QString toString() const;
};

// The configurable values of the diagnosis. Defaults follow diagnosis.md.
struct DiagnosisOptions
{
    int startupTimeoutSeconds = 10 * 60; // an instance younger than this is still starting
    int tokenExpirySeconds = 30 * 60; // the bootstrap token's lifetime
    // flight deletes an instance still unregistered this long after it was created (sapcc/kubernikus
    // INSTANCE_SPAWNING_TIMEOUT).
    int flightDeleteSeconds = 45 * 60;
    int routeLimit = 30; // routes per router, when the snapshot does not say
    bool routeLimitExplicit = false; // a given limit overrides the snapshot's maxRoutes
    int routeWarningPercent = 80;
    MaxUnhealthy maxUnhealthy;
    // Plan route changes as the guarded full-list update (PUT with If-Match)
    // even where the cloud has extraroute-atomic.
    bool fullRouteUpdates = false;
    // The hosts of the router devices the team knows to forward (ACTIVE): the ASR driver does not say which
    // device of a pair is which (docs/wire-formats.md). The other device of a pair that has one named is its
    // STANDBY; a pair with none named has both roles unknown (each judged as the one that may forward).
    QStringList activeDevices;
    // device-route-missing repaired by the seeds' nudge (the route removed and added again in Neutron) rather
    // than the driver's sync: where these credentials may not sync (it is a cloud admin's), or by choice (it
    // touches one route, not the router's whole configuration on the devices).
    bool nudgeDeviceRoutes = false;
    // Kubernikus' own controllers (flight, routegc) and the kluster's route controller run on this cloud
    // (diagnosis.md §7): findings they repair say when, and a repair that would race them waits
    // (AutomationPending). Off for a cloud where they are known not to run.
    bool automation = true;

    // Parses a duration: "10m", "600s", "1h", or a bare number of minutes.
    static std::optional<int> parseDurationSeconds(const QString &text);
};
