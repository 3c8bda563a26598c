#include "core/exporterreport.h"

#include "core/apiparser.h"
#include "core/exportedfleet.h"
#include "core/json/jsonreader.h"

#include <QJsonObject>

namespace ExporterReport {

namespace {

Severity severityAt(const JsonReader &r, const QString &what)
{
    const QString name = r.requireString(QStringLiteral("severity"));
    const std::optional<Severity> s = severityFromName(name);
    if (!s)
        throw ParseError(what, r.path(), QStringLiteral("unknown severity \"%1\"").arg(name.left(40)));
    return *s;
}

// A plan's title and requests ({"title", "requests": [{"service", "method", "path", "permission"}]}); null:
// none.
void readRepair(const JsonReader &r, QString *title, QList<Request> *requests)
{
    const JsonReader repair = r.child(QStringLiteral("repair"));
    if (repair.isUndefined() || repair.isNull())
        return;
    repair.requireObject();
    *title = repair.requireString(QStringLiteral("title"));
    if (!requests)
        return;
    repair.forEachElementOf(QStringLiteral("requests"), [&](const JsonReader &q) {
        q.requireObject();
        requests->append({ q.requireString(QStringLiteral("method")), q.optString(QStringLiteral("service")),
            q.requireString(QStringLiteral("path")), q.optString(QStringLiteral("permission")) });
    });
}

QString automationLine(const JsonReader &r)
{
    const JsonReader a = r.child(QStringLiteral("automation"));
    if (a.isUndefined() || a.isNull())
        return QString();
    a.requireObject();
    QString line = QStringLiteral("%1: %2").arg(
        a.requireString(QStringLiteral("actor")), a.requireString(QStringLiteral("action")));
    if (const QString due = a.optString(QStringLiteral("due")); !due.isEmpty())
        line += QStringLiteral(", due %1").arg(due);
    if (a.optBool(QStringLiteral("overdue")))
        line += QStringLiteral(" (overdue)");
    return line;
}

} // namespace

Report parse(const QByteArray &body, const QString &what)
{
    const JsonReader root(what, parseJsonDocument(what, body));
    root.requireObject();
    Report report;
    report.kluster = root.requireString(QStringLiteral("kluster"));
    report.capturedAt = ApiParser::optTimestampOf(root, QStringLiteral("capturedAt"));
    report.phase = root.optString(QStringLiteral("phase"));
    root.forEachElementOf(QStringLiteral("findings"), [&](const JsonReader &f) {
        f.requireObject();
        Reported r;
        r.id = f.requireString(QStringLiteral("id"));
        r.kind = f.requireString(QStringLiteral("kind"));
        r.subject = f.optString(QStringLiteral("subject"));
        r.severity = severityAt(f, what);
        r.message = f.optString(QStringLiteral("message"));
        readRepair(f, &r.repairTitle, &r.requests);
        r.incident = f.optString(QStringLiteral("incident"));
        r.automation = automationLine(f);
        report.findings << r;
    });
    root.forEachElementOf(QStringLiteral("incidents"), [&](const JsonReader &i) {
        i.requireObject();
        Incident incident;
        incident.id = i.requireString(QStringLiteral("id"));
        incident.rule = i.optString(QStringLiteral("rule"));
        incident.title = i.optString(QStringLiteral("title"));
        incident.severity = severityAt(i, what);
        i.forEachElementOf(QStringLiteral("members"),
            [&](const JsonReader &m) { incident.members << m.requireStringValue(); });
        readRepair(i, &incident.repairTitle, nullptr);
        report.incidents << incident;
    });
    const JsonReader summary = root.child(QStringLiteral("summary"));
    if (!summary.isUndefined() && !summary.isNull()) {
        summary.requireObject();
        report.critical = int(summary.optIntegerIn(QStringLiteral("critical"), 0, 1 << 30).value_or(0));
        report.warning = int(summary.optIntegerIn(QStringLiteral("warning"), 0, 1 << 30).value_or(0));
        report.info = int(summary.optIntegerIn(QStringLiteral("info"), 0, 1 << 30).value_or(0));
    } else {
        for (const Reported &r : std::as_const(report.findings))
            ++(r.severity == Severity::Critical       ? report.critical
                    : r.severity == Severity::Warning ? report.warning
                                                      : report.info);
    }
    return report;
}

std::optional<QUrl> exporterUrl(
    const QByteArray &targetsBody, const QString &instance, const QString &job, const QString &what)
{
    const JsonReader root(what, ExportedFleet::answerRoot(targetsBody, what));
    const JsonReader data = root.requireField(QStringLiteral("data"));
    data.requireObject();
    std::optional<QUrl> found;
    data.forEachElementOf(QStringLiteral("activeTargets"), [&](const JsonReader &t) {
        if (found)
            return;
        t.requireObject();
        const JsonReader labels = t.requireField(QStringLiteral("labels"));
        if (labels.optString(QStringLiteral("instance")) != instance
            || (!job.isEmpty() && labels.optString(QStringLiteral("job")) != job))
            return;
        QUrl url(t.requireString(QStringLiteral("scrapeUrl")), QUrl::StrictMode);
        if (!url.isValid()
            || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
            || url.host().isEmpty())
            throw ParseError(what, t.path(), QStringLiteral("scrapeUrl is not an http(s) URL"));
        url.setQuery(QString());
        url.setFragment(QString());
        url.setUserInfo(QString());
        QString path = url.path();
        path.truncate(path.lastIndexOf(QLatin1Char('/')) < 0 ? 0 : path.lastIndexOf(QLatin1Char('/')));
        url.setPath(path);
        found = url;
    });
    return found;
}

QUrl exporterUrlOf(const QString &instance)
{
    return QUrl(QStringLiteral("http://") + instance, QUrl::StrictMode);
}

QUrl reportUrl(const QUrl &exporter, const QString &kluster, const QString &projectId)
{
    QUrl url = exporter;
    QString base = url.path(QUrl::FullyEncoded);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + QStringLiteral("/klusters/") + QString::fromLatin1(QUrl::toPercentEncoding(kluster)),
        QUrl::StrictMode);
    if (!projectId.isEmpty())
        url.setQuery(QStringLiteral("project_id=") + QString::fromLatin1(QUrl::toPercentEncoding(projectId)),
            QUrl::StrictMode);
    return url;
}

} // namespace ExporterReport
