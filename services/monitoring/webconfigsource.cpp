#include "services/monitoring/webconfigsource.h"

#include <QDateTime>
#include <QFileInfo>

bool WebConfigSource::open(const QString &path, QString *error)
{
    std::optional<WebConfig> web = WebConfig::load(path, error);
    if (!web)
        return false;
    std::optional<QSslConfiguration> tls;
    if (web->tls.enabled) {
        tls = web->tlsConfiguration(error);
        if (!tls)
            return false;
    }
    m_path = path;
    m_tls = web->tls.enabled;
    m_web = std::move(web);
    m_tlsConfig = std::move(tls);
    m_stamp = stamp();
    return true;
}

// The file and the certificates it names, as their metadata says: a change of any is a reason to read again.
QString WebConfigSource::stamp() const
{
    QStringList files { m_path };
    if (m_web)
        files << m_web->files();
    QString stamp;
    for (const QString &f : std::as_const(files)) {
        const QFileInfo info(f);
        stamp += f + QLatin1Char(':') + QString::number(info.size()) + QLatin1Char(':')
            + QString::number(info.lastModified().toMSecsSinceEpoch()) + QLatin1Char(':')
            + QString::number(info.metadataChangeTime().toMSecsSinceEpoch()) + QLatin1Char('\n');
    }
    return stamp;
}

const WebConfig *WebConfigSource::current(const std::function<void(const QString &)> &said)
{
    if (!m_web)
        return nullptr;
    const QString now = stamp();
    if (now == m_stamp)
        return &*m_web;
    m_stamp = now;
    QString error;
    std::optional<WebConfig> fresh = WebConfig::load(m_path, &error);
    std::optional<QSslConfiguration> tls;
    if (fresh && fresh->tls.enabled != m_tls) {
        error = QStringLiteral("TLS is turned %1 only by a restart")
                    .arg(m_tls ? QStringLiteral("off") : QStringLiteral("on"));
        fresh.reset();
    }
    if (fresh && m_tls) {
        tls = fresh->tlsConfiguration(&error);
        if (!tls)
            fresh.reset();
    }
    if (!fresh) {
        // The last good configuration stays: a certificate half rotated (the new certificate, the old key)
        // must not take the exporter down, nor turn its authentication off.
        said(QStringLiteral("web configuration %1 not taken (%2); the last good one stays")
                 .arg(m_path, error));
        return &*m_web;
    }
    m_web = std::move(fresh);
    if (tls)
        m_tlsConfig = std::move(tls);
    m_stamp = stamp();
    said(QStringLiteral("web configuration %1 read again").arg(m_path));
    return &*m_web;
}
