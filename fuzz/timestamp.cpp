// RFC 3339 timestamps as the APIs write them (ApiParser::parseTimestamp, used
// for created, expires_at, creationTimestamp, expirationTimestamp, capturedAt),
// with and without a required zone, and formatTimestamp on what is accepted.
// Input: the text (UTF-8). Expected: no crash; an accepted timestamp formats to
// a text that parses back to the same instant (to the second); the hand-written
// reading accepts and refuses what the pattern and Qt's ISO reading did
// (tests/common/referencetimestamp.h), to the millisecond.

#include "core/apiparser.h"
#include "fuzz/fuzzcommon.h"
#include "tests/common/referencetimestamp.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    for (const bool requireZone : { false, true }) {
        const QDateTime t = ApiParser::parseTimestamp(text, requireZone);
        const QDateTime reference = referenceParseTimestamp(text, requireZone);
        FUZZ_CHECK(t.isValid() == reference.isValid() && (!t.isValid() || t == reference),
            "\"%s\" is read as %s, the reference reads %s", qPrintable(text.left(80)),
            qPrintable(t.toString(Qt::ISODateWithMs)), qPrintable(reference.toString(Qt::ISODateWithMs)));
        if (!t.isValid())
            continue;
        const QString formatted = ApiParser::formatTimestamp(t);
        const QDateTime again = ApiParser::parseTimestamp(formatted, true);
        FUZZ_CHECK(again.isValid(), "\"%s\" was accepted but its formatted form \"%s\" is refused",
            qPrintable(text.left(80)), qPrintable(formatted));
        const QDateTime toTheSecond = t.addMSecs(-t.time().msec());
        FUZZ_CHECK(again == toTheSecond, "\"%s\" round-trips to \"%s\"", qPrintable(text.left(80)),
            qPrintable(formatted));
    }
    return 0;
}
