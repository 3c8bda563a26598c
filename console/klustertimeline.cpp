#include "console/klustertimeline.h"

#include "console/consoletext.h"
#include "core/klusterstate.h"
#include "core/printable.h"

#include <algorithm>

QString KlusterTimeline::describe(const KubernikusEvent &event, const QDateTime &now)
{
    // Its time first: the message is Kubernikus' sentence, often ending in its own full stop. Only a warning
    // says its type.
    KubernikusEvent shown = event;
    if (!shown.isWarning())
        shown.type.clear();
    return QStringLiteral("Kubernikus, %1: %2")
        .arg(ConsoleText::ago(event.when(), now), OutsideText::line(shown.summary(), 240));
}

KlusterTimeline::Lines KlusterTimeline::lines(const QList<RepairEvent> &repairs, const QString &repairsError,
    const KlusterState *state, const QDateTime &now)
{
    struct Entry
    {
        QDateTime when;
        QString line;
    };
    QList<Entry> entries;
    for (const RepairEvent &r : repairs)
        entries.append({ r.time, RepairEvents::describe(r, now) });
    Lines out;
    if (state) {
        const SourceStatus &source = state->kubernikusEventsSource;
        if (source.known) {
            for (const KubernikusEvent &e :
                KubernikusEvents::since(state->kubernikusEvents, now.addSecs(-KubernikusHours * 3600)))
                entries.append({ e.when(), describe(e, now) });
        } else if (!source.error.isEmpty() && source.error != QLatin1String("not fetched")) {
            out.problems << QStringLiteral("Kubernikus' events not read: %1")
                                .arg(ConsoleText::shortError(source.error));
        }
    }
    std::stable_sort(
        entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.when > b.when; });
    for (qsizetype i = 0; i < std::min<qsizetype>(entries.size(), Shown); ++i)
        out.lines << entries.at(i).line;
    if (entries.size() > Shown)
        out.lines << QStringLiteral("… and %1 older").arg(entries.size() - Shown);
    if (!repairsError.isEmpty())
        out.problems.prepend(QStringLiteral("Repairs by others not read: %1").arg(repairsError));
    return out;
}
