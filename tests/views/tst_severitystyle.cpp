#include "core/diagnosis.h"
#include "views/overviewpage.h"
#include "views/severitystyle.h"

#include <QApplication>
#include <QFrame>
#include <QPalette>
#include <QSet>
#include <QTest>

// The one look of severities: a colour, a tint, a wash, an icon and a word for each, and for none; and the
// Overview's incident rows, tinted with it.
class TestSeverityStyle : public QObject
{
    Q_OBJECT
private slots:
    void eachSeverityHasItsOwnLook();
    void onlyProblemsAreTinted();
    void washReadsOnLightAndDark();
    void incidentRowsForTheWorstTheRestCounted();
};

static const QList<std::optional<Severity>> All { Severity::Critical, Severity::Warning, Severity::Info,
    std::nullopt };

void TestSeverityStyle::eachSeverityHasItsOwnLook()
{
    QSet<QRgb> colours;
    QSet<QString> words;
    for (const std::optional<Severity> &s : All) {
        colours.insert(SeverityStyle::colour(s).rgb());
        words.insert(SeverityStyle::word(s));
        QVERIFY(!SeverityStyle::icon(s).isNull());
        QVERIFY(!SeverityStyle::statusIcon(s).isNull());
    }
    QCOMPARE(colours.size(), All.size());
    QCOMPARE(words,
        (QSet<QString> { QStringLiteral("critical"), QStringLiteral("warning"), QStringLiteral("info"),
            QStringLiteral("healthy") }));
    QCOMPARE(SeverityStyle::word(Severity::Warning), severityName(Severity::Warning)); // the report's word
}

void TestSeverityStyle::onlyProblemsAreTinted()
{
    for (Severity s : { Severity::Critical, Severity::Warning }) {
        const QColor tint = SeverityStyle::tint(s);
        QVERIFY(tint.isValid() && tint.alpha() < 255); // over the row, light or dark
        QCOMPARE(tint.rgb() & 0xffffff, SeverityStyle::colour(s).rgb() & 0xffffff);
    }
    QVERIFY(!SeverityStyle::tint(Severity::Info).isValid());
    QVERIFY(!SeverityStyle::tint(std::nullopt).isValid());
}

void TestSeverityStyle::washReadsOnLightAndDark()
{
    QPalette light;
    light.setColor(QPalette::Window, QColor(239, 239, 239));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(35, 38, 41));
    for (const std::optional<Severity> &s : All) {
        const QColor onLight = SeverityStyle::wash(s, light);
        const QColor onDark = SeverityStyle::wash(s, dark);
        QVERIFY2(onLight.lightness() > 170, qPrintable(onLight.name()));
        QVERIFY2(onDark.lightness() < 100, qPrintable(onDark.name()));
        QVERIFY(onLight != light.color(QPalette::Window)); // tinted, not the window itself
    }
}

QTEST_MAIN(TestSeverityStyle)
#include "tst_severitystyle.moc"

void TestSeverityStyle::incidentRowsForTheWorstTheRestCounted()
{
    // Nine incidents, the worst first (as the diagnosis orders them): six get a row of their own, tinted
    // with their severity; the rest are counted beneath, how many of them critical said.
    Diagnosis diagnosis;
    for (int i = 0; i < 9; ++i) {
        Incident incident;
        incident.rule = IncidentRule::RouterFull;
        incident.key = QStringLiteral("router-%1").arg(i);
        incident.severity = i < 7 ? Severity::Critical : Severity::Warning;
        incident.title = QStringLiteral("router %1 is full").arg(i);
        incident.members = { QStringLiteral("route-limit:router-%1").arg(i) };
        diagnosis.incidents << incident;
    }
    OverviewPage page;
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    const QStringList lines = page.incidentLines();
    QCOMPARE(lines.size(), 7);
    QVERIFY2(lines.first().startsWith(QStringLiteral("router 0 is full")), qPrintable(lines.first()));
    QVERIFY2(lines.last().startsWith(QStringLiteral("3 more incidents, 1 of them critical")),
        qPrintable(lines.last()));
    QList<QFrame *> rows;
    for (QFrame *f : page.findChildren<QFrame *>()) {
        if (f->frameShape() == QFrame::StyledPanel && f->autoFillBackground())
            rows << f;
    }
    QCOMPARE(rows.size(), 6);
    QCOMPARE(rows.first()->palette().color(QPalette::Window), SeverityStyle::tint(Severity::Critical));

    // The same incidents again (a refresh that changed nothing): the rows stay, none made again.
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    QList<QFrame *> again;
    for (QFrame *f : page.findChildren<QFrame *>()) {
        if (f->frameShape() == QFrame::StyledPanel && f->autoFillBackground())
            again << f;
    }
    QCOMPARE(again, rows);

    // Fewer: no count beneath.
    diagnosis.incidents.resize(2);
    page.showIncidents(diagnosis, {}, QDateTime::currentDateTimeUtc(), false);
    QCOMPARE(page.incidentLines().size(), 2);
}
