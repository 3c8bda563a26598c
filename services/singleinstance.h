#pragma once

#include <QObject>
#include <QString>

class QLocalServer;

// One console per user: the first `flightdeck` listens on a local socket only its user may open
// (`flightdeck-<uid>`, or $FLIGHTDECK_INSTANCE); a later `flightdeck LINK` hands its link over to it and
// ends, and the running console opens it. Without a running console the later one opens the link itself.
class SingleInstance : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SingleInstance)

public:
    explicit SingleInstance(QObject *parent = nullptr);
    ~SingleInstance() override;

    static QString socketName();
    // Hands `link` to the running console: true once it took it (it answers "ok"); false when none runs
    // (or it did not answer within `timeoutMs`), with `error`. Made at start-up, before any window.
    static bool handOver(const QString &link, int timeoutMs, QString *error);
    // Listens for links; false when another console already does (or the socket cannot be made).
    bool listen(QString *error);

signals:
    void linkReceived(const QString &link);

private:
    QLocalServer *m_server;
};
