#pragma once

#include "core/bootevidence.h"

#include <functional>

class KeystoneSession;
class QObject;

// Reads a server's boot evidence (core/bootevidence.h) from Nova, on demand: its console log's tail
// (`POST /servers/{id}/action {"os-getConsoleOutput": {"length": 50}}`) and its actions (`GET
// /servers/{id}/os-instance-actions`), both at once. `done` runs once, in `context`'s thread, with each part
// read or why not (a 409 is a server whose console is not there yet, a 403 one these credentials may not
// read: Nova's default policy gives the console to a project member and the actions to a reader). Nothing
// runs once `context` is gone.
namespace BootEvidenceReader {

void read(KeystoneSession *session, const BootEvidences::Server &server, QObject *context,
    const std::function<void(const BootEvidence &)> &done);

} // namespace BootEvidenceReader
