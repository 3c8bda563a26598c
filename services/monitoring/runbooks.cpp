#include "services/monitoring/runbooks.h"

#include <QDir>
#include <QFile>

namespace {

const QString folder = QStringLiteral(":/flightdeck/runbooks/");

} // namespace

namespace Runbooks {

QStringList names()
{
    QStringList out;
    for (const QString &file : QDir(folder).entryList({ QStringLiteral("*.md") }, QDir::Files, QDir::Name)) {
        if (file != QLatin1String("README.md"))
            out << file.chopped(3);
    }
    return out;
}

std::optional<QByteArray> markdown(const QString &name)
{
    // A name is a word of letters, digits and dashes: nothing else reaches the resource system.
    if (name.isEmpty() || name.size() > 64)
        return std::nullopt;
    for (const QChar c : name) {
        if (!(c.isLower() || c.isDigit() || c == QLatin1Char('-')) || c.unicode() > 0x7f)
            return std::nullopt;
    }
    QFile file(folder + name + QStringLiteral(".md"));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.readAll();
}

} // namespace Runbooks
