// The Events a kluster's API server lists (`GET /apis/events.k8s.io/v1/namespaces/default/events`), as any
// API server (or anything answering at its address) may send them: RepairEvent::fromEventList and what the
// console makes of them. Input: the body. Expected: no crash; only flightdeck's repair Events are read, each
// with a valid time, at most RepairEvent::MaxEvents of them, no field longer than MaxFieldChars; the latest
// per repair names each audit id once, newest first, and none ends before its start; what is warned of is
// among them; each describes itself in a bounded line with no control or bidirectional character.

#include "core/printable.h"
#include "core/repairevent.h"
#include "fuzz/fuzzcommon.h"

#include <QJsonDocument>
#include <QSet>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument doc = QJsonDocument::fromJson(fuzz::bytes(data, size));
    if (!doc.isObject())
        return 0;
    const QList<RepairEvent> events = RepairEvent::fromEventList(doc.object());
    FUZZ_CHECK(events.size() <= RepairEvent::MaxEvents, "more Events kept than the bound");
    for (const RepairEvent &e : events) {
        for (const QString *field : { &e.repair, &e.user, &e.auditId, &e.outcome, &e.instance, &e.kluster })
            FUZZ_CHECK(field->size() <= RepairEvent::MaxFieldChars, "a field longer than the bound");
        FUZZ_CHECK(e.findings.size() <= RepairEvent::MaxFindings, "more findings than the bound");
    }
    for (qsizetype i = 0; i < events.size(); ++i) {
        FUZZ_CHECK(events.at(i).time.isValid(), "an Event read without a valid time");
        if (i > 0)
            FUZZ_CHECK(events.at(i - 1).time <= events.at(i).time, "the Events are not oldest first");
        const QJsonObject back = events.at(i).toEvent();
        FUZZ_CHECK(back.value(QStringLiteral("note")).toString().toUtf8().size() <= 1024, "a note over 1 kB");
    }
    const QDateTime now = events.isEmpty() ? QDateTime::currentDateTimeUtc() : events.last().time;
    const QList<RepairEvent> latest = RepairEvents::latestPerRepair(events);
    QSet<QString> ids;
    for (qsizetype i = 0; i < latest.size(); ++i) {
        FUZZ_CHECK(!ids.contains(latest.at(i).auditId), "a repair listed twice");
        ids.insert(latest.at(i).auditId);
        if (i > 0)
            FUZZ_CHECK(latest.at(i - 1).time >= latest.at(i).time, "the repairs are not newest first");
        const QString line = RepairEvents::describe(latest.at(i), now);
        FUZZ_CHECK(line.size() < 2000, "a description without bound");
        for (const QChar c : line)
            FUZZ_CHECK(c.unicode() >= 0x20 && !OutsideText::isBidiControl(c.unicode()) && c.unicode() != 0x7f,
                "a control or bidirectional character shown");
    }
    FUZZ_CHECK(
        RepairEvents::describeNewest(latest, now).size() <= RepairEvents::Shown + 1, "a list without bound");
    for (const RepairEvent &e : RepairEvents::teammatesStarted(events, QStringLiteral("me"), now))
        FUZZ_CHECK(
            ids.contains(e.auditId) && e.instance != QLatin1String("me"), "warned of what was not read");
    return 0;
}
