// What the exporter reads off the wire before it answers: the address it is told to listen on, and an
// HTTP/1.1 request head (method, target, version, the headers it acts on). The serving is
// exporterserver.cpp.
#include "services/monitoring/exporterserver.h"

#include <QHostAddress>
#include <optional>
#include <zlib.h>

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
    QByteArray acceptEncoding;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray raw = lines[i].trimmed();
        const QByteArray line = raw.toLower();
        if (line.startsWith("connection:")) {
            const QByteArray value = line.mid(11).trimmed();
            head.keepAlive = value == "keep-alive" || (head.keepAlive && value != "close");
        }
        if (line.startsWith("authorization:"))
            head.authorization = raw.mid(14).trimmed();
        if (line.startsWith("accept-encoding:")) // several such headers are one list
            acceptEncoding += (acceptEncoding.isEmpty() ? "" : ",") + line.mid(16);
        // No endpoint takes a body: one sent is not read, so the connection ends with this answer (its bytes
        // would be taken for the next request).
        if ((line.startsWith("content-length:") && line.mid(15).trimmed() != "0")
            || line.startsWith("transfer-encoding:"))
            body = true;
    }
    head.keepAlive = head.keepAlive && !body;
    head.acceptsGzip = acceptsGzip(acceptEncoding);
    head.request.method = requestLine[0];
    const QByteArray &target = requestLine[1];
    const qsizetype q = target.indexOf('?');
    head.request.path = q < 0 ? target : target.left(q);
    head.request.query = q < 0 ? QByteArray() : target.mid(q + 1);
    return head;
}

bool ExporterServer::acceptsGzip(const QByteArray &acceptEncoding)
{
    std::optional<bool> gzip;
    std::optional<bool> any;
    for (const QByteArray &item : acceptEncoding.split(',')) {
        const QList<QByteArray> parts = item.split(';');
        const QByteArray coding = parts.value(0).trimmed().toLower();
        if (coding.isEmpty())
            continue;
        bool acceptable = true; // no weight: q=1
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray parameter = parts.at(i).trimmed();
            const qsizetype eq = parameter.indexOf('=');
            if (eq < 0 || parameter.left(eq).trimmed().toLower() != "q")
                continue;
            bool ok = false;
            const double q = parameter.mid(eq + 1).trimmed().toDouble(&ok);
            acceptable = ok && q > 0; // a weight that is no number takes nothing
        }
        if (coding == "gzip" || coding == "x-gzip")
            gzip = gzip.value_or(false) || acceptable;
        else if (coding == "*")
            any = any.value_or(false) || acceptable;
    }
    return gzip ? *gzip : any.value_or(false);
}

QByteArray ExporterServer::gzip(const QByteArray &data)
{
    z_stream stream = {};
    // windowBits 15 + 16: the gzip wrapper (header and CRC-32) around deflate's stream. The fastest level: an
    // exposition is repetitive text that compresses tenfold even so, and it is made on the serving thread.
    if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out;
    out.resize(qsizetype(deflateBound(&stream, uLong(data.size()))) + 32);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    const int done = deflate(&stream, Z_FINISH);
    const qsizetype written = qsizetype(stream.total_out);
    deflateEnd(&stream);
    if (done != Z_STREAM_END)
        return {};
    out.truncate(written);
    out.squeeze(); // the bound allocated is far above what was written
    return out;
}
