#include "services/hardening.h"

#include <sys/prctl.h>
#include <sys/resource.h>

namespace Hardening {

void noCoreDumps()
{
    const rlimit none { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &none);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

} // namespace Hardening
