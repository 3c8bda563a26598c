#include "core/klusterphase.h"

#include "core/kluster.h"

namespace {
struct PhaseName
{
    KlusterPhase phase;
    const char *name;
};
constexpr PhaseName names[] = {
    { KlusterPhase::Pending, "Pending" },
    { KlusterPhase::Creating, "Creating" },
    { KlusterPhase::Running, "Running" },
    { KlusterPhase::Upgrading, "Upgrading" },
    { KlusterPhase::Terminating, "Terminating" },
    { KlusterPhase::Gone, "Gone" },
};
} // namespace

KlusterPhase KlusterPhases::parse(const QString &phase)
{
    if (phase.isEmpty())
        return KlusterPhase::None;
    for (const PhaseName &p : names) {
        if (phase == QLatin1String(p.name))
            return p.phase;
    }
    return KlusterPhase::Unknown;
}

QString KlusterPhases::name(KlusterPhase phase)
{
    for (const PhaseName &p : names) {
        if (p.phase == phase)
            return QLatin1String(p.name);
    }
    return QString();
}

KlusterPhase KlusterPhases::of(const Kluster &kluster)
{
    if (kluster.gone)
        return KlusterPhase::Gone;
    const KlusterPhase phase = parse(kluster.phase);
    return phase == KlusterPhase::Gone ? KlusterPhase::Unknown : phase;
}
