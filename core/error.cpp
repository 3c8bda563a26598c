#include "core/error.h"

#include "core/printable.h"

namespace {

QString whatHappened(const Error &e)
{
    switch (e.kind) {
    case Error::Kind::None:
        break;
    case Error::Kind::Network:
        return QStringLiteral("network error");
    case Error::Kind::Tls:
        return QStringLiteral("TLS error");
    case Error::Kind::Timeout:
        return QStringLiteral("no answer in time");
    case Error::Kind::TooLarge:
        return QStringLiteral("answer too large");
    case Error::Kind::Http:
        return QStringLiteral("HTTP %1").arg(e.status);
    case Error::Kind::Malformed:
        return e.status ? QStringLiteral("HTTP %1 with a malformed body").arg(e.status)
                        : QStringLiteral("malformed answer");
    case Error::Kind::Cancelled:
        return QStringLiteral("cancelled");
    case Error::Kind::Auth:
        return e.status ? QStringLiteral("authentication failed (HTTP %1)").arg(e.status)
                        : QStringLiteral("authentication failed");
    case Error::Kind::Config:
        return QStringLiteral("configuration error");
    case Error::Kind::Io:
        return QStringLiteral("input or output error");
    case Error::Kind::Held:
        return QStringLiteral("not sent");
    }
    return QString();
}

} // namespace

Error Error::of(Kind kind, const QString &detail)
{
    Error e;
    e.kind = kind;
    e.detail = detail;
    return e;
}

Error Error::inSource(Kind kind, const QString &source, const QString &detail, const QString &jsonPath)
{
    Error e = of(kind, detail);
    e.source = source;
    e.jsonPath = jsonPath;
    return e;
}

bool Error::retryCanHelp() const
{
    switch (kind) {
    case Kind::Network:
    case Kind::Timeout:
    case Kind::Cancelled:
    case Kind::Held:
        return true;
    case Kind::Http:
        return status == 408 || status == 429 || status >= 500;
    default:
        return false;
    }
}

QString Error::toString() const
{
    if (kind == Kind::None)
        return QString();
    // What the input says: its name, the JSON path and why; or why alone.
    QString why = detail;
    if (!source.isEmpty())
        why = source + QStringLiteral(": ")
            + (jsonPath.isEmpty() ? QString() : jsonPath + QStringLiteral(": ")) + detail;
    // Values quoted from an input, and the server's words, come from outside: one line, and nothing in it
    // that could drive a terminal.
    if (service.isEmpty() && method.isEmpty())
        return printable(why.isEmpty() ? whatHappened(*this) : why);
    QString text = service.isEmpty() ? QString() : service + QStringLiteral(": ");
    if (!method.isEmpty())
        text += method + QLatin1Char(' ') + path + QStringLiteral(": ");
    text += whatHappened(*this);
    if (!serverMessage.isEmpty())
        text += QStringLiteral(": ") + serverMessage;
    if (!why.isEmpty() && serverMessage.isEmpty())
        text += QStringLiteral(": ") + why;
    else if (!why.isEmpty())
        text += QStringLiteral(" (") + why + QLatin1Char(')');
    return printable(text);
}
