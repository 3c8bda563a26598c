#pragma once

#include "core/error.h"
#include "core/keptbody.h"
#include "services/http/sharedresult.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <any>
#include <functional>
#include <vector>

class HttpCall;
class KeystoneSession;

// How a walk keeps the pages: parsed by Qt and merged into one list (`object`, `body`), or as the bytes they
// came as (`pageBodies`), for a caller that reads them itself, faster (the servers, with simdjson).
enum class PageForm
{
    Parsed,
    Bytes,
};

// A whole list from Nova or Neutron, every page merged.
struct PagedList
{
    // One page: the body as it came; several: {"<collection>": [every item]} (PageForm::Bytes: not set).
    QByteArray body;
    QJsonObject object; // the body, parsed (PageForm::Parsed)
    QList<QByteArray> pageBodies; // every page's body as it came, in order (PageForm::Bytes)
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
    const std::function<void(const PagedList &)> &done, PageForm form = PageForm::Parsed);

// A list the klusters of one project share (security groups, Neutron's
// extensions): fetched once for every refresh that asks no later than the
// fetch began (see SharedResult).
struct SharedPage : PagedList
{
    QDateTime startedAt;

    // What its readers make of it, made once for all of them (the project's klusters each read the same
    // page, on the connection's thread). A parse that throws is not kept: the next reader parses again.
    // One of each type: the groups parsed, the body as a snapshot keeps it.
    template<typename T> const T &parsed(const std::function<T()> &parse) const
    {
        for (const std::any &made : m_parsed) {
            if (const T *it = std::any_cast<T>(&made))
                return *it;
        }
        m_parsed.push_back(parse()); // a parse that throws leaves nothing
        return *std::any_cast<T>(&m_parsed.back());
    }
    // The body as a snapshot keeps it (compressed when large): one for every kluster, not one each.
    const KeptBody &kept() const
    {
        return parsed<KeptBody>([this] { return KeptBody(body); });
    }

private:
    mutable std::vector<std::any> m_parsed; // a handful: looked through
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
