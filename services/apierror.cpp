#include "services/apierror.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

QString ApiError::toString() const
{
    QString where = service.isEmpty() ? QString() : service + QStringLiteral(": ");
    if (!method.isEmpty())
        where += method + QLatin1Char(' ') + path + QStringLiteral(": ");
    QString what;
    switch (kind) {
    case Kind::None:
        return QString();
    case Kind::Network:
        what = QStringLiteral("network error");
        break;
    case Kind::Tls:
        what = QStringLiteral("TLS error");
        break;
    case Kind::Timeout:
        what = QStringLiteral("no answer in time");
        break;
    case Kind::TooLarge:
        what = QStringLiteral("answer too large");
        break;
    case Kind::Http:
        what = QStringLiteral("HTTP %1").arg(status);
        break;
    case Kind::Malformed:
        what = status ? QStringLiteral("HTTP %1 with a malformed body").arg(status) : QStringLiteral("malformed answer");
        break;
    case Kind::Cancelled:
        what = QStringLiteral("cancelled");
        break;
    case Kind::Auth:
        what = status ? QStringLiteral("authentication failed (HTTP %1)").arg(status) : QStringLiteral("authentication failed");
        break;
    case Kind::Config:
        what = QStringLiteral("configuration error");
        break;
    }
    QString text = where + what;
    if (!serverMessage.isEmpty())
        text += QStringLiteral(": ") + serverMessage;
    if (!detail.isEmpty())
        text += (serverMessage.isEmpty() ? QStringLiteral(": ") : QStringLiteral(" (")) + detail
            + (serverMessage.isEmpty() ? QString() : QStringLiteral(")"));
    return text;
}

QString ApiError::messageFromBody(const QByteArray &body, const QByteArray &contentType)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return QString();
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed);
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        const QJsonObject neutron = o.value(QStringLiteral("NeutronError")).toObject();
        if (!neutron.isEmpty()) {
            const QString type = neutron.value(QStringLiteral("type")).toString();
            const QString message = neutron.value(QStringLiteral("message")).toString();
            return type.isEmpty() ? message : message + QStringLiteral(" [") + type + QLatin1Char(']');
        }
        if (o.value(QStringLiteral("kind")).toString() == QLatin1String("Status")) {
            const QString reason = o.value(QStringLiteral("reason")).toString();
            return o.value(QStringLiteral("message")).toString() + (reason.isEmpty() ? QString() : QStringLiteral(" [") + reason + QLatin1Char(']'));
        }
        const QJsonObject keystone = o.value(QStringLiteral("error")).toObject();
        if (!keystone.isEmpty())
            return keystone.value(QStringLiteral("message")).toString();
        if (o.size() == 1 && o.begin().value().isObject()) {  // a Nova fault: {"itemNotFound": {...}}
            const QJsonObject fault = o.begin().value().toObject();
            if (fault.contains(QStringLiteral("message")))
                return fault.value(QStringLiteral("message")).toString() + QStringLiteral(" [") + o.begin().key() + QLatin1Char(']');
        }
        if (o.value(QStringLiteral("message")).isString())
            return o.value(QStringLiteral("message")).toString();
    }
    QString text = QString::fromUtf8(trimmed.left(4096));
    if (contentType.contains("html") || text.startsWith(QLatin1Char('<'))) {
        static const QRegularExpression title(QStringLiteral("<title>([^<]*)</title>"), QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m = title.match(text);
        if (m.hasMatch())
            return m.captured(1).trimmed() + QStringLiteral(" (an HTML page, not the API's answer)");
        static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
        text.replace(tags, QStringLiteral(" "));
    }
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            return line.trimmed().left(300);
    }
    return QString();
}
