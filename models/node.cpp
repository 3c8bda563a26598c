#include "node.h"

#include <QRegularExpression>

QString Node::providerInstanceId() const
{
    static const QRegularExpression re(QStringLiteral("^openstack://([^/]*)/([^/]+)$"));
    const QRegularExpressionMatch m = re.match(providerId);
    return m.hasMatch() ? m.captured(2) : QString();
}
