#pragma once

#include "core/klusterkey.h"

#include <QList>
#include <QObject>
#include <memory>

class AuditModel;
class ConsoleSession;
class FindingsModel;
class KlusterTable;
class KlustersModel;
class NodesModel;
class RoutesModel;
class SecurityModel;
class ViewPreparer;

// The item models a window shows over a ConsoleSession (which has none: console/ is the console without its
// views), kept up to date from it: the kluster list (every connection's klusters, their standing, alerts and
// protection), the audit log, and the tables of the kluster shown, which the ViewPreparer fills off the
// window's thread when the session asks for its rows (ConsoleSession::rowsWanted). The window makes one over
// the application's session; tests that drive behaviour make one beside a session.
//
// A new table of the kluster shown: its model under models/ (prepare(TableInput), apply, snapshot,
// takeRetired), listed in tables() here, and its tab and page in views/tabs.cpp.
class ConsoleModels : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleModels)

public:
    explicit ConsoleModels(ConsoleSession *session, QObject *parent = nullptr);
    ~ConsoleModels() override; // waits for the preparer's last job

    ConsoleSession *session() const { return m_session; }
    KlustersModel *klusters() const { return m_klusters; }
    AuditModel *audit() const { return m_audit; }
    FindingsModel *findings() const { return m_findings; }
    NodesModel *nodes() const { return m_nodes; }
    RoutesModel *routes() const { return m_routes; }
    SecurityModel *security() const { return m_security; }
    // The tables of the kluster shown, in the views' order (findings, nodes, routes, security).
    QList<KlusterTable *> tables() const;
    ViewPreparer *preparer() const { return m_preparer; }

private:
    void followStore();
    void showRows(const KlusterKey &key);

    ConsoleSession *m_session;
    KlustersModel *m_klusters;
    AuditModel *m_audit;
    FindingsModel *m_findings;
    NodesModel *m_nodes;
    RoutesModel *m_routes;
    SecurityModel *m_security;
    QList<std::shared_ptr<KlusterTable>> m_tables;
    ViewPreparer *m_preparer;
};
