#pragma once

// A real Alertmanager (Debian's prometheus-alertmanager, installed by scripts/setup) on a free port of
// 127.0.0.1, with its own storage, for the length of a test; the caller waits for /-/ready.

#include "tests/common/realserver.h"

class RealAlertmanager : public RealServer
{
public:
    static QString binary()
    {
        const QString debian = QStandardPaths::findExecutable(QStringLiteral("prometheus-alertmanager"));
        return debian.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("alertmanager")) : debian;
    }
    // Starts it; false when it is not installed or does not start.
    bool start()
    {
        const QString config = writeConfig(
            QStringLiteral("alertmanager.yml"), "route:\n  receiver: nobody\nreceivers:\n  - name: nobody\n");
        if (binary().isEmpty() || config.isEmpty())
            return false;
        const quint16 port = freePort();
        return launch(binary(),
            { QStringLiteral("--config.file=") + config,
                QStringLiteral("--storage.path=") + path(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port),
                QStringLiteral("--cluster.listen-address=") },
            port);
    }
};
