#pragma once

// A real server of Debian's (Prometheus, Alertmanager) on a free port of 127.0.0.1, with a folder of its own
// for its configuration and storage, for the length of a test: what each kind adds is its configuration file
// and its command line (realprometheus.h, realalertmanager.h). The caller waits for /-/ready.

#include <QFile>
#include <QHostAddress>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>
#include <QTcpServer>
#include <QTemporaryDir>

class RealServer
{
public:
    RealServer() = default;
    RealServer(const RealServer &) = delete;
    RealServer &operator=(const RealServer &) = delete;
    ~RealServer() { stop(); }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.kill();
        m_process.waitForFinished();
    }

    QString url; // http://127.0.0.1:<port>, once started

protected:
    // Writes `config` to `name` in the server's folder: its path, or empty when it cannot.
    QString writeConfig(const QString &name, const QByteArray &config)
    {
        QFile file(m_dir.filePath(name));
        if (!m_dir.isValid() || !file.open(QIODevice::WriteOnly) || file.write(config) != config.size())
            return QString();
        return file.fileName();
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // A port no one listens on now.
    static quint16 freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost);
        return probe.serverPort();
    }
    // Starts `binary` with `arguments`, listening on `port` (its log is not the test's).
    bool launch(const QString &binary, const QStringList &arguments, quint16 port)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(QProcess::nullDevice());
        m_process.start(binary, arguments);
        url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        return m_process.waitForStarted();
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};
