#pragma once

#include "core/finding.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

// Someone is handling a finding: who, since and until when, and what the finding was when they took it (its
// severity and a fingerprint of its evidence). While it holds, the finding stops notifying and sinks below
// the unacknowledged of its severity; it lapses when its time runs out or the finding changes (another
// severity, other evidence), so a worse fault never hides behind an old acknowledgement. Kept in the history
// (HistoryStore), on this machine's clock.
struct Acknowledgement
{
    enum class Standing
    {
        Holds,
        Expired, // its time ran out
        Changed, // the finding is not what was acknowledged (severity or evidence)
    };
    // The durations offered, in seconds: 30 min, 1 h, 4 h, 8 h, 1 day.
    static const QList<qint64> &durations();

    QString finding; // the finding's id
    QString by; // who: this machine's user
    QString note; // why, in their words (may be empty)
    QDateTime at; // when (this machine's clock)
    QDateTime until;
    Severity severity = Severity::Warning; // the finding's, when acknowledged
    QByteArray fingerprint; // of its evidence, when acknowledged (fingerprintOf)

    static Acknowledgement of(
        const Finding &finding, const QString &by, const QString &note, const QDateTime &at, qint64 seconds);
    // The evidence without what only time changes (ages, "for how long"): the same fault on the next refresh
    // has the same fingerprint.
    static QByteArray fingerprintOf(const Finding &finding);

    Standing standing(const Finding &finding, const QDateTime &now) const;
    bool holds(const Finding &finding, const QDateTime &now) const
    {
        return standing(finding, now) == Standing::Holds;
    }
    bool isValid() const { return !finding.isEmpty() && until.isValid(); }
    // "by alice until 16:40 · on it, the bastion's route" (`until` as the console shows times).
    QString text(const QString &untilText) const;
};
