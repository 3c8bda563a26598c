// Kubernikus' events (`GET /api/v1/clusters/{name}/events`, docs/wire-formats.md) as the kluster's timeline
// and the check report read them. Input: the body. Expected: no crash; a body is read or refused with a
// ParseError naming it; what is read holds at most MaxEvents, each text at most MaxFieldChars, newest first;
// and the lines shown of them (the timeline's, the report's) carry no control character.

#include "console/klustertimeline.h"
#include "core/checkreport.h"
#include "core/json/jsonreader.h"
#include "core/kubernikusevent.h"
#include "fuzz/fuzzcommon.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

static void noControls(const QString &text, const char *where)
{
    for (const QChar c : text) {
        if (c != QLatin1Char('\n') && (c.unicode() < 0x20 || c.unicode() == 0x7f))
            qFatal("a control character in %s: %s", where, qPrintable(text));
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QList<KubernikusEvent> events;
    try {
        events = KubernikusEvents::parse(QStringLiteral("kubernikus-events.json"), fuzz::bytes(data, size));
    } catch (const ParseError &e) {
        if (!e.toString().contains(QLatin1String("kubernikus-events.json")))
            qFatal("a refusal that does not name the body: %s", qPrintable(e.toString()));
        return 0;
    }
    if (events.size() > KubernikusEvents::MaxEvents)
        qFatal("%lld events kept", qlonglong(events.size()));
    for (qsizetype i = 0; i < events.size(); ++i) {
        const KubernikusEvent &e = events.at(i);
        if (e.reason.size() > KubernikusEvents::MaxFieldChars
            || e.message.size() > KubernikusEvents::MaxFieldChars
            || e.type.size() > KubernikusEvents::MaxFieldChars)
            qFatal("a text longer than kept");
        if (i > 0 && e.when().isValid()
            && (!events.at(i - 1).when().isValid() || events.at(i - 1).when() < e.when()))
            qFatal("not newest first at %lld", qlonglong(i));
    }
    KlusterState state;
    state.kluster.name = QStringLiteral("k");
    state.capturedAt = QDateTime::fromString(QStringLiteral("2026-11-29T12:00:00Z"), Qt::ISODate);
    state.kubernikusEventsSource.known = true;
    state.kubernikusEvents = events;
    const KlusterTimeline::Lines timeline = KlusterTimeline::lines({}, QString(), &state, state.capturedAt);
    for (const QString &line : timeline.lines)
        noControls(line, "the timeline");
    const Diagnosis diagnosis = Diagnosis::run(state);
    noControls(QString::fromUtf8(CheckReport::toText(state, diagnosis)), "the text report");
    return 0;
}
