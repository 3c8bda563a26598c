// The routes a router held at the history's kept moments and no longer holds.

#include "core/routehistory.h"

#include <QHash>
#include <QSet>
#include <algorithm>

Route RouteHistory::parse(const QString &text)
{
    static const QString via = QStringLiteral(" via ");
    const qsizetype at = text.indexOf(via);
    if (at <= 0 || at + via.size() >= text.size())
        return {};
    return { text.left(at).trimmed(), text.mid(at + via.size()).trimmed() };
}

void RouteHistory::then(const QDateTime &instant, const QList<Route> &routes)
{
    if (!instant.isValid())
        return;
    // Two clocks (the cloud's, this machine's) agree within seconds: a moment read after the latest kept is
    // never before it.
    const QDateTime at = latestAt.isValid() ? std::max(instant, latestAt) : instant;
    QSet<QString> now;
    QStringList texts;
    for (const Route &r : routes) {
        texts << r.destination + QStringLiteral(" via ") + r.nexthop;
        now.insert(texts.last());
    }
    for (const QString &text : std::as_const(latest)) {
        const Route route = parse(text);
        if (now.contains(text) || route.destination.isEmpty())
            continue;
        gone.erase(
            std::remove_if(gone.begin(), gone.end(), [&route](const Gone &g) { return g.route == route; }),
            gone.end());
        gone.append({ route, at });
        now.insert(text); // once
    }
    if (!since.isValid())
        since = at;
    latestAt = at;
    latest = texts;
}

RouteHistory RouteHistory::shifted(qint64 ms) const
{
    RouteHistory h = *this;
    if (h.since.isValid())
        h.since = h.since.addMSecs(ms);
    for (Gone &g : h.gone)
        g.until = g.until.addMSecs(ms);
    if (h.latestAt.isValid())
        h.latestAt = h.latestAt.addMSecs(ms);
    return h;
}

RouteHistory RouteHistory::of(QList<Moment> moments)
{
    moments.erase(std::remove_if(moments.begin(), moments.end(),
                      [](const Moment &m) { return !m.routerRead || !m.at.isValid(); }),
        moments.end());
    std::stable_sort(
        moments.begin(), moments.end(), [](const Moment &a, const Moment &b) { return a.at < b.at; });
    RouteHistory h;
    if (moments.isEmpty())
        return h;
    h.since = moments.first().at;
    QHash<QString, Gone> latest; // route text -> its latest going
    for (qsizetype i = 0; i + 1 < moments.size(); ++i) {
        const QSet<QString> next(moments.at(i + 1).routes.cbegin(), moments.at(i + 1).routes.cend());
        for (const QString &text : moments.at(i).routes) {
            const Route route = parse(text);
            if (!next.contains(text) && !route.destination.isEmpty())
                latest.insert(text, { route, moments.at(i + 1).at });
        }
    }
    h.latestAt = moments.last().at;
    h.latest = moments.last().routes;
    h.gone = latest.values();
    std::sort(h.gone.begin(), h.gone.end(), [](const Gone &a, const Gone &b) {
        return a.until != b.until                        ? a.until < b.until
            : a.route.destination != b.route.destination ? a.route.destination < b.route.destination
                                                         : a.route.nexthop < b.route.nexthop;
    });
    return h;
}
