#include "core/klusterstanding.h"

#include "core/diagnosis.h"
#include "core/findingtraits.h"

#include <QSet>

namespace {

QString counted(int n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace

KlusterStanding KlusterStanding::of(const Diagnosis &diagnosis)
{
    KlusterStanding s;
    // The worst cause: the lowest rank; an incident before a finding of the same rank (it explains more).
    int best = INT_MAX;
    const auto consider = [&](int rank, bool incident, const QString &id, const QString &reason) {
        const int key = rank * 2 + (incident ? 0 : 1);
        if (key >= best)
            return;
        best = key;
        s.worstRank = rank;
        s.worstCause = id;
        s.reason = reason;
    };
    QSet<QString> members;
    for (const Incident &i : diagnosis.incidents) {
        if (i.severity == Severity::Info)
            continue;
        (i.severity == Severity::Critical ? s.critical : s.warning) += 1;
        s.incidents += 1;
        s.members += int(i.members.size());
        // In its own severity's band (a zone outage of warnings is critical), by the most of the kluster its
        // members take down.
        int impact = int(Impact::Slot) + 1;
        for (const QString &id : i.members) {
            members.insert(id);
            if (const Finding *f = diagnosis.find(id))
                impact = qMin(impact, int(findingImpact(*f)));
        }
        const int rank = int(i.severity) * 3 + (impact > int(Impact::Slot) ? int(Impact::Node) : impact);
        consider(rank, true, i.id(), incidentRulePhrase(i.rule));
    }
    for (const Finding &f : diagnosis.findings) {
        if (f.kind == FindingKind::KlusterTerminating) {
            s.terminating = true; // whatever its severity, what the kluster is doing
            if (s.worstCause.isEmpty()) // unless what holds it is worse (a volume stuck deleting)
                s.reason = QLatin1String(findingTraits(f.kind).phrase);
        }
        if (f.severity == Severity::Info || members.contains(f.id()))
            continue;
        (f.severity == Severity::Critical ? s.critical : s.warning) += 1;
        s.lone += 1;
        consider(findingRank(f), false, f.id(), QLatin1String(findingTraits(f.kind).phrase));
    }
    if (s.critical > 0)
        s.worst = Severity::Critical;
    else if (s.warning > 0)
        s.worst = Severity::Warning;
    return s;
}

KlusterStanding KlusterStanding::graver(const KlusterStanding &a, const KlusterStanding &b)
{
    // One whole standing, the one that ranks worse: its counts, causes and words agree with each other.
    const auto gravity = [](const KlusterStanding &x) { return x.worst ? int(*x.worst) : 3; };
    if (gravity(a) != gravity(b))
        return gravity(a) < gravity(b) ? a : b;
    if (a.worstRank != b.worstRank)
        return a.worstRank < b.worstRank ? a : b;
    if (a.critical != b.critical)
        return a.critical > b.critical ? a : b;
    return a.warning >= b.warning ? a : b;
}

QString KlusterStanding::headline(bool atLeast) const
{
    if (critical + warning == 0)
        return atLeast ? QStringLiteral("≥ 0 critical · ≥ 0 warning") : QStringLiteral("healthy");
    const QString bound = atLeast ? QStringLiteral("≥ ") : QString();
    return QStringLiteral("%1%2 critical · %1%3 warning").arg(bound).arg(critical).arg(warning);
}

QString KlusterStanding::breakdown() const
{
    if (critical + warning == 0)
        return QString();
    if (incidents == 0)
        return counted(lone, "finding", "findings");
    const QString causes = QStringLiteral("%1 (%2)").arg(
        counted(incidents, "incident", "incidents"), counted(members, "finding", "findings"));
    return lone == 0 ? causes
                     : causes + QStringLiteral(" · ") + counted(lone, "other finding", "other findings");
}

QString KlusterStanding::text(bool atLeast) const
{
    return incidents == 0 ? headline(atLeast) : headline(atLeast) + QStringLiteral(" — ") + breakdown();
}

QString readingName(Reading reading)
{
    switch (reading) {
    case Reading::NotRead:
        return QStringLiteral("not read");
    case Reading::Fresh:
        return QStringLiteral("fresh");
    case Reading::Incomplete:
        return QStringLiteral("incomplete");
    case Reading::Stale:
        return QStringLiteral("stale");
    case Reading::Unreadable:
        return QStringLiteral("unreadable");
    }
    return QString();
}

namespace KlusterRanking {

namespace {

// The worst cause's rank; unreadable data as a kluster-wide critical cause.
int causeRank(const RankedKluster &k)
{
    if (k.reading == Reading::Unreadable && k.standing.worstRank == INT_MAX)
        return int(Severity::Critical) * 3 + int(Impact::Kluster);
    return k.standing.worstRank == INT_MAX ? 99 : qMin(k.standing.worstRank, 98);
}

bool doubtful(const RankedKluster &k)
{
    return k.reading == Reading::Stale || k.reading == Reading::Incomplete
        || k.reading == Reading::Unreadable;
}

} // namespace

int gravity(const RankedKluster &k)
{
    if (k.standing.worst == Severity::Critical || k.reading == Reading::Unreadable)
        return 1;
    if (k.standing.worst == Severity::Warning)
        return 2;
    return k.reading == Reading::NotRead ? 4 : 3;
}

bool before(const RankedKluster &a, const RankedKluster &b)
{
    if (const int ga = gravity(a), gb = gravity(b); ga != gb)
        return ga < gb;
    if (const int ra = causeRank(a), rb = causeRank(b); ra != rb)
        return ra < rb;
    if (a.standing.critical != b.standing.critical)
        return a.standing.critical > b.standing.critical;
    if (a.standing.warning != b.standing.warning)
        return a.standing.warning > b.standing.warning;
    if (doubtful(a) != doubtful(b))
        return doubtful(a);
    if (a.key.kluster != b.key.kluster)
        return a.key.kluster < b.key.kluster;
    return a.key.connection < b.key.connection;
}

QString sortKey(const RankedKluster &k)
{
    // Fixed-width numbers, each made to sort ascending as before() does; the names last. Written digit by
    // digit: the sort of ten thousand klusters asks for it some three hundred thousand times.
    static constexpr int Most = 9999999;
    QString key;
    key.reserve(24 + k.key.kluster.size() + k.key.connection.size());
    const auto number = [&key](int value, int width) {
        char digits[8];
        value = qBound(0, value, Most);
        for (int i = width - 1; i >= 0; --i) {
            digits[i] = char('0' + value % 10);
            value /= 10;
        }
        key.append(QLatin1String(digits, width));
    };
    number(gravity(k), 1);
    key.append(QLatin1Char(' '));
    number(causeRank(k), 2);
    key.append(QLatin1Char(' '));
    number(Most - qBound(0, k.standing.critical, Most), 7);
    key.append(QLatin1Char(' '));
    number(Most - qBound(0, k.standing.warning, Most), 7);
    key.append(QLatin1Char(' '));
    number(doubtful(k) ? 0 : 1, 1);
    key.append(QLatin1Char(' '));
    key.append(k.key.kluster);
    key.append(QChar(0x1f));
    key.append(k.key.connection);
    return key;
}

QString reason(const RankedKluster &k)
{
    if (k.reading == Reading::Unreadable && k.standing.worstRank == INT_MAX)
        return QStringLiteral("could not be read");
    if (k.reading == Reading::NotRead)
        return QStringLiteral("not checked yet");
    if (k.standing.terminating) // the one finding of a kluster being torn down
        return k.standing.reason;
    if (!k.standing.worst)
        return k.reading == Reading::Incomplete ? QStringLiteral("nothing found in what was read")
                                                : QStringLiteral("healthy");
    return k.standing.reason;
}

QString rule()
{
    return QStringLiteral(
        "Worst first: a critical cause (or a kluster that cannot be read at all) above a warning, above "
        "healthy, above not checked yet; then the cause that takes more of the kluster down (the whole "
        "kluster, a node, a router slot); then more critical, then more warning causes; then data in doubt "
        "(stale, incomplete) above data that is not; then the name.");
}

} // namespace KlusterRanking
