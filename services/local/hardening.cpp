#include "services/local/hardening.h"

#include <QtGlobal>
#include <sys/prctl.h>
#include <sys/resource.h>

namespace Hardening {

void noCoreDumps()
{
    const rlimit none { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &none);
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int moreOpenFiles()
{
    rlimit files {};
    if (::getrlimit(RLIMIT_NOFILE, &files) != 0)
        return 1024;
    const rlim_t wanted
        = files.rlim_max == RLIM_INFINITY ? rlim_t(65536) : qMin<rlim_t>(files.rlim_max, 65536);
    if (files.rlim_cur != RLIM_INFINITY && files.rlim_cur < wanted) {
        files.rlim_cur = wanted;
        ::setrlimit(RLIMIT_NOFILE, &files);
        ::getrlimit(RLIMIT_NOFILE, &files);
    }
    return files.rlim_cur == RLIM_INFINITY ? 65536 : int(qMin<rlim_t>(files.rlim_cur, 1 << 30));
}

} // namespace Hardening
