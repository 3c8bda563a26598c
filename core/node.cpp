#include "core/node.h"

QString Node::providerInstanceId() const
{
    // openstack:///<id> or openstack://<region>/<id> (cloud-provider-openstack).
    static const QLatin1String scheme("openstack://");
    if (!providerId.startsWith(scheme))
        return QString();
    const qsizetype slash = providerId.indexOf(QLatin1Char('/'), scheme.size());
    if (slash < 0 || slash + 1 >= providerId.size())
        return QString();
    const QString id = providerId.mid(slash + 1);
    return id.contains(QLatin1Char('/')) ? QString() : id;
}
