// The simulator's scenario document (docs/simulator.md): Scenario::load into
// a fresh World and FaultInjector per input.
// Input: the JSON. Expected: false with an error, or true; no crash.

#include "simulator/scenario.h"

#include "fuzz/fuzzcommon.h"
#include "simulator/faults.h"
#include "simulator/world.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    World world;
    FaultInjector faults;
    QString error;
    const bool ok = Scenario::load(fuzz::bytes(data, size), world, faults, &error);
    FUZZ_CHECK(ok || !error.isEmpty(), "load failed without an error");
    return 0;
}
