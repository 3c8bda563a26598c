#include "console/handoff.h"

#include "console/klusterstore.h"
#include "console/klustertimeline.h"
#include "core/diagnosis.h"
#include "core/finding.h"
#include "core/incidents.h"
#include "core/klusterstanding.h"
#include "core/printable.h"

namespace {

// Inline code of text that may come from outside: one line, made safe to show, no backtick to end it early.
QString code(const QString &text)
{
    QString t = OutsideText::line(text, 200);
    t.replace(QLatin1Char('`'), QLatin1Char('\''));
    return QLatin1Char('`') + t + QLatin1Char('`');
}

// One line of Markdown from text that may come from outside: made safe to show (bidirectional controls
// removed, control characters escaped, cut short), every character that could start a link, emphasis, an
// HTML tag or a table cell escaped, the backslash first (so that "\[Approve\](…)" stays text).
QString line(const QString &text, int maxChars = 400)
{
    const QString t = OutsideText::line(text, maxChars);
    QString out;
    out.reserve(t.size() + 16);
    for (const QChar c : t) {
        if (QStringView(u"\\`*_[]<>|~").contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

// The most items a section lists, and the most the whole hand-off holds.
constexpr int MaxItems = 20;
constexpr int MaxChars = 64 * 1024;

QString clock(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

QString duration(qint64 seconds)
{
    seconds = qMax<qint64>(0, seconds);
    if (seconds < 3600)
        return QStringLiteral("%1 min").arg(qMax<qint64>(1, seconds / 60));
    if (seconds < 86400)
        return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60);
    return QStringLiteral("%1 d %2 h").arg(seconds / 86400).arg((seconds % 86400) / 3600);
}

} // namespace

QString Handoff::markdown(const Facts &f)
{
    QStringList out;
    const Diagnosis *diagnosis = f.data && f.data->diagnosis ? f.data->diagnosis.get() : nullptr;
    const Incident *incident = nullptr;
    if (diagnosis && !f.incident.isEmpty()) {
        for (const Incident &i : diagnosis->incidents) {
            if (i.id() == f.incident)
                incident = &i;
        }
    }
    // Which findings this hand-off is about: the incident's members, or all of the kluster's.
    QList<const Finding *> findings;
    if (diagnosis) {
        for (const Finding &finding : diagnosis->findings) {
            if (finding.severity == Severity::Info)
                continue;
            if (incident && !incident->members.contains(finding.id()))
                continue;
            findings << &finding;
        }
    }
    int critical = 0;
    int warning = 0;
    for (const Finding *finding : std::as_const(findings))
        (finding->severity == Severity::Critical ? critical : warning) += 1;

    if (incident)
        out << QStringLiteral("## Incident %1 in kluster %2 (%3)")
                   .arg(code(incident->id()), code(f.key.kluster), code(f.key.connection));
    else
        out << QStringLiteral("## Kluster %1 (%2)").arg(code(f.key.kluster), code(f.key.connection));
    out << QString();
    if (incident)
        out << QStringLiteral("**%1**: %2").arg(severityName(incident->severity), line(incident->title));
    // A stalled actor of Kubernikus is handed to whoever runs it (diagnosis.md §7).
    if (const std::optional<Actor> actor = incident ? incident->actor() : std::nullopt)
        out << QStringLiteral("**Hand it to** %1: %2 is not doing its job.")
                   .arg(line(Actors::owners(*actor)), code(Actors::name(*actor)));
    if (!diagnosis) {
        out << QStringLiteral("Not read yet: nothing is known of it.");
    } else if (findings.isEmpty()) {
        out << QStringLiteral("Nothing is wrong: no critical or warning finding.");
    } else if (incident) {
        out << QStringLiteral("**%1 critical · %2 warning** finding%3.")
                   .arg(critical)
                   .arg(warning)
                   .arg(critical + warning == 1 ? QString() : QStringLiteral("s"));
    } else {
        // The kluster counted as the console's list and check --all count it: causes, an incident once.
        const KlusterStanding standing = KlusterStanding::of(*diagnosis);
        out << QStringLiteral("**%1**; worst: %2 (%3).")
                   .arg(standing.text(f.data && !f.data->incomplete.isEmpty()), line(standing.reason),
                       code(standing.worstCause));
    }
    if (!f.link.isEmpty())
        out << QStringLiteral("Open in Flightdeck: <%1>").arg(f.link);
    if (f.data && f.data->fetch) {
        QString as = QStringLiteral("Data as of %1").arg(clock(f.data->fetchedAt));
        if (f.data->isStale())
            as += QStringLiteral(" (stale: the last refresh failed at %1)").arg(clock(f.data->errorAt));
        out << as + QLatin1Char('.');
    }

    // A kluster's causes first: each incident, and its one repair or why it has none.
    if (!incident && diagnosis && !diagnosis->incidents.isEmpty()) {
        out << QString() << QStringLiteral("### Incidents");
        for (const Incident &i : diagnosis->incidents.mid(0, MaxItems)) {
            const QStringList repairable = i.repairFindings();
            out << QStringLiteral("- **%1** %2: %3 — %4")
                       .arg(severityName(i.severity), code(i.id()), line(i.title),
                           repairable.isEmpty()
                               ? line(i.noRepairReason())
                               : QStringLiteral("its one repair: %1").arg(line(i.repairTitle)));
        }
        if (diagnosis->incidents.size() > MaxItems)
            out << QStringLiteral("- … and %1 more").arg(diagnosis->incidents.size() - MaxItems);
    }

    if (!findings.isEmpty()) {
        out << QString() << QStringLiteral("### What is wrong");
        for (const Finding *finding : findings.mid(0, MaxItems)) {
            QString item
                = QStringLiteral("- **%1** %2: %3")
                      .arg(severityName(finding->severity), code(finding->id()), line(finding->message()));
            const auto h = f.since.constFind(finding->id());
            if (h != f.since.cend() && h->firstSeen.isValid())
                item += QStringLiteral(" (since %1%2, %3)")
                            .arg(h->beforeHistory ? QStringLiteral("before ") : QString(),
                                clock(h->firstSeen), duration(h->firstSeen.secsTo(f.now)));
            const auto a = f.acknowledged.constFind(finding->id());
            if (a != f.acknowledged.cend() && a->until > f.now)
                item += QStringLiteral(" — acknowledged by %1 until %2%3")
                            .arg(line(a->by, 64), clock(a->until),
                                a->note.isEmpty() ? QString() : QStringLiteral(": ") + line(a->note, 200));
            out << item;
        }
        if (findings.size() > MaxItems)
            out << QStringLiteral("- … and %1 more (in Flightdeck: the link above)")
                       .arg(findings.size() - MaxItems);
    }

    if (f.alerts.configured) {
        out << QString() << QStringLiteral("### Alerts");
        int shown = 0;
        qsizetype more = f.alerts.omitted;
        QList<Alert> worst = f.alerts.alerts;
        std::stable_sort(worst.begin(), worst.end(), Alerts::worstFirst);
        for (const Alert &a : std::as_const(worst)) {
            if (incident) {
                bool concerns = false;
                for (const QString &id : a.findings)
                    concerns = concerns || incident->members.contains(id);
                if (!concerns)
                    continue;
            }
            if (++shown > MaxItems) {
                ++more;
                continue;
            }
            out << QStringLiteral("- %1 %2 since %3%4: %5")
                        .arg(a.severity().isEmpty() ? QString()
                                                    : QStringLiteral("**%1**").arg(line(a.severity())),
                            code(a.name()), clock(a.startsAt),
                            a.silenced() ? QStringLiteral(" (silenced)") : QString(), line(a.summary()))
                    + (a.findings.isEmpty()
                            ? QStringLiteral(" — no finding explains it")
                            : QStringLiteral(" — %1").arg(line(a.findings.join(QStringLiteral(", ")))));
        }
        if (more > 0)
            out << QStringLiteral("- … and %1 more, less grave.").arg(more);
        if (!f.alerts.known)
            out << QStringLiteral("- Not read: %1").arg(line(f.alerts.error));
        else if (shown == 0)
            out << QStringLiteral("- None firing.");
    }

    QStringList repairs;
    for (const RepairEvent &r : f.repairs) {
        if (incident) {
            bool concerns = false;
            for (const QString &id : r.findings)
                concerns = concerns || incident->members.contains(id);
            if (!concerns)
                continue;
        }
        repairs << QStringLiteral("- %1 at %2").arg(line(RepairEvents::describe(r, f.now)), clock(r.time));
    }
    if (repairs.size() > MaxItems) {
        const qsizetype more = repairs.size() - MaxItems;
        repairs = repairs.mid(0, MaxItems);
        repairs << QStringLiteral("- … and %1 more.").arg(more);
    }
    out << QString() << QStringLiteral("### Repairs (last hour)");
    out << (repairs.isEmpty() ? QStringList { QStringLiteral("- None recorded in the kluster's Events.") }
                              : repairs);

    // What Kubernikus itself recorded (the kluster's hand-off: an incident's concerns its members only).
    if (!incident && f.data && f.data->fetch && f.data->fetch->state.kubernikusEventsSource.known) {
        const QList<KubernikusEvent> lately = KubernikusEvents::since(
            f.data->fetch->state.kubernikusEvents, f.now.addSecs(-KlusterTimeline::KubernikusHours * 3600));
        if (!lately.isEmpty()) {
            out << QString() << QStringLiteral("### Kubernikus' events (last day)");
            for (const KubernikusEvent &e : lately.mid(0, MaxItems))
                out << QStringLiteral("- %1 at %2").arg(line(e.summary()), clock(e.when()));
            if (lately.size() > MaxItems)
                out << QStringLiteral("- … and %1 older.").arg(lately.size() - MaxItems);
        }
    }

    out << QString() << QStringLiteral("### What is left");
    if (!diagnosis) {
        out << QStringLiteral("- Read the kluster first.");
    } else if (findings.isEmpty()) {
        out << QStringLiteral("- Nothing.");
    } else {
        int repairable = 0;
        for (const Finding *finding : std::as_const(findings))
            repairable += finding->repair(PlanForm::Delta) ? 1 : 0; // whether, not how
        const std::optional<RepairPlan> incidentRepair = incident ? incident->repair() : std::nullopt;
        if (incidentRepair)
            out << QStringLiteral("- The incident's one repair: %1.").arg(line(incidentRepair->title));
        else if (repairable > 0)
            out << QStringLiteral("- %1 of %2 findings have a repair in Flightdeck (preview with Ctrl+R).")
                       .arg(repairable)
                       .arg(findings.size());
        if (repairable < findings.size())
            out << QStringLiteral("- %1 need a person: see each finding's runbook.")
                       .arg(findings.size() - repairable);
    }
    QString text = out.join(QLatin1Char('\n')) + QLatin1Char('\n');
    if (text.size() > MaxChars) // a hand-off is read in a chat or a ticket: bounded, and says it is cut
        text = text.left(MaxChars - 80)
            + QStringLiteral("\n\n(cut at %1 KiB: the rest is in Flightdeck)\n").arg(MaxChars / 1024);
    return text;
}
