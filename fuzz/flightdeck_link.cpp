// A flightdeck:// link, as a browser, a chat, an alert's annotation or a second `flightdeck LINK` hands it to
// the console: FlightdeckLink::parse. Input: the link's text (UTF-8). Expected: no crash; a link read names a
// cloud and a kluster, holds no control character, and reads back the same once written again.

#include "core/flightdecklink.h"
#include "fuzz/fuzzcommon.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    QString error;
    const std::optional<FlightdeckLink> link = FlightdeckLink::parse(text, &error);
    if (!link) {
        FUZZ_CHECK(!error.isEmpty(), "a link refused without a reason");
        return 0;
    }
    FUZZ_CHECK(
        !link->cloud.isEmpty() && !link->kluster.isEmpty(), "a link read without its cloud or kluster");
    for (const QString &part : { link->cloud, link->kluster, link->item }) {
        for (const QChar c : part)
            FUZZ_CHECK(c.category() != QChar::Other_Control && c.category() != QChar::Other_Format
                    && c.category() != QChar::Separator_Line && c.category() != QChar::Separator_Paragraph,
                "a control or format character read into a link");
    }
    const std::optional<FlightdeckLink> again = FlightdeckLink::parse(link->toString(), &error);
    FUZZ_CHECK(again && *again == *link, "a link does not read back as written");
    return 0;
}
