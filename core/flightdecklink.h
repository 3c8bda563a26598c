#pragma once

#include <QString>
#include <optional>

// A link to one thing in the console: `flightdeck://<cloud>/<kluster>[/<finding or incident id>]`, what
// "Copy link" puts on the clipboard, the desktop opens with `flightdeck URL`, and the alert rules'
// annotations carry. `<cloud>` names a connection (its name or its clouds.yaml cloud) or a project (its id,
// as the exporter's series label it); each part is percent-encoded (a finding id holds ':' and '/').
struct FlightdeckLink
{
    QString cloud;
    QString kluster;
    QString item; // a finding's id ("route-duplicate:10.0.0.0/24") or an incident's; empty: the kluster

    static constexpr const char *Scheme = "flightdeck";
    QString toString() const;
    // The link read back; nullopt with `error` saying what is wrong with it, in words.
    static std::optional<FlightdeckLink> parse(const QString &text, QString *error);
    friend bool operator==(const FlightdeckLink &a, const FlightdeckLink &b)
    {
        return a.cloud == b.cloud && a.kluster == b.kluster && a.item == b.item;
    }
};
