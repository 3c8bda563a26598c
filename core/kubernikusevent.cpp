#include "core/kubernikusevent.h"

#include "core/apiparser.h"
#include "core/json/jsonreader.h"

#include <QRegularExpression>
#include <algorithm>
#include <limits>

namespace {

QString cut(const QString &text)
{
    return text.size() > KubernikusEvents::MaxFieldChars
        ? text.left(KubernikusEvents::MaxFieldChars - 1) + QChar(0x2026)
        : text;
}

} // namespace

QString KubernikusEvent::summary() const
{
    QString line = type.isEmpty() ? reason : type + QLatin1Char(' ') + reason;
    if (count > 1)
        line += QStringLiteral(" (%1 times)").arg(count);
    if (!message.isEmpty())
        line += (line.isEmpty() ? QString() : QStringLiteral(": ")) + message;
    return line;
}

QDateTime KubernikusEvents::parseGoTime(const QString &text)
{
    // 2006-01-02 15:04:05.999999999 -0700 MST[ m=±0.000000001]
    static const QRegularExpression go(QStringLiteral(
        R"(^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2})(\d{2})(?: [A-Za-z0-9+-]{1,10})?(?: m=[+-]\d+(?:\.\d+)?)?$)"));
    const QRegularExpressionMatch m = go.match(text);
    if (!m.hasMatch())
        return text.contains(QLatin1Char('T')) ? ApiParser::parseTimestamp(text, true) : QDateTime();
    const auto n = [&m](int i) { return m.capturedView(i).toInt(); };
    const QDate date(n(1), n(2), n(3));
    if (!date.isValid() || date.year() <= 1)
        return {}; // Go's zero time is an unset one
    const QString fraction = m.captured(7);
    const int ms = fraction.isEmpty() ? 0 : QString(fraction + QStringLiteral("00")).left(3).toInt();
    const QTime time(n(4), n(5), n(6), ms);
    if (!time.isValid() || n(9) > 23 || n(10) > 59)
        return {};
    const int offset = (m.capturedView(8) == QLatin1String("-") ? -1 : 1) * (n(9) * 3600 + n(10) * 60);
    return QDateTime(date, time, Qt::OffsetFromUTC, offset).toUTC();
}

QList<KubernikusEvent> KubernikusEvents::parse(const QString &source, const QByteArray &body)
{
    const JsonReader root(source, parseJsonDocument(source, body));
    QList<KubernikusEvent> events;
    root.forEachElement([&events](const JsonReader &item) {
        item.requireObject();
        KubernikusEvent e;
        e.count
            = int(item.optIntegerIn(QStringLiteral("count"), 0, std::numeric_limits<int>::max()).value_or(1));
        e.firstTimestamp = parseGoTime(item.optString(QStringLiteral("firstTimestamp")));
        e.lastTimestamp = parseGoTime(item.optString(QStringLiteral("lastTimestamp")));
        e.reason = cut(item.optString(QStringLiteral("reason")));
        e.message = cut(item.optString(QStringLiteral("message")));
        e.type = cut(item.optString(QStringLiteral("type")));
        events.append(std::move(e));
    });
    // Newest first; those of no known time after every dated one, in the order given.
    std::stable_sort(events.begin(), events.end(), [](const KubernikusEvent &a, const KubernikusEvent &b) {
        const QDateTime ta = a.when();
        const QDateTime tb = b.when();
        if (ta.isValid() != tb.isValid())
            return ta.isValid();
        return ta.isValid() && ta > tb;
    });
    if (events.size() > MaxEvents)
        events.resize(MaxEvents);
    return events;
}

QList<KubernikusEvent> KubernikusEvents::since(const QList<KubernikusEvent> &events, const QDateTime &since)
{
    QList<KubernikusEvent> out;
    for (const KubernikusEvent &e : events) {
        if (e.when().isValid() && e.when() >= since)
            out.append(e);
    }
    return out;
}
