#pragma once

// A real Prometheus (Debian's prometheus, installed by scripts/setup) on a free port of 127.0.0.1, with its
// own storage, scraping `targets` (host:port, plain HTTP) as the job "flightdeck" every second, for the
// length of a test; the caller waits for /-/ready.

#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTcpServer>
#include <QTemporaryDir>

class RealPrometheus
{
public:
    RealPrometheus() = default;
    RealPrometheus(const RealPrometheus &) = delete;
    RealPrometheus &operator=(const RealPrometheus &) = delete;
    ~RealPrometheus() { stop(); }

    static QString binary() { return QStandardPaths::findExecutable(QStringLiteral("prometheus")); }
    // Starts it; false when it is not installed or does not start.
    bool start(const QStringList &targets)
    {
        if (binary().isEmpty() || !m_dir.isValid())
            return false;
        QFile config(m_dir.filePath(QStringLiteral("prometheus.yml")));
        if (!config.open(QIODevice::WriteOnly))
            return false;
        QByteArray list;
        for (const QString &t : targets)
            list += (list.isEmpty() ? "'" : ", '") + t.toUtf8() + "'";
        config.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: flightdeck\n"
                     "    static_configs:\n      - targets: ["
            + list + "]\n");
        config.close();
        quint16 port = 0;
        {
            QTcpServer probe;
            probe.listen(QHostAddress::LocalHost);
            port = probe.serverPort();
        }
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(QProcess::nullDevice()); // its log is not the test's
        m_process.start(binary(),
            { QStringLiteral("--config.file=") + config.fileName(),
                QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port) });
        url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        return m_process.waitForStarted();
    }
    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished();
    }

    QString url;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};
