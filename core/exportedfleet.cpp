#include "core/exportedfleet.h"

#include "core/findingtraits.h"
#include "core/incidents.h"
#include "core/json/jsonreader.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace ExportedFleet {

namespace {

// The kluster series read, by the name the queries give each in their `series` label.
const QLatin1String seriesUp("up");
const QLatin1String seriesReadAt("last_success_timestamp_seconds");
const QLatin1String seriesCauses("causes");
const QLatin1String seriesWorst("worst_cause_rank");
const QLatin1String seriesPhase("kluster_phase");
const QLatin1String seriesIncidents("incidents");
const QLatin1String seriesSeen("seen");
const QLatin1String seriesShard("shard");

// Labels that are not the kluster's target: the series' own, the exporter's, and the kluster's name.
bool ownLabel(const QString &name)
{
    static const QSet<QString> own
        = { QStringLiteral("__name__"), QStringLiteral("series"), QStringLiteral("instance"),
              QStringLiteral("job"), QStringLiteral("severity"), QStringLiteral("cause"),
              QStringLiteral("phase"), QStringLiteral("kluster_name"), QStringLiteral("project_id") };
    return own.contains(name);
}

// The phrase of a finding kind's or an incident rule's name ("pod network closed").
QString phraseOf(const QString &cause)
{
    static const QHash<QString, QString> phrases = [] {
        QHash<QString, QString> h;
        for (int k = 0; k < FindingKindCount; ++k) {
            const FindingTraits &t = findingTraits(FindingKind(k));
            h.insert(QString(t.name), QString(t.phrase));
        }
        for (const IncidentRule rule : incidentRules())
            h.insert(incidentRuleName(rule), incidentRulePhrase(rule));
        return h;
    }();
    return phrases.value(cause, cause);
}

QDateTime timeOf(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(std::llround(seconds * 1000)), Qt::UTC);
}

// What one exporter gave of one kluster, read from its series.
struct Given
{
    Kluster kluster;
    int critical = 0;
    int warning = 0;
    std::optional<double> rank;
    QString cause;
    bool causesKnown = false;
};

QString identityOf(const QMap<QString, QString> &labels)
{
    QString id = labels.value(QStringLiteral("project_id")) + QLatin1Char('/')
        + labels.value(QStringLiteral("kluster_name"));
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (!ownLabel(it.key()))
            id += QLatin1Char('\x1f') + it.key() + QLatin1Char('=') + it.value();
    }
    return id;
}

void take(const Sample &s, bool present, QHash<QString, QHash<QString, Given>> &given)
{
    const QString name = s.labels.value(QStringLiteral("kluster_name"));
    if (name.isEmpty())
        return;
    Given &g = given[identityOf(s.labels)][s.labels.value(QStringLiteral("instance"))];
    Kluster &k = g.kluster;
    if (k.name.isEmpty()) {
        k.name = name;
        k.projectId = s.labels.value(QStringLiteral("project_id"));
        k.exporter = s.labels.value(QStringLiteral("instance"));
        k.job = s.labels.value(QStringLiteral("job"));
        k.present = present;
        for (auto it = s.labels.cbegin(); it != s.labels.cend(); ++it) {
            if (!ownLabel(it.key()))
                k.target.insert(it.key(), it.value());
        }
    }
    // The metric a sample is of: its `series` label where the query gave one (label_replace), else its name.
    QString series = s.labels.value(QStringLiteral("series"));
    if (series.isEmpty())
        series = s.labels.value(QStringLiteral("__name__")).mid(int(qstrlen("flightdeck_")));
    if (series == seriesUp) {
        k.up = s.value == 1;
    } else if (series == seriesReadAt) {
        if (std::isfinite(s.value) && s.value > 0)
            k.readAt = timeOf(s.value);
    } else if (series == seriesCauses) {
        g.causesKnown = true;
        const QString severity = s.labels.value(QStringLiteral("severity"));
        const int n = std::isfinite(s.value) ? int(qBound(0.0, s.value, 1e9)) : 0;
        if (severity == QLatin1String("critical"))
            g.critical = n;
        else if (severity == QLatin1String("warning"))
            g.warning = n;
    } else if (series == seriesWorst) {
        // Within the look-back a kluster may have had several worst causes: the gravest is kept.
        if (std::isfinite(s.value) && (!g.rank || s.value < *g.rank)) {
            g.rank = s.value;
            g.cause = s.labels.value(QStringLiteral("cause"));
        }
    } else if (series == seriesPhase) {
        if (s.value == 1)
            k.phase = s.labels.value(QStringLiteral("phase"));
    } else if (series == seriesIncidents) {
        k.standing.incidents = std::isfinite(s.value) ? int(qBound(0.0, s.value, 1e9)) : 0;
    }
}

Kluster finished(Given g)
{
    Kluster k = std::move(g.kluster);
    KlusterStanding &s = k.standing;
    s.critical = g.critical;
    s.warning = g.warning;
    s.terminating = k.phase == QLatin1String("Terminating");
    if (g.critical > 0)
        s.worst = Severity::Critical;
    else if (g.warning > 0)
        s.worst = Severity::Warning;
    if (s.worst && g.rank) {
        s.worstRank = int(qBound(0.0, *g.rank, double(INT_MAX - 1)));
        s.worstCause = g.cause;
        s.reason = phraseOf(g.cause);
    } else if (s.terminating) {
        s.reason = QString(findingTraits(FindingKind::KlusterTerminating).phrase);
    }
    s.incidents = qMin(s.incidents, g.critical + g.warning);
    s.lone = g.critical + g.warning - s.incidents;
    if (!g.causesKnown && !k.readAt)
        k.reading = Reading::Unreadable;
    else if (k.present && k.up)
        k.reading = Reading::Fresh;
    else
        k.reading = Reading::Stale;
    return k;
}

// Of the exporters that gave one kluster: the one in its last scrape, then the freshest data, then by name.
bool preferred(const Kluster &a, const Kluster &b)
{
    if (a.present != b.present)
        return a.present;
    const qint64 ta = a.readAt ? a.readAt->toMSecsSinceEpoch() : 0;
    const qint64 tb = b.readAt ? b.readAt->toMSecsSinceEpoch() : 0;
    if (ta != tb)
        return ta > tb;
    return a.exporter < b.exporter;
}

QString exporterId(const QMap<QString, QString> &labels)
{
    return labels.value(QStringLiteral("instance")) + QLatin1Char('\x1f')
        + labels.value(QStringLiteral("job"));
}

} // namespace

QString queryName(Query query)
{
    switch (query) {
    case Query::Current:
        return QStringLiteral("current");
    case Query::Incidents:
        return QStringLiteral("incidents");
    case Query::Held:
        return QStringLiteral("held");
    case Query::Exporters:
        return QStringLiteral("exporters");
    }
    return QString();
}

QString promql(Query query)
{
    // The current series are read by their names, as they are (no function over thousands of series but
    // one sum); what exporters no longer scraped gave is taken from the look-back, only theirs (`unless` up),
    // each labelled with its metric (`series`: last_over_time drops the name).
    const auto held = [](const char *metric) {
        return QStringLiteral(
            "label_replace(last_over_time(flightdeck_%1[1h]) unless on (instance, job) (up == 1), "
            "\"series\", \"%1\", \"\", \"\")")
            .arg(QLatin1String(metric));
    };
    switch (query) {
    case Query::Current:
        return QStringLiteral(
            "{__name__=~\"flightdeck_(up|last_success_timestamp_seconds|causes|worst_cause_rank|"
            "kluster_phase)\"}");
    case Query::Incidents:
        return QStringLiteral("sum without (rule, severity) (flightdeck_incidents)");
    case Query::Held:
        return QStringLiteral("%1 or %2 or %3 or %4 or %5")
            .arg(held("up"), held("last_success_timestamp_seconds"), held("causes"), held("worst_cause_rank"),
                held("kluster_phase"));
    case Query::Exporters:
        return QStringLiteral(
            "label_replace(up * on (instance, job) group_left () max by (instance, job) "
            "(last_over_time(flightdeck_build_info[1h])), \"series\", \"up\", \"\", \"\") or "
            "label_replace(max by (instance, job) (last_over_time(timestamp(flightdeck_build_info)[1h:5s])), "
            "\"series\", \"seen\", \"\", \"\") or label_replace(max by (instance, job, shard, shards) "
            "(last_over_time(flightdeck_shard_info[1h])), \"series\", \"shard\", \"\", \"\")");
    }
    return QString();
}

QJsonValue answerRoot(const QByteArray &body, const QString &what)
{
    const JsonReader root(what, parseJsonDocument(what, body));
    root.requireObject();
    const QString status = root.requireString(QStringLiteral("status"));
    if (status != QLatin1String("success"))
        throw ParseError(what, QStringLiteral("$"),
            QStringLiteral("Prometheus answered %1: %2 [%3]")
                .arg(status, root.optString(QStringLiteral("error")),
                    root.optString(QStringLiteral("errorType"))));
    return root.value();
}

QList<Sample> parseVector(const QByteArray &body, const QString &what)
{
    const JsonReader root(what, answerRoot(body, what));
    const JsonReader data = root.requireField(QStringLiteral("data"));
    data.requireObject();
    const QString type = data.requireString(QStringLiteral("resultType"));
    if (type != QLatin1String("vector"))
        throw ParseError(what, data.path(), QStringLiteral("a %1, not a vector").arg(type.left(40)));
    QList<Sample> samples;
    // Each label name and value kept once: ten thousand klusters' series repeat the names on every sample,
    // and a kluster's name, project and exporter on each of its series (a third of a round's memory).
    QSet<QString> pool;
    const auto once = [&pool](const QString &text) { return *pool.insert(text); };
    data.requireField(QStringLiteral("result")).forEachElement([&](const JsonReader &r) {
        Sample s;
        const QJsonObject metric = r.requireField(QStringLiteral("metric")).requireObject();
        for (auto it = metric.begin(); it != metric.end(); ++it) {
            if (!it.value().isString())
                throw ParseError(
                    what, r.path(), QStringLiteral("label %1 is not a string").arg(it.key().left(40)));
            s.labels.insert(once(it.key()), once(it.value().toString()));
        }
        const JsonReader value = r.requireField(QStringLiteral("value"));
        const QJsonArray pair = value.requireArray();
        if (pair.size() != 2 || !pair.at(0).isDouble() || !pair.at(1).isString())
            throw ParseError(what, value.path(), QStringLiteral("not [time, \"value\"]"));
        s.timestamp = pair.at(0).toDouble();
        bool ok = false;
        const QString text = pair.at(1).toString();
        s.value = text == QLatin1String("NaN") ? std::nan("") : text.toDouble(&ok);
        if (!ok && text != QLatin1String("NaN")) {
            if (text == QLatin1String("+Inf"))
                s.value = HUGE_VAL;
            else if (text == QLatin1String("-Inf"))
                s.value = -HUGE_VAL;
            else
                throw ParseError(what, value.path(), QStringLiteral("the value is not a number"));
        }
        samples.append(std::move(s));
    });
    return samples;
}

QString Kluster::title() const
{
    if (target.isEmpty())
        return name;
    QStringList parts;
    for (auto it = target.cbegin(); it != target.cend(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return QStringLiteral("%1 (%2)").arg(name, parts.join(QStringLiteral(", ")));
}

QString Kluster::identity() const
{
    QMap<QString, QString> labels = target;
    labels.insert(QStringLiteral("kluster_name"), name);
    labels.insert(QStringLiteral("project_id"), projectId);
    return identityOf(labels);
}

Fleet assemble(const QList<QList<Sample>> &answers)
{
    Fleet fleet;
    const QList<Sample> none;
    const QList<Sample> &current = answers.value(int(Query::Current), none);
    const QList<Sample> &incidents = answers.value(int(Query::Incidents), none);
    const QList<Sample> &held = answers.value(int(Query::Held), none);
    const QList<Sample> &exporters = answers.value(int(Query::Exporters), none);

    double evaluated = 0;
    QMap<QString, Exporter> byId;
    for (const Sample &s : exporters) {
        evaluated = qMax(evaluated, s.timestamp);
        Exporter &e = byId[exporterId(s.labels)];
        e.instance = s.labels.value(QStringLiteral("instance"));
        e.job = s.labels.value(QStringLiteral("job"));
        const QString series = s.labels.value(QStringLiteral("series"));
        if (series == seriesUp) {
            e.up = s.value == 1;
        } else if (series == seriesSeen) {
            if (std::isfinite(s.value) && s.value > 0)
                e.lastSeen = timeOf(s.value);
        } else if (series == seriesShard) {
            bool a = false;
            bool b = false;
            const int shard = s.labels.value(QStringLiteral("shard")).toInt(&a);
            const int shards = s.labels.value(QStringLiteral("shards")).toInt(&b);
            if (a && b) {
                e.shard = shard;
                e.shards = shards;
            }
        }
    }
    QSet<QString> scraped; // instances scraped now: what they no longer export is gone, not stale
    for (const Exporter &e : std::as_const(byId)) {
        if (e.up)
            scraped.insert(e.instance);
    }

    QHash<QString, QHash<QString, Given>> given;
    for (const Sample &s : current) {
        evaluated = qMax(evaluated, s.timestamp);
        take(s, true, given);
    }
    for (Sample s : incidents) { // a sum: no name of its own
        s.labels.insert(QStringLiteral("series"), seriesIncidents);
        take(s, true, given);
    }
    for (const Sample &s : held) {
        evaluated = qMax(evaluated, s.timestamp);
        if (!scraped.contains(s.labels.value(QStringLiteral("instance"))))
            take(s, false, given);
    }
    fleet.evaluatedAt = evaluated > 0 ? timeOf(evaluated) : QDateTime::currentDateTimeUtc();

    QList<RankedKluster> ranked;
    QHash<QString, qsizetype> indexOf;
    for (auto it = given.begin(); it != given.end(); ++it) {
        QList<Kluster> candidates;
        for (auto g = it.value().begin(); g != it.value().end(); ++g)
            candidates << finished(std::move(g.value()));
        std::sort(candidates.begin(), candidates.end(), preferred);
        Kluster k = candidates.takeFirst();
        // The others that give it as it is given: in their last scrape too (an exporter no longer scraped
        // gives it no more), or held as it is.
        const auto alike = int(std::count_if(candidates.cbegin(), candidates.cend(),
            [&k](const Kluster &c) { return c.present == k.present; }));
        k.exporters = alike + 1;
        fleet.duplicates += alike;
        RankedKluster r;
        r.key = KlusterKey { k.identity(), k.name };
        r.reading = k.reading;
        r.standing = k.standing;
        indexOf.insert(k.identity(), fleet.klusters.size());
        ranked << r;
        fleet.klusters << std::move(k);
    }
    std::sort(ranked.begin(), ranked.end(), KlusterRanking::before);
    QList<Kluster> ordered;
    ordered.reserve(fleet.klusters.size());
    for (const RankedKluster &r : std::as_const(ranked))
        ordered << std::move(fleet.klusters[indexOf.value(r.key.connection)]);
    fleet.klusters = std::move(ordered);

    for (const Kluster &k : std::as_const(fleet.klusters)) {
        for (auto it = byId.begin(); it != byId.end(); ++it) {
            if (it->instance == k.exporter) {
                ++it->klusters;
                break;
            }
        }
    }
    fleet.exporters = byId.values();
    return fleet;
}

QStringList displayNames(const Fleet &fleet)
{
    const auto counted = [](const QStringList &names) {
        QHash<QString, int> n;
        for (const QString &name : names)
            ++n[name];
        return n;
    };
    QStringList names;
    for (const Kluster &k : fleet.klusters)
        names << k.name;
    const QHash<QString, int> byName = counted(names);
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (byName.value(names.at(i)) > 1)
            names[i] = fleet.klusters.at(i).title();
    }
    const QHash<QString, int> byTitle = counted(names);
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (byTitle.value(names.at(i)) > 1)
            names[i] += QStringLiteral(" · project ") + fleet.klusters.at(i).projectId;
        names[i].replace(QLatin1Char('/'), QChar(0x2215));
    }
    return names;
}

QString exportersText(const Fleet &fleet)
{
    const int n = int(fleet.exporters.size());
    QString text = n == 1 ? QStringLiteral("1 exporter") : QStringLiteral("%1 exporters").arg(n);
    QStringList down;
    for (const Exporter &e : fleet.exporters) {
        if (e.up)
            continue;
        down << (e.lastSeen ? QStringLiteral("%1, last scraped %2")
                                  .arg(e.instance, e.lastSeen->toUTC().toString(Qt::ISODate))
                            : e.instance);
    }
    if (!down.isEmpty())
        text += QStringLiteral(", %1 not scraped now (%2)")
                    .arg(down.size())
                    .arg(down.join(QStringLiteral("; ")));
    return text;
}

} // namespace ExportedFleet
