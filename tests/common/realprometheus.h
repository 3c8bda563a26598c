#pragma once

// A real Prometheus (Debian's prometheus, installed by scripts/setup) on a free port of 127.0.0.1, with its
// own storage, scraping `targets` (host:port, plain HTTP) as the job "flightdeck" every second, for the
// length of a test; the caller waits for /-/ready.

#include "tests/common/realserver.h"

class RealPrometheus : public RealServer
{
public:
    static QString binary() { return QStandardPaths::findExecutable(QStringLiteral("prometheus")); }
    // Starts it; false when it is not installed or does not start.
    bool start(const QStringList &targets)
    {
        QByteArray list;
        for (const QString &t : targets)
            list += (list.isEmpty() ? "'" : ", '") + t.toUtf8() + "'";
        const QString config = writeConfig(QStringLiteral("prometheus.yml"),
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: flightdeck\n"
            "    static_configs:\n      - targets: ["
                + list + "]\n");
        if (binary().isEmpty() || config.isEmpty())
            return false;
        const quint16 port = freePort();
        return launch(binary(),
            { QStringLiteral("--config.file=") + config,
                QStringLiteral("--storage.tsdb.path=") + path(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port) },
            port);
    }
};
