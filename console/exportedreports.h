#pragma once

#include "core/exporterreport.h"
#include "core/klusterkey.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

class ConnectionRegistry;
class Connection;

// What the console knows of one kluster's report from its exporter.
struct ExportedReportEntry
{
    std::shared_ptr<const ExporterReport::Report> report; // the last one read (null: none yet)
    QString url; // where it was read
    QDateTime readAt;
    Error error; // the last read's failure (none: the report is the last read's)
    QDateTime round; // the data it was asked for
    QDateTime askedAt; // when it was last asked for
    bool pending = false;
};

// The exporters' reports (core/exporterreport.h) of the Prometheus klusters a person opened: asked for when
// one is shown, once per round of its Prometheus connection (`round`: the kluster's data it goes with), never
// for the fleet. A failed read keeps the last report read (stale) beside its error; changed() says when an
// answer came.
class ExportedReports : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportedReports)

public:
    explicit ExportedReports(ConnectionRegistry *registry, QObject *parent = nullptr);

    using Entry = ExportedReportEntry;
    static constexpr int RetrySeconds = 10; // a failed read asked for again (a refresh) after this long
    // What is known of the kluster's report for its data of `round`; asks its exporter when it has not been
    // asked for that round, or its last read failed RetrySeconds ago or more (pending meanwhile; the last
    // report stays).
    const Entry &want(const KlusterKey &key, const QDateTime &round);
    const Entry *entry(const KlusterKey &key) const;

signals:
    void changed(const KlusterKey &key);

private:
    void follow(Connection *connection);

    ConnectionRegistry *m_registry;
    QHash<KlusterKey, Entry> m_entries;
};
