#pragma once

// What every executable of Flightdeck does first: no core dump, ever. A core file would hold whatever the
// process held at the moment it died (an abort with cores enabled once wrote one holding the password), and
// a process that cannot be dumped cannot be read by another of this user's through ptrace or /proc/<pid>/mem
// either. A Qt string cannot be kept out of swap or wiped where Qt copies it (its network stack keeps the
// request bodies that carry a password), so the process as a whole is what is kept out of dumps.
namespace Hardening {

void noCoreDumps();

// Raises the open-file limit to what the system allows this user (the soft limit is often 1,024, the hard
// one far more): a fleet holds a socket per kluster API it reads and per node watch. Returns the limit now.
int moreOpenFiles();

} // namespace Hardening
