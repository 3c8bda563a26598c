#include "views/severitystyle.h"

#include <QApplication>
#include <QPalette>
#include <QSet>
#include <QTest>

// The one look of severities: a colour, a tint, a wash, an icon and a word for each, and for none.
class TestSeverityStyle : public QObject
{
    Q_OBJECT
private slots:
    void eachSeverityHasItsOwnLook();
    void onlyProblemsAreTinted();
    void washReadsOnLightAndDark();
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
