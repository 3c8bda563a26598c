#pragma once

#include "core/error.h"
#include "services/sharedresult.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <functional>

class HttpCall;
class KeystoneSession;

// A whole list from Nova or Neutron, every page merged.
struct PagedList
{
    QByteArray body; // one page: the body as it came; several: {"<collection>": [every item]}
    QJsonObject object; // the body, parsed
    Error error; // why the list could not be read; read, it is empty but names the service
    QByteArray date; // the Date header of the first page: the server's clock when the list began
    int pages = 0;
};

// Follows Nova's `servers_links` and Neutron's `<collection>_links` to the end
// (at most 10,000 pages), sending only to the catalog's endpoint whatever a
// link names. Each call goes to `calls` (to cancel them); `done` runs in
// `context`, once.
void fetchPagedList(KeystoneSession *session, QObject *context, const QString &service, const QString &path,
    const QString &collection, QList<QPointer<HttpCall>> *calls,
    const std::function<void(const PagedList &)> &done);

// A list the klusters of one project share (security groups, Neutron's
// extensions): fetched once for every refresh that asks no later than the
// fetch began (see SharedResult).
struct SharedPage : PagedList
{
    QDateTime startedAt;
};

class SharedList : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SharedList)

public:
    SharedList(KeystoneSession *session, const QString &service, const QString &path,
        const QString &collection, QObject *parent = nullptr);
    ~SharedList() override;

    void request(const QDateTime &notBefore, QObject *context, const SharedResult<SharedPage>::Done &done);

private:
    void startFetch();

    KeystoneSession *m_session;
    QString m_service;
    QString m_path;
    QString m_collection;
    SharedResult<SharedPage> m_shared;
    QList<QPointer<HttpCall>> m_calls;
};
