#include "services/openstack/pagedlist.h"

#include "core/apiparser.h"
#include "services/http/httpclient.h"
#include "services/openstack/keystonesession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <memory>

void fetchPagedList(KeystoneSession *session, QObject *context, const QString &service, const QString &path,
    const QString &collection, QList<QPointer<HttpCall>> *calls,
    const std::function<void(const PagedList &)> &done, PageForm form)
{
    struct Walk
    {
        QJsonArray items;
        PagedList first;
    };
    auto walk = std::make_shared<Walk>();
    auto step = std::make_shared<std::function<void(HttpCall *)>>();
    // The function knows itself only weakly: the pending call's connection holds it, so
    // it ends with that call, finished or abandoned (a deadline, a closed window).
    const std::weak_ptr<std::function<void(HttpCall *)>> self = step;
    const auto failed = [done](const Error &error) {
        PagedList f;
        f.error = error;
        done(f);
    };
    *step = [session, context, service, collection, calls, walk, self, done, failed, form](HttpCall *call) {
        const auto step = self.lock();
        calls->append(call);
        QObject::connect(call, &HttpCall::finished, context,
            [session, service, collection, walk, step, done, failed, form](const ApiResponse &r) {
                if (r.error.isError()) {
                    failed(r.error);
                    return;
                }
                // The page's list and links: from the bytes (simdjson) for pages kept as bytes, else (or
                // when simdjson does not read them) from Qt's reading, which also says why a body is no JSON.
                Error error;
                QJsonObject body;
                std::optional<ApiParser::ListPage> page;
                if (form == PageForm::Bytes)
                    page = ApiParser::readListPage(r.body, collection);
                if (!page) {
                    body = r.json(&error);
                    if (!error.isError())
                        page = ApiParser::readListPage(body, collection);
                }
                if (!error.isError() && !page->isList && walk->first.pages == 0) {
                    // No list at all: the parser says what it is instead (an API error, say), naming the
                    // request.
                    PagedList one;
                    one.body = r.body;
                    one.object = body;
                    if (form == PageForm::Bytes)
                        one.pageBodies = { r.body };
                    one.error = r.error;
                    one.date = r.header("date");
                    one.pages = 1;
                    done(one);
                    return;
                }
                if (error.isError() || !page->isList) {
                    if (!error.isError()) {
                        error.kind = Error::Kind::Malformed;
                        error.service = service;
                        error.detail = QStringLiteral("no \"%1\" list in the answer").arg(collection);
                    }
                    failed(error);
                    return;
                }
                PagedList &first = walk->first;
                if (first.pages++ == 0) {
                    first.body = r.body;
                    first.object = body;
                    first.date = r.header("date");
                }
                if (form == PageForm::Bytes) {
                    first.pageBodies.append(r.body);
                } else {
                    for (const QJsonValue v : body.value(collection).toArray())
                        walk->items.append(v);
                }
                if (!page->next.isEmpty() && page->size > 0) {
                    if (first.pages >= 10000) {
                        Error tooMany;
                        tooMany.kind = Error::Kind::Malformed;
                        tooMany.service = service;
                        tooMany.detail
                            = QStringLiteral("more than 10,000 pages of %1: the list is not complete")
                                  .arg(collection);
                        failed(tooMany);
                        return;
                    }
                    // The token goes only to the catalog's endpoint: a link's scheme,
                    // host and port (an http:// link behind a TLS proxy, say) are not trusted.
                    QUrl url(page->next);
                    const QUrl base(session->endpoint(service));
                    url.setScheme(base.scheme());
                    url.setHost(base.host());
                    url.setPort(base.port());
                    (*step)(session->sendUrl(service, "GET", url));
                    return;
                }
                PagedList whole = first;
                whole.error = r.error; // no error, but the request a refusal of the list names
                if (whole.pages > 1 && form == PageForm::Bytes) {
                    whole.body.clear();
                    whole.object = QJsonObject();
                } else if (whole.pages > 1) {
                    whole.object = QJsonObject { { collection, walk->items } };
                    whole.body = QJsonDocument(whole.object).toJson(QJsonDocument::Compact);
                }
                done(whole);
            });
    };
    (*step)(session->send(service, "GET", path));
}

SharedList::SharedList(KeystoneSession *session, const QString &service, const QString &path,
    const QString &collection, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_service(service)
    , m_path(path)
    , m_collection(collection)
{ }

SharedList::~SharedList()
{
    for (const QPointer<HttpCall> &c : std::as_const(m_calls)) {
        if (c)
            c->cancel();
    }
}

void SharedList::request(
    const QDateTime &notBefore, QObject *context, const SharedResult<SharedPage>::Done &done)
{
    if (m_shared.request(notBefore, context, done))
        startFetch();
}

void SharedList::startFetch()
{
    m_shared.start();
    m_calls.removeAll(QPointer<HttpCall>());
    fetchPagedList(m_session, this, m_service, m_path, m_collection, &m_calls, [this](const PagedList &page) {
        auto answer = std::make_shared<SharedPage>();
        static_cast<PagedList &>(*answer) = page;
        if (m_shared.finish(answer))
            startFetch();
    });
}
