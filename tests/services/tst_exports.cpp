#include "core/checkreport.h"
#include "core/incidentreport.h"
#include "services/local/exports.h"
#include "tests/common/worldbuilder.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

// The console's exports: each file written whole or not at all, an error that names it.
class TestExports : public QObject
{
    Q_OBJECT
private slots:
    void replacesTheFileWhole();
    void failureNamesTheFileAndLeavesNothing();
    void csvQuotesWhatItMust();
    void jsonLinesOneRecordALine();
    void reportInEachFormat();
    void htmlLeadsWithTheIncidents();

private:
    static QByteArray contents(const QString &path);
    QTemporaryDir m_tmp;
};

QByteArray TestExports::contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestExports::replacesTheFileWhole()
{
    const QString path = m_tmp.filePath("report.html");
    QString error;
    QVERIFY2(Exports::writeFile(path, QByteArray(10000, 'a'), &error), qPrintable(error));
    QVERIFY2(Exports::writeFile(path, "short", &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray("short")); // nothing of the longer one left
    QCOMPARE(QDir(m_tmp.path()).entryList(QDir::Files), QStringList { "report.html" }); // no temporary left
}

void TestExports::failureNamesTheFileAndLeavesNothing()
{
    const QString path = m_tmp.filePath("no such folder/report.csv");
    QString error;
    QVERIFY(!Exports::writeCsv(path, { "a" }, { { "1" } }, &error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
    QVERIFY(error.size() > path.size() + 2); // and why
    QVERIFY(!QFile::exists(path));
}

void TestExports::csvQuotesWhatItMust()
{
    const QString path = m_tmp.filePath("audit.csv");
    QString error;
    const QList<QStringList> rows { { "2026-11-21 10:00", "route-duplicate:198.19.1.0/24" },
        { "later", "said \"no\", twice\nthen yes" } };
    QVERIFY2(Exports::writeCsv(path, { "Time", "Finding" }, rows, &error), qPrintable(error));
    QCOMPARE(contents(path),
        QByteArray("Time,Finding\r\n"
                   "2026-11-21 10:00,route-duplicate:198.19.1.0/24\r\n"
                   "later,\"said \"\"no\"\", twice\nthen yes\"\r\n"));
}

void TestExports::jsonLinesOneRecordALine()
{
    const QString path = m_tmp.filePath("audit.jsonl");
    const QList<QJsonObject> records { { { "finding", "a" }, { "status", 200 } }, { { "finding", "b\nc" } } };
    QString error;
    QVERIFY2(Exports::writeJsonLines(path, records, &error), qPrintable(error));
    const QList<QByteArray> lines = contents(path).split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines.last().isEmpty()); // each line ends with a newline
    QCOMPARE(QJsonDocument::fromJson(lines.at(0)).object(), records.at(0));
    QCOMPARE(QJsonDocument::fromJson(lines.at(1)).object(), records.at(1));

    QVERIFY2(Exports::writeJsonLines(path, {}, &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray()); // nothing shown, nothing exported
}

void TestExports::reportInEachFormat()
{
    WorldBuilder w;
    w.healthyMember("kks-demo-pool-aaaaa", "10.0.0.4", "100.100.4.0/24");
    w.route("100.100.4.0/24", "10.0.0.98"); // a duplicate: something to report
    const KlusterState state = w.state();
    const Diagnosis diagnosis = Diagnosis::run(state);
    QVERIFY(!diagnosis.findings.isEmpty());
    const QList<QPair<Exports::ReportFormat, QByteArray>> formats {
        { Exports::ReportFormat::Html, IncidentReport::toHtml(state, diagnosis) },
        { Exports::ReportFormat::FindingsCsv, IncidentReport::findingsCsv(diagnosis) },
        { Exports::ReportFormat::CheckJson, CheckReport::toJson(state, diagnosis) },
    };
    for (const auto &[format, expected] : formats) {
        const QString path = m_tmp.filePath(QStringLiteral("report-%1").arg(int(format)));
        QString error;
        QVERIFY2(Exports::writeReport(path, format, state, diagnosis, &error), qPrintable(error));
        QCOMPARE(contents(path), expected);
    }
}

// The HTML report opens with the incidents (title, severity, members linked to their findings below, the
// incident's repair, its timeline from the history), then the findings in none; every finding keeps its
// section, which names its incident.
void TestExports::htmlLeadsWithTheIncidents()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 4);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-ccccc"), QStringLiteral("10.0.0.6"), QStringLiteral("100.100.6.0/24"));
    // A recycled pod CIDR: the route to it still leads to its lost owner.
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 600);
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 600);
    const int b = w.node(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), QStringLiteral("100.100.4.0/24"));
    w.setCondition(
        b, QStringLiteral("NetworkUnavailable"), QStringLiteral("True"), QStringLiteral("NoRouteCreated"));
    w.route(QStringLiteral("100.100.4.0/24"), QStringLiteral("10.0.0.4"));
    // And a finding of its own: a route to nobody.
    w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99"));
    const KlusterState state = w.state();
    const Diagnosis diagnosis = Diagnosis::run(state);
    QCOMPARE(diagnosis.incidents.size(), 1);
    const Incident &incident = diagnosis.incidents.constFirst();
    QList<const Finding *> alone;
    for (const Finding &f : diagnosis.findings) {
        if (!diagnosis.incidentOf(f.id()))
            alone << &f;
    }
    QVERIFY(!alone.isEmpty());

    IncidentReport::History history;
    history.asOf = state.capturedAt;
    const QDateTime opened = state.capturedAt.addSecs(-7200), resolved = state.capturedAt.addSecs(-5400),
                    again = state.capturedAt.addSecs(-1800);
    history.incidentTimelines.insert(incident.id(), { { opened, resolved, true }, { again, {}, false } });
    history.timelines.insert(incident.members.constFirst(), { { opened, {}, true } });
    const QString html = QString::fromUtf8(IncidentReport::toHtml(state, diagnosis, &history));
    const auto at = [&html](const QString &text) {
        const qsizetype i = html.indexOf(text);
        if (i < 0)
            qWarning().noquote() << "not in the report:" << text;
        return i;
    };
    const auto anchor = [](const char *prefix, const QString &id) {
        return QLatin1String(prefix) + QString::fromLatin1(QUrl::toPercentEncoding(id, ":@"));
    };

    // The verdict counts incidents and the findings in none; the incidents come first.
    QVERIFY(html.contains(QStringLiteral("1 incident and %1 %2 in none")
                              .arg(alone.size())
                              .arg(alone.size() == 1 ? "finding" : "findings")));
    const qsizetype incidents = at(QStringLiteral("<h2>Incidents (1)</h2>"));
    const qsizetype lone = at(QStringLiteral("<h2>Findings in no incident (%1)</h2>").arg(alone.size()));
    const qsizetype every = at(QStringLiteral("<h2>Every finding</h2>"));
    QVERIFY(incidents > 0 && incidents < lone && lone < every);
    const qsizetype title = at(QStringLiteral("<h3 id=\"%1\" class=\"critical\">[critical] %2</h3>")
                                   .arg(anchor("incident-", incident.id()), incident.title.toHtmlEscaped()));
    QVERIFY(title > incidents && title < lone);
    // Its members link to their sections below, and each section links back.
    for (const QString &member : incident.members) {
        const qsizetype link = at(
            QStringLiteral("href=\"#%1\">%2</a>").arg(anchor("finding-", member), member.toHtmlEscaped()));
        QVERIFY2(link > title && link < lone, qPrintable(member));
        const qsizetype section = at(QStringLiteral("<h3 id=\"%1\"").arg(anchor("finding-", member)));
        QVERIFY2(section > every, qPrintable(member));
        QVERIFY(html.indexOf(QStringLiteral("Part of the incident <a href=\"#%1\">")
                                 .arg(anchor("incident-", incident.id())),
                    section)
            > section);
    }
    // Its one repair, and its timeline from the history, before the findings in none.
    const std::optional<RepairPlan> plan = incident.repair();
    QVERIFY(plan);
    const qsizetype repair
        = at(QStringLiteral("<h4>Repair of the incident: %1</h4>").arg(plan->title.toHtmlEscaped()));
    QVERIFY(repair > title && repair < lone);
    const qsizetype timeline = html.indexOf(QStringLiteral("<h4>Timeline</h4>"), title);
    QVERIFY(timeline > title && timeline < lone);
    QVERIFY(at(QStringLiteral("<li>seen on the first recorded refresh, %1: resolved %2 (after 30 min)</li>")
                    .arg(opened.toUTC().toString(Qt::ISODate), resolved.toUTC().toString(Qt::ISODate)))
        > timeline);
    QVERIFY(at(QStringLiteral("<li>first seen %1: open at this report (30 min)</li>")
                    .arg(again.toUTC().toString(Qt::ISODate)))
        > timeline);
    // The findings in none, listed after the incidents, none of the members among them.
    for (const Finding *f : std::as_const(alone)) {
        const qsizetype row = html.indexOf(QStringLiteral("<a href=\"#%1\">%2</a>")
                                               .arg(anchor("finding-", f->id()), f->id().toHtmlEscaped()),
            lone);
        QVERIFY2(row > lone && row < every, qPrintable(f->id()));
    }
    // A member's own timeline stays in its section.
    const qsizetype memberSection
        = at(QStringLiteral("<h3 id=\"%1\"").arg(anchor("finding-", incident.members.constFirst())));
    QVERIFY(html.indexOf(QStringLiteral("<h4>Timeline</h4>"), memberSection) > memberSection);

    // Without a history: no timeline, the incidents still first.
    const QString bare = QString::fromUtf8(IncidentReport::toHtml(state, diagnosis));
    QVERIFY(!bare.contains(QStringLiteral("Timeline")));
    QVERIFY(bare.indexOf(QStringLiteral("<h2>Incidents (1)</h2>"))
        < bare.indexOf(QStringLiteral("<h2>Findings in no incident")));

    // No incident: no incidents section, every finding in the one table.
    WorldBuilder plain;
    plain.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    plain.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99"));
    const KlusterState plainState = plain.state();
    const Diagnosis plainDiagnosis = Diagnosis::run(plainState);
    QVERIFY(plainDiagnosis.incidents.isEmpty() && !plainDiagnosis.findings.isEmpty());
    const QString none = QString::fromUtf8(IncidentReport::toHtml(plainState, plainDiagnosis));
    QVERIFY(!none.contains(QStringLiteral("Incidents (")));
    QVERIFY(!none.contains(QStringLiteral("in no incident")));
    QVERIFY(none.contains(QStringLiteral("<a href=\"#%1\">")
                              .arg(anchor("finding-", plainDiagnosis.findings.constFirst().id()))));
}

QTEST_GUILESS_MAIN(TestExports)
#include "tst_exports.moc"
