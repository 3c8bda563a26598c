// What a terminated kluster leaves behind (diagnosis.md §9), as KlusterFetcher reads it: the project's Cinder
// volumes and Octavia load balancers, and a kluster Kubernikus no longer has.

#include "core/apiparser.h"
#include "core/debris.h"
#include "services/openstack/klusterfetcher.h"

SharedList *KlusterFetcher::sharedVolumes(KeystoneSession *session, QObject *parent)
{
    return new SharedList(session, QStringLiteral("volumev3"), QStringLiteral("/volumes/detail"),
        QStringLiteral("volumes"), parent);
}

SharedList *KlusterFetcher::sharedLoadBalancers(KeystoneSession *session, QObject *parent)
{
    return new SharedList(session, QStringLiteral("load-balancer"), QStringLiteral("/v2/lbaas/loadbalancers"),
        QStringLiteral("loadbalancers"), parent);
}

void KlusterFetcher::noteGone()
{
    m_gone = true;
    KlusterState &s = m_result.state;
    s.kluster = Kluster();
    s.kluster.name = m_kluster;
    s.kluster.gone = true;
    s.kluster.projectId = m_session->projectId();
    s.klusterSource = SourceStatus { true, QString(), QString() };
    fetchDebris();
}

// The project's volumes and load balancers, where the catalog lists their services (optional: a cloud
// without Cinder or Octavia is a known state, said where they are judged, never a failure of the refresh).
void KlusterFetcher::fetchDebris()
{
    struct Part
    {
        Source source;
        const char *service;
        const char *what;
        QPointer<SharedList> *shared;
        SharedList *(*make)(KeystoneSession *, QObject *);
    };
    const Part parts[] = {
        { Source::Volumes, "volumev3", "Cinder", &m_volumes, &KlusterFetcher::sharedVolumes },
        { Source::LoadBalancers, "load-balancer", "Octavia", &m_loadBalancers,
            &KlusterFetcher::sharedLoadBalancers },
    };
    for (const Part &part : parts) {
        const Source source = part.source;
        SourceStatus &status
            = source == Source::Volumes ? m_result.state.volumesSource : m_result.state.loadBalancersSource;
        const QString service = QLatin1String(part.service);
        if (m_session->endpoint(service).isEmpty()) {
            status = SourceStatus { false,
                QStringLiteral("the cloud's catalog lists no %1 service (%2): none checked")
                    .arg(service, QLatin1String(part.what)),
                QString() };
            continue;
        }
        if (!*part.shared)
            *part.shared = part.make(m_session, this);
        ++m_outstanding;
        (*part.shared)
            ->request(m_notBefore.isValid() ? m_notBefore : QDateTime::currentDateTimeUtc(), this,
                [this, source](const std::shared_ptr<const SharedPage> &page) {
                    KlusterState &s = m_result.state;
                    SourceStatus &st = source == Source::Volumes ? s.volumesSource : s.loadBalancersSource;
                    const Error error = parseAnswer(page->error, [&s, &page, source] {
                        if (source == Source::Volumes)
                            s.volumes = page->parsed<QList<Volume>>([&page] {
                                return Debris::parseVolumes(Sources::name(Source::Volumes), page->object);
                            });
                        else
                            s.loadBalancers = page->parsed<QList<LoadBalancer>>([&page] {
                                return Debris::parseLoadBalancers(
                                    Sources::name(Source::LoadBalancers), page->object);
                            });
                    });
                    settle(st, source, page->kept(), error,
                        source == Source::Volumes ? QStringLiteral("no volume checked")
                                                  : QStringLiteral("no load balancer checked"));
                    partDone();
                });
    }
}
