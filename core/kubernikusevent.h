#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

// What Kubernikus itself recorded about a kluster (`GET /api/v1/clusters/{name}/events`,
// docs/wire-formats.md): its operator's and servicing's Events of the kind Kluster, e.g.
// "SuccessfulRebootNode" or "FailedDrainNode". Shown in the kluster's timeline beside the repairs and the
// history's changes, kept in a snapshot as kubernikus-events.json. Nothing in them is trusted: each text is
// cut to MaxFieldChars and shown through OutsideText/printable by whoever shows it.
struct KubernikusEvent
{
    int count = 1; // how often it happened between firstTimestamp and lastTimestamp
    QDateTime firstTimestamp; // invalid: not said, or not a time
    QDateTime lastTimestamp;
    QString reason;
    QString message;
    QString type; // "Normal" or "Warning" (as said; empty when not)

    bool isWarning() const { return type == QLatin1String("Warning"); }
    // When it last happened: lastTimestamp, else firstTimestamp (invalid when neither is a time).
    QDateTime when() const { return lastTimestamp.isValid() ? lastTimestamp : firstTimestamp; }
    // One line for a timeline, its time left to the caller: "Warning FailedRebootNode (3 times): message".
    QString summary() const;
};

namespace KubernikusEvents {

constexpr int MaxEvents = 200; // the newest kept; Kubernikus answers them unsorted and unlimited
constexpr int MaxFieldChars = 512;

// The body: a JSON array of events (each an object; `count` an integer, the rest strings, each may be
// absent). Newest first (by when(); those without a time last), at most MaxEvents. Throws ParseError naming
// `source` and the path of what is not so; a timestamp that is no time is kept as an unknown time.
QList<KubernikusEvent> parse(const QString &source, const QByteArray &body);

// A time as Kubernikus writes it, Go's `time.Time.String()`: "2026-11-29 10:45:00 +0000 UTC", with
// fractional seconds when there are any and a monotonic-clock suffix (" m=+12.5") when the time had one; the
// zone's abbreviation is not read, its offset is. Also RFC 3339, should a later Kubernikus write that. Go's
// zero time ("0001-01-01 00:00:00 +0000 UTC", an Event's unset timestamp) and anything else: invalid.
QDateTime parseGoTime(const QString &text);

// Those that last happened at or after `since` (the timeline's window), newest first as given.
QList<KubernikusEvent> since(const QList<KubernikusEvent> &events, const QDateTime &since);

} // namespace KubernikusEvents
