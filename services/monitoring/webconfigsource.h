#pragma once

#include "services/monitoring/webconfig.h"

#include <QSslConfiguration>
#include <QString>
#include <functional>
#include <optional>

// The web configuration file as the exporter serves with it: read at start (a file that does not read ends
// the exporter there), then looked at (its size and times, and those of the files it names) for each
// connection and request, and read again when it changed, so that certificates rotate without a restart. A
// file that no longer reads (a certificate half rotated, a typo) leaves the last good configuration in force,
// and is said once (`said`); turning TLS on or off takes a restart.
class WebConfigSource
{
public:
    // Reads `path`; false with `error` when it cannot be read or is invalid.
    bool open(const QString &path, QString *error);
    bool isOpen() const { return m_web.has_value(); }
    bool usesTls() const { return m_tls; }

    // The configuration of the moment (null when none was opened), read again if its files changed.
    const WebConfig *current(const std::function<void(const QString &)> &said);
    // The last configuration read, without looking at the files.
    const WebConfig *last() const { return m_web ? &*m_web : nullptr; }
    // The TLS configuration of the moment (with usesTls()).
    const QSslConfiguration &tls() const { return *m_tlsConfig; }

private:
    QString stamp() const;

    QString m_path;
    std::optional<WebConfig> m_web;
    bool m_tls = false;
    std::optional<QSslConfiguration> m_tlsConfig;
    QString m_stamp; // what the files looked like when last read
};
