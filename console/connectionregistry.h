#pragma once

#include "core/error.h"
#include "services/connection.h"

#include <QList>
#include <QObject>
#include <QString>
#include <functional>

class KlusterStore;
class QThread;

// How a connection stands, typed: listing its klusters, failed to list them (and why), or listed (how many,
// how many of them could not be refreshed). toText() says it in words for a list of connections.
struct ConnectionStatus
{
    enum class State
    {
        Unknown, // no such connection
        Listing,
        Failed,
        Listed,
    };
    State state = State::Unknown;
    int klusters = 0;
    int stale = 0; // klusters whose last refresh failed
    Error error; // why the listing failed

    QString toText() const; // "3 klusters, 1 could not be refreshed", "listing klusters…", "failed: …"
};

// The console's connections, without a widget: each connection (its worker on the one network thread), the
// specs remembered between runs (never a secret), the secrets given in the keychain, and a test of a spec
// that signs in and lists its klusters. Adding and removing is said in signals; what the connections bring
// back is the refresh coordinator's (RefreshCoordinator).
class ConnectionRegistry : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionRegistry)

public:
    // `store`: where the registry reads how each connection's listing went.
    explicit ConnectionRegistry(KlusterStore *store, QObject *parent = nullptr);
    ~ConnectionRegistry() override; // the connections go, then the network thread, at once

    // Every connection read-only, whatever it says (`flightdeck --read-only`); before adding connections.
    void setForceReadOnly(bool readOnly) { m_forceReadOnly = readOnly; }

    // Adds a connection; `remember`: keep it (without its secret) between runs.
    Connection *add(const ConnectionSpec &spec, bool remember);
    // Adds a connection a person entered: remembered, its secret kept in the keychain (said in signals).
    Connection *addEntered(const ConnectionSpec &spec, const QString &secret);
    // The connection `name` as a person edited it: replaced (its secret kept where it was when none is
    // given), remembered if it was.
    Connection *replace(const QString &name, const ConnectionSpec &spec, const QString &secret);
    // Removes the connection and (when `forgetSecret`) its keychain entry.
    void remove(const QString &name, bool forgetSecret = true);
    // The connections remembered from the last run, added again.
    void restore();

    using TestDone = std::function<void(bool ok, const QString &what)>;
    // Signs in with `spec` and lists its klusters on the network thread; `done` is called on `context`'s
    // thread (never after `context` is gone).
    void test(const ConnectionSpec &spec, QObject *context, const TestDone &done);

    QList<Connection *> connections() const { return m_connections; }
    Connection *connection(const QString &name) const;
    bool isRemembered(const QString &name) const;
    QList<ConnectionSpec> remembered() const { return m_remembered; }
    // The spec as a person last saved it (without this run's --read-only), else the connection's.
    ConnectionSpec editableSpec(const QString &name) const;
    QStringList namesTaken() const; // connections' and remembered ones'
    ConnectionStatus status(const QString &name) const;
    bool anyLive() const; // a connection to a cloud, not only snapshots
    bool isEmpty() const { return m_connections.isEmpty(); }
    // How a connection stands changed (its listing or a kluster's refresh came back): said as
    // statusChanged().
    void noteStatusChanged() { emit statusChanged(); }

signals:
    void added(Connection *connection);
    void removed(const QString &name);
    void changed(); // one added, removed or replaced
    // How one stands (status()): after its listing and after each kluster's refresh, ten thousand times in
    // a Prometheus round.
    void statusChanged();
    void secretStored(const QString &name);
    // A secret given is kept for this session only (no keychain, or it refused): `notice` says so and what
    // to do next time.
    void secretNotKept(const QString &connection, const QString &notice);

private:
    void remember(const ConnectionSpec &spec);
    void save();
    void storeSecret(const ConnectionSpec &spec, const QString &secret);

    KlusterStore *m_store;
    QThread *m_network;
    QList<Connection *> m_connections;
    QList<ConnectionSpec> m_remembered;
    bool m_forceReadOnly = false;
};
