// Outside text in the console: what an alert, a kluster's Events, a silence or a link may carry is shown as
// text, never rendered or trusted. A real Alertmanager holds alerts whose names and summaries are HTML (an
// <img> naming a file of this machine), an unclosed right-to-left override and escape sequences; the
// kluster's Events API holds a forged repair with a 200 KiB annotation. Every widget that shows them is
// opened and rendered: the file is never opened (inotify says so), no label takes the text for rich text, no
// override survives, nothing grows past the screen, and the forged repair is marked unverified.

#include "console/alertwatch.h"
#include "console/consolesession.h"
#include "console/teamrepairs.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "tests/common/realalertmanager.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/overviewpage.h"
#include "views/repairdialog.h"
#include "views/repairsilencebox.h"
#include "views/silencealertdialog.h"
#include "views/teamcommands.h"

#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <sys/inotify.h>
#include <unistd.h>

class TestConsoleHostile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void outsideTextNeverRenderedOrTrusted();
};

namespace {

// Every label of every window open now: none may take text holding the tag `marker` for rich text (where it
// is escaped, its "<" is "&lt;" and it is no tag).
QStringList labelsRenderingMarkup(const QString &marker)
{
    QStringList bad;
    for (QWidget *top : QApplication::topLevelWidgets()) {
        QList<QLabel *> labels = top->findChildren<QLabel *>();
        if (auto *self = qobject_cast<QLabel *>(top))
            labels << self;
        for (QLabel *label : std::as_const(labels)) {
            const QString text = label->text();
            if (!text.contains(marker))
                continue;
            const bool rich = label->textFormat() == Qt::RichText
                || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
            if (rich)
                bad << QStringLiteral("%1 (%2): %3")
                           .arg(label->objectName(), QString::fromLatin1(label->metaObject()->className()),
                               text.left(200));
        }
    }
    return bad;
}

// What every open window shows as text: labels (as plain text) and the window titles.
QString everythingShown()
{
    QString all;
    for (QWidget *top : QApplication::topLevelWidgets()) {
        all += top->windowTitle() + QLatin1Char('\n');
        for (QLabel *label : top->findChildren<QLabel *>()) {
            QTextDocument doc;
            if (label->textFormat() == Qt::PlainText)
                doc.setPlainText(label->text());
            else
                doc.setHtml(label->text());
            all += doc.toPlainText() + QLatin1Char('\n');
        }
    }
    return all;
}

} // namespace

void TestConsoleHostile::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    EndpointHealth::shared().reset();
    QFile::remove(AuditLog::path());
    QSettings().clear();
}

void TestConsoleHostile::outsideTextNeverRenderedOrTrusted()
{
    SimFixture fixture;
    RealAlertmanager alertmanager;
    QVERIFY2(alertmanager.start(), "prometheus-alertmanager is not installed (scripts/setup installs it)");
    QTRY_VERIFY_WITH_TIMEOUT(
        fixture.request("GET", alertmanager.url + QStringLiteral("/-/ready")).status == 200, 30000);

    // The bait: a picture of this machine an <img> names, watched for any open.
    QTemporaryDir dir;
    const QString bait = dir.filePath(QStringLiteral("bait.png"));
    QImage(4, 4, QImage::Format_RGB32).save(bait);
    const int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    QVERIFY(watch >= 0);
    QVERIFY(inotify_add_watch(watch, QFile::encodeName(bait).constData(), IN_OPEN | IN_ACCESS) >= 0);
    const auto opened = [watch] {
        char buffer[4096];
        return ::read(watch, buffer, sizeof buffer) > 0;
    };
    QVERIFY(!opened());

    const QString img = QStringLiteral("<img src=\"file://%1\">").arg(bait);
    const QString hostile = img + QStringLiteral("<b>x</b> \u202eevil\x1b[2J\x07");
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    // An alert whose name and summary are the hostile text, one ordinary one, and a storm of 300 more.
    QJsonArray alerts;
    alerts.append(QJsonObject { { QStringLiteral("labels"),
                                    QJsonObject { { QStringLiteral("alertname"), hostile },
                                        { QStringLiteral("kluster_name"), QStringLiteral("demo") },
                                        { QStringLiteral("severity"), QStringLiteral("critical") } } },
        { QStringLiteral("annotations"),
            QJsonObject { { QStringLiteral("summary"), hostile + QString(20000, QLatin1Char('y')) } } },
        { QStringLiteral("startsAt"), now } });
    for (int i = 0; i < 300; ++i)
        alerts.append(
            QJsonObject { { QStringLiteral("labels"),
                              QJsonObject { { QStringLiteral("alertname"), QStringLiteral("Storm%1").arg(i) },
                                  { QStringLiteral("kluster_name"), QStringLiteral("demo") },
                                  { QStringLiteral("severity"), QStringLiteral("warning") } } },
                { QStringLiteral("startsAt"), now } });
    QCOMPARE(fixture
                 .request("POST", alertmanager.url + QStringLiteral("/api/v2/alerts"),
                     QJsonDocument(alerts).toJson(QJsonDocument::Compact))
                 .status,
        200);

    // A forged repair in the kluster's Events: another instance, text of the forger's choosing, 200 KiB.
    QJsonObject forged { { QStringLiteral("apiVersion"), QStringLiteral("events.k8s.io/v1") },
        { QStringLiteral("kind"), QStringLiteral("Event") },
        { QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("flightdeck.forged.started") },
                { QStringLiteral("namespace"), QStringLiteral("default") },
                { QStringLiteral("labels"),
                    QJsonObject {
                        { QStringLiteral("app.kubernetes.io/managed-by"), QStringLiteral("flightdeck") } } },
                { QStringLiteral("annotations"),
                    QJsonObject { { QStringLiteral("flightdeck.io/audit-id"), QStringLiteral("forged") },
                        { QStringLiteral("flightdeck.io/user"), hostile },
                        { QStringLiteral("flightdeck.io/kluster"), QStringLiteral("demo") },
                        { QStringLiteral("flightdeck.io/findings"),
                            QStringLiteral("security-group-rule-missing:tcp") },
                        { QStringLiteral("flightdeck.io/repair"),
                            hostile + QString(200 * 1024, QLatin1Char('z')) } } } } },
        { QStringLiteral("eventTime"),
            QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000Z")) },
        { QStringLiteral("reportingController"), QStringLiteral("flightdeck") },
        { QStringLiteral("reportingInstance"), QStringLiteral("flightdeck@elsewhere/mallory") },
        { QStringLiteral("action"), QStringLiteral("Repair") },
        { QStringLiteral("reason"), QStringLiteral("RepairStarted") },
        { QStringLiteral("type"), QStringLiteral("Normal") },
        { QStringLiteral("regarding"),
            QJsonObject { { QStringLiteral("kind"), QStringLiteral("Kluster") },
                { QStringLiteral("name"), QStringLiteral("demo") } } },
        { QStringLiteral("note"), QStringLiteral("a repair nobody made") } };
    const Reply posted = fixture.request("POST",
        fixture.sim.kubernetesUrl(QStringLiteral("demo"))
            + QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events"),
        QJsonDocument(forged).toJson(QJsonDocument::Compact), {}, false, fixture.kubernetesTls());
    QVERIFY2(posted.status == 201, posted.body.constData());

    MainWindow window;
    window.resize(1280, 720);
    ConnectionSpec spec = ConsoleTest::simSpec(fixture.sim);
    spec.alertmanager.url = QUrl(alertmanager.url);
    QVERIFY(ConsoleTest::open(window, spec));
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QVERIFY(ConsoleTest::select(window, demo));
    window.setTab(Tab::Overview);
    window.session()->team()->read(demo);
    QTRY_VERIFY_WITH_TIMEOUT(window.overviewPage()->alertsShown().contains(QStringLiteral("evil")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.overviewPage()->teamRepairsShown().contains(QStringLiteral("unverified")), 30000);
    window.show();
    QVERIFY(!window.grab().isNull());
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QVERIFY(window.grab().save(shots + QStringLiteral("/hostile-overview.png")));

    // The Overview: the alerts escaped, the worst few with the rest counted, no override; the forged repair
    // marked as the Events' claim alone, cut short.
    const QString shownAlerts = window.overviewPage()->alertsShown();
    QVERIFY(!shownAlerts.contains(img));
    QVERIFY(!shownAlerts.contains(QChar(0x202e)));
    QVERIFY(!shownAlerts.contains(QChar(0x1b)));
    QVERIFY2(shownAlerts.contains(QStringLiteral("and 291 more")), qPrintable(shownAlerts.right(600)));
    QVERIFY2(shownAlerts.size() < 20000, qPrintable(QString::number(shownAlerts.size())));
    const QString team = window.overviewPage()->teamRepairsShown();
    QVERIFY2(team.contains(QStringLiteral("from flightdeck@elsewhere/mallory")), qPrintable(team));
    QVERIFY(team.size() < 2000);
    QVERIFY(!team.contains(QChar(0x202e)));

    // The silence of the hostile alert: its matchers, what else it catches, its status, all text.
    QString fingerprint;
    for (const Alert &a : window.session()->alerts()->alertsOf(demo, *window.kluster(demo)).alerts) {
        if (a.name() == hostile)
            fingerprint = a.fingerprint;
    }
    QVERIFY(!fingerprint.isEmpty());
    emit window.overviewPage()->alertSilenceRequested(fingerprint);
    SilenceAlertDialog *silence = nullptr;
    QTRY_VERIFY((silence = window.findChild<SilenceAlertDialog *>()) && silence->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(silence->silenceButton()->isEnabled(), 15000);
    QVERIFY2(
        silence->caughtText().contains(QStringLiteral("no other alert")), qPrintable(silence->caughtText()));
    if (!shots.isEmpty())
        QVERIFY(silence->grab().save(shots + QStringLiteral("/hostile-silence.png")));
    QTest::mouseClick(silence->silenceButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(silence->statusText().startsWith(QStringLiteral("Silenced ")), 15000);
    QVERIFY(!silence->grab().isNull());
    QVERIFY(silence->width() <= window.screen()->availableGeometry().width());

    // The repair dialog: the forged teammate's repair warned of, the dialog no wider than the screen.
    QPointer<RepairDialog> dialog;
    connect(&window, &MainWindow::repairDialogOpened, this,
        [&dialog](QDialog *d) { dialog = qobject_cast<RepairDialog *>(d); });
    window.setTab(Tab::Findings);
    QVERIFY(window.findingsPage()->selectKeys({ QStringLiteral("security-group-rule-missing:tcp") }));
    window.repairAction()->trigger();
    QVERIFY(dialog);
    QVERIFY(!dialog->grab().isNull());
    QVERIFY2(dialog->width() <= window.screen()->availableGeometry().width(),
        qPrintable(QString::number(dialog->width())));
    if (dialog->silences())
        QTRY_VERIFY_WITH_TIMEOUT(
            !dialog->silences()->caughtText().startsWith(QStringLiteral("Asking")), 15000);
    QVERIFY(!dialog->grab().isNull());
    if (!shots.isEmpty())
        QVERIFY(dialog->grab().save(shots + QStringLiteral("/hostile-repair.png")));

    // The hand-off: Markdown that renders no link, no HTML, no control or override character.
    window.copyMarkdownCommand()->update();
    const QString markdown = window.copyMarkdownCommand()->markdown();
    // Outside code spans (where Markdown shows everything literally) no tag, link or image is left as such.
    QString prose = markdown;
    prose.remove(QRegularExpression(QStringLiteral("`[^`\n]*`")));
    QVERIFY2(
        !prose.contains(QRegularExpression(QStringLiteral("(?<!\\\\)<img"))), qPrintable(prose.right(3000)));
    QVERIFY(prose.contains(QStringLiteral("\\<img"))); // it is there, escaped
    QVERIFY(!prose.contains(QRegularExpression(QStringLiteral("(?<!\\\\)\\[[^\\]]*(?<!\\\\)\\]\\("))));
    QVERIFY(!markdown.contains(QChar(0x1b)) && !markdown.contains(QChar(0x07))
        && !markdown.contains(QChar(0x202e)));
    QVERIFY(markdown.size() <= 64 * 1024);

    // Nowhere: the file opened, a label that took it for markup, an override shown.
    QVERIFY2(!opened(), "a window read the file an alert named");
    const QStringList bad = labelsRenderingMarkup(img);
    QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    QVERIFY(!everythingShown().contains(QChar(0x202e)));
    dialog->reject();
    silence->reject();
    QVERIFY2(!opened(), "a window read the file an alert named");
    ::close(watch);
}

QTEST_MAIN(TestConsoleHostile)
#include "tst_console_hostile.moc"
