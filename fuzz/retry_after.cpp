// Retry-After header values (delay-seconds or an HTTP date, RFC 9110 10.2.3):
// RetryPolicy::parseRetryAfterMs and RetryPolicy::delayFor for every attempt.
// Input: the header value. Expected: parseRetryAfterMs gives -1 or a delay
// >= 0; delayFor gives -1 past the last attempt, else a delay in
// [0, maxDelayMs].

#include "fuzz/fuzzcommon.h"
#include "services/http/httpclient.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray value = fuzz::bytes(data, size);
    const int ms = RetryPolicy::parseRetryAfterMs(value);
    FUZZ_CHECK(
        ms >= -1, "parseRetryAfterMs(\"%s\") = %d", value.left(80).toPercentEncoding(" :,").constData(), ms);
    const RetryPolicy policy;
    for (int attempt = 2; attempt <= policy.maxAttempts + 1; ++attempt) {
        const int delay = policy.delayFor(attempt, value);
        if (attempt > policy.maxAttempts)
            FUZZ_CHECK(delay == -1, "delayFor(%d) = %d past the last attempt", attempt, delay);
        else
            FUZZ_CHECK(delay >= 0 && delay <= policy.maxDelayMs, "delayFor(%d, \"%s\") = %d", attempt,
                value.left(80).toPercentEncoding(" :,").constData(), delay);
    }
    return 0;
}
