#include "core/flightdecklink.h"

#include <QUrl>
#include <cctype>

namespace {

QString encoded(const QString &part)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(part));
}

} // namespace

QString FlightdeckLink::toString() const
{
    QString link = QStringLiteral("%1://%2/%3").arg(QLatin1String(Scheme), encoded(cloud), encoded(kluster));
    if (!item.isEmpty())
        link += QLatin1Char('/') + encoded(item);
    return link;
}

std::optional<FlightdeckLink> FlightdeckLink::parse(const QString &text, QString *error)
{
    const auto fail = [error](const QString &why) -> std::optional<FlightdeckLink> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const QString link = text.trimmed();
    const QString prefix = QLatin1String(Scheme) + QStringLiteral("://");
    if (!link.startsWith(prefix, Qt::CaseInsensitive))
        return fail(QStringLiteral("not a Flightdeck link (it must start with %1)").arg(prefix));
    const QString rest = link.mid(prefix.size());
    if (rest.contains(QLatin1Char('?')) || rest.contains(QLatin1Char('#')))
        return fail(QStringLiteral("a Flightdeck link has no query or fragment"));
    const QStringList parts = rest.split(QLatin1Char('/'));
    if (parts.size() < 2 || parts.size() > 3)
        return fail(
            QStringLiteral("a Flightdeck link is flightdeck://<cloud>/<kluster>[/<finding or incident "
                           "id>] (percent-encoded)"));
    FlightdeckLink out;
    QString *fields[] = { &out.cloud, &out.kluster, &out.item };
    for (int i = 0; i < parts.size(); ++i) {
        const QByteArray raw = parts.at(i).toUtf8();
        const QByteArray decoded = QByteArray::fromPercentEncoding(raw);
        // A '%' not followed by two hex digits is passed through by fromPercentEncoding: refuse it.
        for (qsizetype at = raw.indexOf('%'); at >= 0; at = raw.indexOf('%', at + 1)) {
            if (at + 2 >= raw.size() || !std::isxdigit(uchar(raw.at(at + 1)))
                || !std::isxdigit(uchar(raw.at(at + 2))))
                return fail(QStringLiteral("part %1 of the link has a broken %-escape").arg(i + 1));
        }
        const QString value = QString::fromUtf8(decoded);
        if (value.toUtf8() != decoded)
            return fail(QStringLiteral("part %1 of the link is not UTF-8").arg(i + 1));
        for (const QChar c : value) {
            // Control and format characters (a bidirectional override, a zero-width space) and line or
            // paragraph separators: nothing a kluster or finding is named with, all able to disguise a link.
            const QChar::Category category = c.category();
            if (category == QChar::Other_Control || category == QChar::Other_Format
                || category == QChar::Separator_Line || category == QChar::Separator_Paragraph)
                return fail(QStringLiteral("part %1 of the link holds a control character").arg(i + 1));
        }
        *fields[i] = value;
    }
    if (out.cloud.isEmpty())
        return fail(QStringLiteral("the link names no cloud"));
    if (out.kluster.isEmpty())
        return fail(QStringLiteral("the link names no kluster"));
    if (parts.size() == 3 && out.item.isEmpty())
        return fail(QStringLiteral("the link ends in '/' but names no finding or incident"));
    return out;
}
