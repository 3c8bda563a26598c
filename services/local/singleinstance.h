#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

class QLocalServer;
class QLocalSocket;
class QLockFile;

// One console per user: the first `flightdeck` listens on a local socket in the user's runtime folder
// ($XDG_RUNTIME_DIR/flightdeck.sock, only the user may enter it; or $FLIGHTDECK_INSTANCE); a later
// `flightdeck LINK` hands its link over to it and ends, and the running console opens it and answers how
// that went. Each side checks that the other is a process of the same user (SO_PEERCRED). Without a
// running console the later one opens the link itself.
class SingleInstance : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SingleInstance)

public:
    explicit SingleInstance(QObject *parent = nullptr);
    ~SingleInstance() override;

    static QString socketName();

    enum class HandOver
    {
        Opened, // the running console opened it
        Refused, // the running console could not open it (`error` says why)
        NoConsole, // none answers (`error` says why): open it here
    };
    // Hands `link` to the running console, waiting at most `timeoutMs` in all. Made at start-up, before any
    // window exists.
    static HandOver handOver(const QString &link, int timeoutMs, QString *error);

    // What the running console does with a link handed over: empty when it opened it, else why not.
    using Handler = std::function<QString(const QString &link)>;
    // Listens for links, without waiting: a socket already there is probed, and taken over when no console
    // answers on it and it is a socket of this user's (anything else there is left as it is: problem()).
    // False when the socket's folder is not this user's alone, the socket cannot be made, or another
    // console is starting right now.
    bool listen(Handler handler, QString *error);
    QString problemText() const { return m_problem; }

    // Whether the socket's folder may be used: this user's, a real folder, written by nobody else (the
    // fallback folder is made so where it is missing); false with `why`.
    static bool checkFolder(const QString &socket, QString *why);

signals:
    void problem(const QString &why); // the socket could not be taken over: why (this console takes no links)

private:
    static bool isStaleSocket(const QString &name, QString *why);

    void serve(QLocalSocket *socket);

    QLocalServer *m_server;
    Handler m_handler;
    std::unique_ptr<QLockFile> m_lock; // held while finding out whether another console listens
    QString m_problem;
};
