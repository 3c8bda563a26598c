// What the exporter reads off the wire before it answers: the address it is told to listen on, and an
// HTTP/1.1 request head (method, target, version, the headers it acts on). The serving is
// exporterserver.cpp.
#include "services/monitoring/exporterserver.h"

#include <QHostAddress>

bool ExporterServer::parseAddress(const QString &text, QHostAddress *host, quint16 *port, QString *error)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0) {
        *error = QStringLiteral("\"%1\" is not ADDRESS:PORT (e.g. 127.0.0.1:9473, :9473)").arg(text);
        return false;
    }
    QString hostText = text.left(colon);
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535) {
        *error = QStringLiteral("\"%1\": the port is not a number from 0 (any free one) to 65535").arg(text);
        return false;
    }
    if (hostText.startsWith(QLatin1Char('[')) && hostText.endsWith(QLatin1Char(']')))
        hostText = hostText.mid(1, hostText.size() - 2);
    if (hostText.isEmpty())
        *host = QHostAddress(QHostAddress::Any);
    else if (hostText == QLatin1String("localhost"))
        *host = QHostAddress(QHostAddress::LocalHost);
    else if (!host->setAddress(hostText)) {
        *error = QStringLiteral("\"%1\": \"%2\" is not an IP address").arg(text, hostText);
        return false;
    }
    *port = quint16(p);
    return true;
}

std::optional<ExporterServer::Head> ExporterServer::parseHead(const QByteArray &text)
{
    const QList<QByteArray> lines = text.split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    // The origin form only ("/metrics?x"): a path is never empty (RFC 9112 3.2.1).
    if (requestLine.size() != 3 || requestLine[0].isEmpty() || !requestLine[1].startsWith('/')
        || !requestLine[2].startsWith("HTTP/"))
        return std::nullopt;
    Head head;
    head.version = requestLine[2];
    head.keepAlive = head.version == "HTTP/1.1";
    bool body = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray raw = lines[i].trimmed();
        const QByteArray line = raw.toLower();
        if (line.startsWith("connection:")) {
            const QByteArray value = line.mid(11).trimmed();
            head.keepAlive = value == "keep-alive" || (head.keepAlive && value != "close");
        }
        if (line.startsWith("authorization:"))
            head.authorization = raw.mid(14).trimmed();
        // No endpoint takes a body: one sent is not read, so the connection ends with this answer (its bytes
        // would be taken for the next request).
        if ((line.startsWith("content-length:") && line.mid(15).trimmed() != "0")
            || line.startsWith("transfer-encoding:"))
            body = true;
    }
    head.keepAlive = head.keepAlive && !body;
    head.request.method = requestLine[0];
    const QByteArray &target = requestLine[1];
    const qsizetype q = target.indexOf('?');
    head.request.path = q < 0 ? target : target.left(q);
    head.request.query = q < 0 ? QByteArray() : target.mid(q + 1);
    return head;
}
