#pragma once

// A real Alertmanager (Debian's prometheus-alertmanager, installed by scripts/setup) on a free port of
// 127.0.0.1, with its own storage, for the length of a test; the caller waits for /-/ready.

#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

class RealAlertmanager
{
public:
    RealAlertmanager() = default;
    RealAlertmanager(const RealAlertmanager &) = delete;
    RealAlertmanager &operator=(const RealAlertmanager &) = delete;
    ~RealAlertmanager() { stop(); }

    static QString binary()
    {
        const QString debian = QStandardPaths::findExecutable(QStringLiteral("prometheus-alertmanager"));
        return debian.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("alertmanager")) : debian;
    }
    // Starts it; false when it is not installed or does not start.
    bool start()
    {
        if (binary().isEmpty() || !m_dir.isValid())
            return false;
        QFile config(m_dir.filePath(QStringLiteral("alertmanager.yml")));
        if (!config.open(QIODevice::WriteOnly))
            return false;
        config.write("route:\n  receiver: nobody\nreceivers:\n  - name: nobody\n");
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
                QStringLiteral("--storage.path=") + m_dir.filePath(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(port),
                QStringLiteral("--cluster.listen-address=") });
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
