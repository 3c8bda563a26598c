#include "console/exportedreports.h"

#include "console/connectionregistry.h"
#include "services/connection.h"

ExportedReports::ExportedReports(ConnectionRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
    for (Connection *c : registry->connections())
        follow(c);
    connect(registry, &ConnectionRegistry::added, this, &ExportedReports::follow);
    connect(registry, &ConnectionRegistry::removed, this, [this](const QString &name) {
        m_entries.removeIf([&name](const auto &it) { return it.key().connection == name; });
    });
}

void ExportedReports::follow(Connection *connection)
{
    const QString name = connection->name();
    connect(connection, &Connection::exportedReportRead, this,
        [this, name](const QString &kluster, const ExporterReport::Read &read) {
            const KlusterKey key { name, kluster };
            const auto e = m_entries.find(key);
            if (e == m_entries.end())
                return; // forgotten meanwhile (the connection removed)
            e->pending = false;
            e->error = read.error;
            if (read.report) {
                e->report = read.report;
                e->url = read.url;
                e->readAt = read.readAt;
            } else if (!e->report) {
                e->url = read.url;
                e->readAt = read.readAt;
            }
            emit changed(key);
        });
}

const ExportedReports::Entry &ExportedReports::want(const KlusterKey &key, const QDateTime &round)
{
    Entry &e = m_entries[key];
    // Once per round; a read that failed is tried again when asked after a while (a refresh), never in a loop
    // with the views that show its failure.
    const bool retry = e.error.isError() && e.askedAt.isValid()
        && e.askedAt.secsTo(QDateTime::currentDateTimeUtc()) >= RetrySeconds;
    if (e.pending || (e.readAt.isValid() && e.round == round && !retry))
        return e;
    Connection *c = m_registry->connection(key.connection);
    if (!c) {
        e.error = Error::of(Error::Kind::Config, tr("the connection is gone"));
        return e;
    }
    e.round = round;
    e.pending = true;
    e.askedAt = QDateTime::currentDateTimeUtc();
    c->readExportedReport(key.kluster);
    return e;
}

const ExportedReports::Entry *ExportedReports::entry(const KlusterKey &key) const
{
    const auto e = m_entries.constFind(key);
    return e == m_entries.cend() ? nullptr : &*e;
}
