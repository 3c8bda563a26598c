#include "core/statechangereport.h"

#include "core/json/jsonwriter.h"
#include "core/printable.h"

#include <algorithm>

namespace {

QString plural(qsizetype n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QStringList categoryNames(const QList<ChangeCategory> &categories)
{
    QStringList names;
    for (ChangeCategory c : categories)
        names << StateChanges::name(c);
    return names;
}

} // namespace

QByteArray stateChangesText(const StateDigest &before, const StateDigest &after,
    const QList<StateChange> &changes, const QList<IncidentChange> &incidents)
{
    constexpr qsizetype MaxSubjectWidth = 60;

    QString out
        = QStringLiteral("Kluster %1: changes from %2 to %3\n")
              .arg(printable(after.kluster.isEmpty() ? before.kluster : after.kluster),
                  StateDigest::timestamp(before.capturedAt), StateDigest::timestamp(after.capturedAt));
    if (before.capturedAt > after.capturedAt)
        out += QStringLiteral(
            "Note: the first moment is the later one: these are the changes from %1 back to "
            "%2 (give the earlier first to see what happened since)\n")
                   .arg(StateDigest::timestamp(before.capturedAt), StateDigest::timestamp(after.capturedAt));
    // The incidents first: one cause each, named (diagnosis.md §5).
    if (!incidents.isEmpty())
        out += QLatin1Char('\n');
    for (const IncidentChange &i : incidents)
        out += QStringLiteral("Incident %1: %2 (%3, %4)\n")
                   .arg(StateChanges::name(i.change), printable(i.title), printable(i.id),
                       plural(i.members.size(), QStringLiteral("finding"), QStringLiteral("findings")));
    for (ChangeCategory category : StateChanges::categories()) {
        QList<const StateChange *> group;
        for (const StateChange &c : changes) {
            if (c.category == category)
                group << &c;
        }
        if (group.isEmpty())
            continue;
        qsizetype changeWidth = 0;
        qsizetype subjectWidth = 0;
        for (const StateChange *c : std::as_const(group)) {
            changeWidth = std::max(changeWidth, StateChanges::name(c->change).size());
            if (const qsizetype width = printable(c->subject).size(); width <= MaxSubjectWidth)
                subjectWidth = std::max(subjectWidth, width);
        }
        out += QStringLiteral("\n%1 (%2)\n").arg(StateChanges::heading(category)).arg(group.size());
        for (const StateChange *c : std::as_const(group)) {
            QString line = QStringLiteral("  %1 %2  ")
                               .arg(StateChanges::mark(c->change))
                               .arg(StateChanges::name(c->change).leftJustified(changeWidth));
            // Names come from the cloud: nothing in them may drive the terminal.
            if (c->detail.isEmpty())
                line += printable(c->subject);
            else
                line += printable(c->subject).leftJustified(subjectWidth) + QStringLiteral("  ")
                    + printable(c->detail);
            out += line + QLatin1Char('\n');
        }
    }
    const QStringList skipped = categoryNames(uncomparedCategories(before, after));
    if (!skipped.isEmpty()) {
        QStringList unknown;
        for (Source s : before.unknownSources + after.unknownSources)
            unknown << Sources::key(s);
        unknown.removeDuplicates();
        out += QStringLiteral(
            "\nNot compared: %1 (not known, or not complete, at one of the two moments: %2)\n")
                   .arg(skipped.join(QStringLiteral(", ")), unknown.join(QStringLiteral(", ")));
    }
    if (!changes.isEmpty())
        out += QStringLiteral("\n%1\n").arg(
            plural(changes.size(), QStringLiteral("change"), QStringLiteral("changes")));
    else
        out += incidents.isEmpty() ? QStringLiteral("\nno changes\n")
                                   : QStringLiteral("\nno other changes\n");
    return out.toUtf8();
}

QByteArray stateChangesJson(const StateDigest &before, const StateDigest &after,
    const QList<StateChange> &changes, const QList<IncidentChange> &incidents)
{
    JsonWriter w;
    w.beginObject();
    w.key(QStringLiteral("kluster"));
    w.value(after.kluster.isEmpty() ? before.kluster : after.kluster);
    w.key(QStringLiteral("before"));
    w.value(StateDigest::timestamp(before.capturedAt));
    w.key(QStringLiteral("after"));
    w.value(StateDigest::timestamp(after.capturedAt));
    w.key(QStringLiteral("reversed")); // the first moment is the later one
    w.value(before.capturedAt > after.capturedAt);
    w.key(QStringLiteral("incidents"));
    w.beginArray();
    for (const IncidentChange &i : incidents) {
        w.beginObject();
        w.key(QStringLiteral("change"));
        w.value(StateChanges::name(i.change));
        w.key(QStringLiteral("id"));
        w.value(i.id);
        w.key(QStringLiteral("rule"));
        w.value(incidentRuleName(i.rule));
        w.key(QStringLiteral("severity"));
        w.value(severityName(i.severity));
        w.key(QStringLiteral("title"));
        w.value(i.title);
        w.key(QStringLiteral("members"));
        w.beginArray();
        for (const QString &member : i.members)
            w.value(member);
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("changes"));
    w.beginArray();
    for (const StateChange &c : changes) {
        w.beginObject();
        w.key(QStringLiteral("category"));
        w.value(StateChanges::name(c.category));
        w.key(QStringLiteral("change"));
        w.value(StateChanges::name(c.change));
        w.key(QStringLiteral("subject"));
        w.value(c.subject);
        w.key(QStringLiteral("detail"));
        w.value(c.detail);
        w.endObject();
    }
    w.endArray();
    w.key(QStringLiteral("summary"));
    w.beginObject();
    for (ChangeCategory category : StateChanges::categories()) {
        w.key(StateChanges::name(category));
        w.value(int(std::count_if(changes.cbegin(), changes.cend(),
            [category](const StateChange &c) { return c.category == category; })));
    }
    w.endObject();
    w.key(QStringLiteral("notCompared"));
    w.beginArray();
    for (const QString &category : categoryNames(uncomparedCategories(before, after)))
        w.value(category);
    w.endArray();
    w.endObject();
    return w.takeBytes();
}
