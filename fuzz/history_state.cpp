// A state of a kluster as the local history keeps it in history.sqlite (a file on disk that may be damaged):
// the stored blob unpacked (HistoryStore::unpackDigest: compressed, its size claimed in its first bytes),
// then read as a digest (StateDigest::fromJson), and compared with itself.
// Input: the stored blob. Expected: no crash, no allocation past what a body may be; a refused digest comes
// with an error; an accepted one writes back to itself.

#include "core/statediff.h"
#include "fuzz/fuzzcommon.h"
#include "services/history/historystore.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray stored = fuzz::bytes(data, size);
    const QByteArray json = HistoryStore::unpackDigest(stored);
    FUZZ_CHECK(json.size() <= 1024 * 1024, "unpacked past the limit: %lld bytes", qint64(json.size()));
    if (json.isEmpty())
        return 0;
    QString error;
    const std::optional<StateDigest> digest = StateDigest::fromJson(json, &error);
    if (!digest) {
        FUZZ_CHECK(!error.isEmpty(), "a digest was refused without an error");
        return 0;
    }
    QString again;
    const std::optional<StateDigest> back = StateDigest::fromJson(digest->toJson(), &again);
    FUZZ_CHECK(
        back.has_value() && *back == *digest, "an accepted digest does not read back: %s", qPrintable(again));
    FUZZ_CHECK(diffStates(*digest, *back).isEmpty(), "a digest differs from itself");
    return 0;
}
