#pragma once

#include "core/finding.h"
#include "core/klusterkey.h"

#include <QString>
#include <climits>
#include <optional>

struct Diagnosis;

// How a kluster stands, counted as causes (diagnosis.md §5): an incident counts once, in its severity, and so
// does each critical or warning finding in no incident. One count and one set of words for the kluster list,
// the Fleet, the Overview, `check --all`, the exposition and the Markdown.
struct KlusterStanding
{
    std::optional<Severity> worst; // of its causes; none: nothing critical or warning
    int worstRank = INT_MAX; // the worst cause's findingRank() (severity, then impact); lower is worse
    QString worstCause; // its id: an incident's or a finding's
    QString reason; // its phrase: "pod network closed", "node never registered"
    int critical = 0;
    int warning = 0;
    int incidents = 0;
    int members = 0; // the findings of the incidents
    int lone = 0; // critical and warning findings in no incident
    bool terminating = false; // Kubernikus is tearing it down (kluster-terminating): its reason says so

    static KlusterStanding of(const Diagnosis &diagnosis);
    // For data with a source missing: never better than its last complete standing (the one of the two that
    // ranks worse, whole).
    static KlusterStanding graver(const KlusterStanding &a, const KlusterStanding &b);

    // "2 critical · 1 warning", or "healthy"; `atLeast`: lower bounds ("≥ 2 critical · ≥ 1 warning").
    QString headline(bool atLeast = false) const;
    // What the causes are: "2 incidents (9 findings) · 1 other finding", "3 findings"; empty when none.
    QString breakdown() const;
    // The headline, then the breakdown where there are incidents: "2 critical · 1 warning — 2 incidents (9
    // findings) · 1 other finding".
    QString text(bool atLeast = false) const;

    friend bool operator==(const KlusterStanding &a, const KlusterStanding &b)
    {
        return a.worst == b.worst && a.worstRank == b.worstRank && a.worstCause == b.worstCause
            && a.reason == b.reason && a.critical == b.critical && a.warning == b.warning
            && a.incidents == b.incidents && a.members == b.members && a.lone == b.lone
            && a.terminating == b.terminating;
    }
};

// How far a kluster's data can be trusted; the ranking's first question after the severity.
enum class Reading
{
    NotRead, // nothing yet: a fleet still loading
    Fresh,
    Incomplete, // fresh, a source missing: the counts are lower bounds
    Stale, // the last refresh failed: the last good data
    Unreadable, // never read, or its connection lists nothing
};
QString readingName(Reading reading); // "not read", "fresh", "incomplete", "stale", "unreadable"

// One kluster as the ranking sees it.
struct RankedKluster
{
    KlusterKey key;
    Reading reading = Reading::NotRead;
    KlusterStanding standing; // of the data shown (for incomplete data: KlusterStanding::graver)
};

// The one order of klusters, worst first, for every view and command:
// 1. its gravity: a critical cause, or data that cannot be read at all (as bad as critical: nothing is
// known);
//    then a warning; then healthy; then not read yet (nothing is known of it, good or bad);
// 2. the worst cause's rank (a cause that takes the whole kluster down above one node, one node above a
//    router slot); unreadable ranks as a kluster-wide cause with no count, after those that are known;
// 3. more critical causes, then more warning causes;
// 4. data in doubt (stale, incomplete) above data that is not, at the same;
// 5. the kluster's name, then the connection's.
namespace KlusterRanking {

bool before(const RankedKluster &a, const RankedKluster &b);
// A key that sorts as before() does, ascending: for a model's sort role.
QString sortKey(const RankedKluster &k);
// Why it ranks where it does, in a few words: "pod network closed", "could not be read", "not checked yet",
// "healthy" (incomplete: "nothing found in what was read").
QString reason(const RankedKluster &k);
// The order in words, for a header's tooltip and the documentation.
QString rule();
// 1 for a critical cause (or unreadable), 2 warning, 3 healthy, 4 not read.
int gravity(const RankedKluster &k);

} // namespace KlusterRanking
