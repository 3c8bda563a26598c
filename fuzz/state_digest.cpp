// A kluster's state digest as the local history keeps it (StateDigest::fromJson reads it back from
// history.sqlite, a file on disk that may be damaged), and the diff of what is accepted.
// Input: the digest's JSON. Expected: no crash; a refused digest comes with an error; an accepted one writes
// back (toJson) to a digest that reads the same, and differs from itself in nothing.

#include "core/statechangereport.h"
#include "fuzz/fuzzcommon.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QString error;
    const std::optional<StateDigest> digest = StateDigest::fromJson(fuzz::bytes(data, size), &error);
    if (!digest) {
        FUZZ_CHECK(!error.isEmpty(), "a digest was refused without an error");
        return 0;
    }
    const QByteArray written = digest->toJson();
    QString again;
    const std::optional<StateDigest> back = StateDigest::fromJson(written, &again);
    FUZZ_CHECK(back.has_value(), "an accepted digest does not read back: %s", qPrintable(again));
    FUZZ_CHECK(*back == *digest, "a digest reads back different: %s", written.left(200).constData());
    FUZZ_CHECK(back->toJson() == written, "a digest writes differently the second time");
    FUZZ_CHECK(diffStates(*digest, *digest).isEmpty(), "a digest differs from itself");
    (void)stateChangesText(*digest, *back, diffStates(*digest, *back));
    return 0;
}
