#pragma once

#include <QByteArray>
#include <QString>

// How much outside input Flightdeck takes in one piece: a snapshot file or an
// API response body. Larger input is refused with a message naming the limit
// and how to raise it, never read until memory runs out.
namespace InputLimits {

// The most a body may hold: 256 MiB, or FLIGHTDECK_MAX_BODY_MB (1 to 4096).
inline qint64 maxBodyBytes()
{
    bool ok = false;
    const qint64 mb = qEnvironmentVariable("FLIGHTDECK_MAX_BODY_MB").toLongLong(&ok);
    return (ok && mb >= 1 && mb <= 4096 ? mb : 256) * 1024 * 1024;
}

// "<what> is larger than the 256 MiB a body may be (set FLIGHTDECK_MAX_BODY_MB to raise it)".
inline QString tooLarge(const QString &what)
{
    return QStringLiteral(
        "%1 is larger than the %2 MiB a body may be (set FLIGHTDECK_MAX_BODY_MB to raise it)")
        .arg(what)
        .arg(maxBodyBytes() / (1024 * 1024));
}

} // namespace InputLimits
