// The team's Prometheus as the fleet reads it (core/exportedfleet.h): an instant query's answer
// (`/api/v1/query`: {"status", "data": {"resultType": "vector", "result": [...]}}) read by
// ExportedFleet::parseVector, put in the round's place the first byte chooses (current series, incidents,
// held, exporters), and assembled. Expected: no exception but ParseError, no crash; each kluster once, with
// an exporter count of at least one, ranked, and the exporters' klusters no more than the klusters. Two more
// places: an exporter's /klusters/<name> report (ExporterReport::parse: counts never negative), and
// Prometheus' /api/v1/targets (ExporterReport::exporterUrl: an http(s) URL with a host, or none).

#include "core/exportedfleet.h"
#include "core/exporterreport.h"
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
    if (size == 0)
        return 0;
    const int slot = data[0] % (ExportedFleet::QueryCount + 2);
    const QByteArray body = fuzz::bytes(data + 1, size - 1);
    try {
        if (slot == ExportedFleet::QueryCount) {
            const ExporterReport::Report r = ExporterReport::parse(body, QStringLiteral("the report"));
            FUZZ_CHECK(r.critical >= 0 && r.warning >= 0 && r.info >= 0, "a negative count");
            return 0;
        }
        if (slot == ExportedFleet::QueryCount + 1) {
            if (const std::optional<QUrl> url
                = ExporterReport::exporterUrl(body, QStringLiteral("127.0.0.1:9473"),
                    QStringLiteral("flightdeck"), QStringLiteral("targets"))) {
                FUZZ_CHECK(url->isValid() && !url->host().isEmpty(), "an exporter URL without a host");
                FUZZ_CHECK(url->scheme() == QLatin1String("http") || url->scheme() == QLatin1String("https"),
                    "an exporter URL that is not http(s)");
                (void)ExporterReport::reportUrl(*url, QStringLiteral("k"), QStringLiteral("p"));
            }
            return 0;
        }
        QList<QList<ExportedFleet::Sample>> answers(ExportedFleet::QueryCount);
        answers[slot] = ExportedFleet::parseVector(body, QStringLiteral("the query"));
        // The same answer as current series too: what it holds of klusters is read as a round would.
        if (slot != int(ExportedFleet::Query::Current))
            answers[int(ExportedFleet::Query::Current)] = answers.at(slot);
        const ExportedFleet::Fleet fleet = ExportedFleet::assemble(answers);
        QSet<QString> seen;
        int byExporters = 0;
        for (const ExportedFleet::Kluster &k : fleet.klusters) {
            FUZZ_CHECK(!seen.contains(k.identity()), "a kluster twice");
            seen.insert(k.identity());
            FUZZ_CHECK(k.exporters >= 1, "a kluster given by no exporter");
            FUZZ_CHECK(k.reading != Reading::NotRead, "a kluster not ranked");
            FUZZ_CHECK(!k.name.isEmpty(), "a kluster without a name");
        }
        for (const ExportedFleet::Exporter &e : fleet.exporters)
            byExporters += e.klusters;
        FUZZ_CHECK(byExporters <= int(fleet.klusters.size()), "exporters gave more klusters than there are");
        FUZZ_CHECK(ExportedFleet::displayNames(fleet).size() == fleet.klusters.size(), "a name per kluster");
        (void)ExportedFleet::exportersText(fleet);
    } catch (const ParseError &) { }
    return 0;
}
