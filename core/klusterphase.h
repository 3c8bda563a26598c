#pragma once

#include <QString>

struct Kluster;

// The kluster's lifecycle phase (Kubernikus' status.phase, diagnosis.md §7): it decides what is expected of
// the kluster and which of Kubernikus' controllers act on it.
enum class KlusterPhase
{
    None, // Kubernikus said none (a snapshot without it): diagnosed as Running
    Pending,
    Creating,
    Running,
    Upgrading,
    Terminating,
    Unknown, // a phase this build does not know: diagnosed as Running, and named
    // Kubernikus no longer has the kluster: only what it left behind is diagnosed (diagnosis.md §9).
    // Flightdeck's word (Diagnosis::phase), never Kubernikus' phase: a kluster object saying "Gone" is
    // diagnosed as Unknown.
    Gone,
};

namespace KlusterPhases {
KlusterPhase parse(const QString &phase);
// The phase a kluster is diagnosed in: Gone where Kubernikus no longer has it, else its status.phase (a
// status.phase of "Gone" is not Kubernikus' word: Unknown).
KlusterPhase of(const Kluster &kluster);
QString name(
    KlusterPhase phase); // "Running", …; empty for None and Unknown (the kluster's own text names those)
// Whose nodes are not there yet are not unhealthy: Pending and Creating.
inline bool building(KlusterPhase phase)
{
    return phase == KlusterPhase::Pending || phase == KlusterPhase::Creating;
}
} // namespace KlusterPhases
