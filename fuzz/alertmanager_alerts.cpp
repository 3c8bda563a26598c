// An Alertmanager's answer to GET /api/v2/alerts, as the Alertmanager a connection names (or anything at that
// URL) may send it: Alerts::parse, then the split by kluster. Input: the body. Expected: no crash; the body
// is read or refused with a ParseError; every alert read has a fingerprint and a valid start; the alerts a
// kluster gets all name it (its first kluster label), none twice, in order of start.

#include "core/alerts.h"
#include "core/json/jsonreader.h"
#include "fuzz/fuzzcommon.h"

#include <QSet>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body = fuzz::bytes(data, size);
    QList<Alert> alerts;
    try {
        alerts = Alerts::parse(QStringLiteral("alerts"), body);
    } catch (const ParseError &) {
        return 0;
    }
    for (const Alert &a : alerts)
        FUZZ_CHECK(a.startsAt.isValid(), "an alert read without a valid start");
    const QStringList labels = Alerts::defaultKlusterLabels();
    for (const QString &name : { QStringLiteral("demo"), QStringLiteral("") }) {
        const QList<Alert> mine = Alerts::ofKluster(alerts, labels, name, QStringLiteral("p1"));
        QSet<QString> seen;
        for (qsizetype i = 0; i < mine.size(); ++i) {
            const Alert &a = mine.at(i);
            FUZZ_CHECK(
                Alerts::belongsTo(a, labels, name, QStringLiteral("p1")), "another kluster's alert kept");
            FUZZ_CHECK(!seen.contains(a.fingerprint), "an alert kept twice");
            seen.insert(a.fingerprint);
            if (i > 0)
                FUZZ_CHECK(mine.at(i - 1).startsAt <= a.startsAt, "the alerts are not in order of start");
            (void)a.summary();
        }
    }
    return 0;
}
