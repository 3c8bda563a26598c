// The on-call walk, by keyboard only: every step is a key pressed where the
// focus is, as an engineer at 3 am would press it. From the worst kluster to
// a route-duplicate, its repair previewed, confirmed, verified, and in the
// audit view; the same from the Routes tab, from the filter, from F8, and by
// tabbing into a table. Each step asserts what is selected and what the
// dialog will send.

#include "console/consolesession.h"
#include "console/historyclient.h"
#include "core/flightdecklink.h"
#include "models/auditmodel.h"
#include "models/consolemodels.h"
#include "models/findingsmodel.h"
#include "services/http/endpointhealth.h"
#include "services/repair/auditlog.h"
#include "services/settings.h"
#include "tests/simulator/simfixture.h"
#include "tests/views/consolefixture.h"
#include "views/acknowledgecommand.h"
#include "views/commandpalette.h"
#include "views/fleetpage.h"
#include "views/fleetview.h"
#include "views/nodespage.h"
#include "views/notifier.h"
#include "views/overviewpage.h"
#include "views/repairdialog.h"
#include "views/tablepage.h"
#include "views/windowcommands.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

using ConsoleTest::press;
using ConsoleTest::waitSettled;

namespace {

const QString Duplicate = QStringLiteral("route-duplicate:198.19.1.0/24");

// Typed a key at a time wherever the focus is then (the first key may move it, as Ctrl+K's list does).
void type(const QString &text)
{
    for (const QChar c : text)
        QTest::keyClicks(QApplication::focusWidget(), QString(c));
}

// scripts/screenshots: `window` (and a dialog over it, centred) as docs/screenshots/<name>.png.
void shoot(QWidget *window, QWidget *dialog, const QString &name)
{
    const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR");
    if (shots.isEmpty())
        return;
    window->resize(1280, 720);
    QTest::qWait(50);
    QPixmap shot = window->grab();
    if (dialog) {
        QPainter painter(&shot);
        painter.drawPixmap(
            (shot.width() - dialog->width()) / 2, (shot.height() - dialog->height()) / 2, dialog->grab());
    }
    shot.save(shots + QStringLiteral("/") + name + QStringLiteral(".png"));
}

} // namespace

class TestConsoleKeyboard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fromTheFilter();
    void fromTheRoutesView();
    void allRouteFindingsOfTheRouter();
    void fromNextFinding();
    void worstFirstByImpact();
    void filtersAreNoTrap();
    void copyRowsAndTheirFacts();
    void tabbingIntoATable();
    void acknowledgeAndWithdraw();
    void paletteToAKlusterAViewAndAnAction();
    void retryAfterAFailedRepair();
    void incidentsByKeyboard();
    void fleetByKeyboard();
    void runbookOfTheSelection();
    void linkAndHandOffByKeyboard();
    void everyTabStopShows();
    void filterStaysWithItsKluster();
    void incidentRepairKeepsTheKeyboard();
    void everyCommandInItsPlaceWithKeysOfItsOwn();

private:
    [[nodiscard]] bool start();
    [[nodiscard]] bool goToLegacy();
    // Sent with Alt and the action's letter, or (`sendKey`) with Ctrl+Enter, the one send key of every repair
    // dialog.
    [[nodiscard]] bool repairByKeyboard(const QString &findingId, bool sendKey = false);

    std::unique_ptr<SimFixture> m_fixture;
    std::unique_ptr<MainWindow> m_window;
    QPointer<RepairDialog> m_dialog;
};

void TestConsoleKeyboard::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestConsoleKeyboard::init()
{
    // A simulator of an earlier test may have listened on the same port: its failures are not this one's.
    EndpointHealth::shared().reset();
    QFile::remove(AuditLog::path());
    QSettings().clear();
    m_fixture = std::make_unique<SimFixture>();
}

void TestConsoleKeyboard::cleanup()
{
    m_window.reset();
    m_fixture.reset();
}

bool TestConsoleKeyboard::start()
{
    m_window = std::make_unique<MainWindow>();
    connect(m_window.get(), &MainWindow::repairDialogOpened, this,
        [this](QDialog *d) { m_dialog = qobject_cast<RepairDialog *>(d); });
    m_window->addConnection(ConsoleTest::simSpec(m_fixture->sim), false);
    m_window->show();
    return ConsoleTest::activate(m_window.get()) && waitSettled(*m_window)
        && m_window->currentKey().toString() == QStringLiteral("sim/demo"); // the worst kluster first
}

// Ctrl+K, type the kluster's name, Enter: the kluster list filtered, the kluster chosen.
bool TestConsoleKeyboard::goToLegacy()
{
    QSignalSpy shown(m_window.get(), &MainWindow::viewsShown);
    press(Qt::Key_K, Qt::ControlModifier);
    if (QApplication::focusWidget() != m_window->sidebar())
        return false;
    type(QStringLiteral("legacy"));
    if (QApplication::focusWidget() != m_window->sidebarFilter()
        || ConsoleTest::sidebarRows(m_window->sidebar()).size() != 1)
        return false;
    press(Qt::Key_Return);
    const KlusterKey legacy { QStringLiteral("sim"), QStringLiteral("legacy") };
    while (m_window->currentKey() != legacy || shown.isEmpty()
        || shown.last().first().value<KlusterKey>() != legacy) {
        if (!shown.wait(10000))
            return false;
    }
    return QApplication::focusWidget() == m_window->sidebar();
}

// Ctrl+R on what is selected; the dialog names the repair; Alt+its letter confirms; verified; Escape closes;
// Ctrl+6 shows the record in the audit view.
bool TestConsoleKeyboard::repairByKeyboard(const QString &findingId, bool sendKey)
{
    press(Qt::Key_R, Qt::ControlModifier);
    // The dialog takes the keyboard (the console asks for it; a window manager would give it anyway).
    if (!m_dialog || !m_dialog->isVisible() || !ConsoleTest::activate(m_dialog)) {
        qWarning("Ctrl+R opened no repair dialog");
        return false;
    }
    if (m_dialog->sendable() != QStringList { findingId }) {
        qWarning("the dialog would send %s", qPrintable(m_dialog->sendable().join(QLatin1Char(','))));
        return false;
    }
    // What it will send: one removal of the two wrong routes, the right one kept.
    const QJsonArray requests = m_dialog->plannedRequests();
    const QJsonObject request = requests.first().toObject();
    const QJsonArray routes = request.value(QStringLiteral("body"))
                                  .toObject()
                                  .value(QStringLiteral("router"))
                                  .toObject()
                                  .value(QStringLiteral("routes"))
                                  .toArray();
    QStringList hops;
    for (const QJsonValue &r : routes)
        hops << r.toObject().value(QStringLiteral("nexthop")).toString();
    hops.sort();
    if (requests.size() != 1
        || !request.value(QStringLiteral("path")).toString().endsWith(QStringLiteral("/remove_extraroutes"))
        || hops != QStringList { QStringLiteral("10.180.0.3"), QStringLiteral("10.180.0.32") }) {
        qWarning("unexpected plan: %s", QJsonDocument(requests).toJson().constData());
        return false;
    }
    // Cancel has the focus and is the default: Enter would not send anything.
    if (QApplication::focusWidget() == m_dialog->confirmButton() || m_dialog->confirmButton()->isDefault()) {
        qWarning("the confirm button has the focus or is the default");
        return false;
    }
    const QString text = m_dialog->confirmButton()->text();
    const int amp = int(text.indexOf(QLatin1Char('&')));
    if (amp < 0 || !m_dialog->confirmButton()->isEnabled()) {
        qWarning("the confirm button \"%s\" has no shortcut or is disabled; the dialog says: %s",
            qPrintable(text), qPrintable(m_dialog->statusText()));
        return false;
    }
    QSignalSpy finished(m_dialog.data(), &RepairDialog::repairsFinished);
    if (sendKey)
        press(Qt::Key_Return, Qt::ControlModifier);
    else
        press(Qt::Key_A + (text.at(amp + 1).toUpper().unicode() - 'A'), Qt::AltModifier);
    if (!finished.wait(60000) || finished.first().at(0).toInt() != 1) {
        qWarning("not fixed: %s", qPrintable(m_dialog ? m_dialog->resultsText() : QString()));
        return false;
    }
    if (!m_dialog->resultsText().contains(QStringLiteral("fixed (verified)"))) {
        qWarning("results: %s", qPrintable(m_dialog->resultsText()));
        return false;
    }
    press(Qt::Key_Escape);
    if (m_dialog && m_dialog->isVisible()) {
        qWarning("Escape did not close the finished dialog");
        return false;
    }
    // Back in the main window (a window manager gives it the keyboard again).
    if (!ConsoleTest::activate(m_window.get())) {
        qWarning("the main window did not take the keyboard back");
        return false;
    }
    press(Qt::Key_6, Qt::ControlModifier);
    if (m_window->currentTab() != Tab::Audit) {
        qWarning("Ctrl+6 did not show the audit log");
        return false;
    }
    const QAbstractItemModel *audit = m_window->auditPage()->view()->model();
    if (audit->rowCount() != 1 || audit->index(0, AuditModel::FindingColumn).data().toString() != findingId
        || audit->index(0, AuditModel::ResultColumn).data().toString() != QStringLiteral("fixed")) {
        qWarning("the audit log shows %d rows, the first %s: %s", audit->rowCount(),
            qPrintable(audit->index(0, AuditModel::FindingColumn).data().toString()),
            qPrintable(audit->index(0, AuditModel::ResultColumn).data().toString()));
        return false;
    }
    return true;
}

void TestConsoleKeyboard::fromTheFilter()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    // Ctrl+K again and typing starts a new filter (not "legacyblue").
    press(Qt::Key_K, Qt::ControlModifier);
    type(QStringLiteral("blue"));
    QCOMPARE(m_window->sidebarFilter()->text(), QStringLiteral("blue"));
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 1);
    press(Qt::Key_Escape); // cleared: every kluster again, legacy still the one shown and marked
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 7); // the demo world's klusters
    QCOMPARE(m_window->currentKey().toString(), QStringLiteral("sim/legacy"));
    press(Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Findings);
    press(Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(QApplication::focusWidget(), m_window->findingsPage()->filterBox());
    type(QStringLiteral("kind:route-duplicate"));
    press(Qt::Key_Return);
    // Enter: the first match, selected, with the focus.
    QCOMPARE(QApplication::focusWidget(), m_window->findingsPage()->view());
    QCOMPARE(m_window->findingsPage()->selectedKeys(), QStringList { Duplicate });
    QVERIFY(repairByKeyboard(Duplicate));
}

void TestConsoleKeyboard::fromTheRoutesView()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Routes);
    // F8: the first route with a problem, the duplicate destination; its routes in router order below it.
    press(Qt::Key_F8);
    QCOMPARE(m_window->routesPage()->selectedKeys(), QStringList { QStringLiteral("198.19.1.0/24") });
    QCOMPARE(m_window->repairTargets(), QStringList { Duplicate });
    QVERIFY2(m_window->routesPage()->details()->toPlainText().contains(QStringLiteral("carries the traffic")),
        qPrintable(m_window->routesPage()->details()->toPlainText()));
    QVERIFY(repairByKeyboard(Duplicate, true)); // sent with Ctrl+Enter
}

// From the Routes view, Ctrl+Alt+R: every route finding of the router in one dialog, one change, sent with
// Alt and the button's letter, verified, one record in the audit log.
void TestConsoleKeyboard::allRouteFindingsOfTheRouter()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Routes);
    press(Qt::Key_R, Qt::ControlModifier | Qt::AltModifier);
    QVERIFY2(
        m_dialog && m_dialog->isVisible() && ConsoleTest::activate(m_dialog), "Ctrl+Alt+R opened no dialog");
    QCOMPARE(m_dialog->sendable().size(), 5);
    QCOMPARE(m_dialog->plannedRequests().size(), 2); // remove_extraroutes, then add_extraroutes
    QVERIFY(QApplication::focusWidget() != m_dialog->confirmButton());
    const QString text = m_dialog->confirmButton()->text();
    const int amp = int(text.indexOf(QLatin1Char('&')));
    QVERIFY2(amp >= 0 && m_dialog->confirmButton()->isEnabled(), qPrintable(text));
    QSignalSpy finished(m_dialog.data(), &RepairDialog::repairsFinished);
    press(Qt::Key_A + (text.at(amp + 1).toUpper().unicode() - 'A'), Qt::AltModifier);
    QVERIFY2(finished.wait(60000), "the change did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 5);
    press(Qt::Key_Escape);
    QVERIFY(!m_dialog || !m_dialog->isVisible());
    QVERIFY(ConsoleTest::activate(m_window.get()));
    press(Qt::Key_6, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Audit);
    QCOMPARE(m_window->auditPage()->view()->model()->rowCount(), 1); // one change, one record
}

void TestConsoleKeyboard::fromNextFinding()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_2, Qt::ControlModifier);
    // F8 steps, one finding at a time, never extending the selection.
    QStringList seen;
    for (int i = 0; i < 10 && !seen.contains(Duplicate); ++i) {
        press(Qt::Key_F8);
        const QStringList selected = m_window->findingsPage()->selectedKeys();
        QCOMPARE(selected.size(), 1);
        seen << selected.first();
    }
    QVERIFY2(seen.contains(Duplicate), qPrintable(seen.join(QLatin1Char(','))));
    // Shift+F8 moves back, and does not extend either.
    press(Qt::Key_F8);
    const QString after = m_window->findingsPage()->selectedKeys().value(0);
    press(Qt::Key_F8, Qt::ShiftModifier);
    QCOMPARE(m_window->findingsPage()->selectedKeys(), QStringList { Duplicate });
    QVERIFY(after != Duplicate);
    QVERIFY(repairByKeyboard(Duplicate));
}

// Within a severity, what takes down the whole kluster comes first: in demo, F8 lands first on the missing
// TCP rule (every pod's traffic), not on one failed instance; the Findings view lists it first.
void TestConsoleKeyboard::worstFirstByImpact()
{
    QVERIFY(start());
    QCOMPARE(m_window->currentKey().toString(), QStringLiteral("sim/demo"));
    press(Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Findings);
    press(Qt::Key_F8);
    QCOMPARE(m_window->findingsPage()->selectedKeys(),
        QStringList { QStringLiteral("security-group-rule-missing:tcp") });
    const QAbstractItemModel *view = m_window->findingsPage()->view()->model();
    QCOMPARE(view->index(0, FindingsModel::KindColumn).data().toString(),
        QStringLiteral("security-group-rule-missing"));
}

// The kluster list's filter from the list itself: Backspace edits it, Escape clears it, a filter that leaves
// no kluster says so; "/" filters the current table from wherever the focus is (not in a text box).
void TestConsoleKeyboard::filtersAreNoTrap()
{
    QVERIFY(start());
    press(Qt::Key_K, Qt::ControlModifier);
    type(QStringLiteral("legx"));
    QCOMPARE(m_window->sidebarFilter()->text(), QStringLiteral("legx"));
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 0);
    QVERIFY(m_window->sidebarNoMatch()->isVisible());
    QVERIFY(m_window->sidebarNoMatch()->text().contains(QStringLiteral("legx")));
    // Away to a table and back: the focus is on the list, and Backspace edits its filter.
    press(Qt::Key_3, Qt::ControlModifier);
    press(Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(QApplication::focusWidget(), m_window->sidebar());
    press(Qt::Key_Backspace);
    QCOMPARE(m_window->sidebarFilter()->text(), QStringLiteral("leg"));
    QVERIFY(!m_window->sidebarNoMatch()->isVisible());
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 1);
    // Escape from the list clears it.
    press(Qt::Key_3, Qt::ControlModifier);
    press(Qt::Key_K, Qt::ControlModifier);
    press(Qt::Key_Escape);
    QCOMPARE(m_window->sidebarFilter()->text(), QString());
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 7); // the demo world's klusters
    // "/" from a table: its filter, empty-handed; a filter that matches nothing says so.
    press(Qt::Key_3, Qt::ControlModifier);
    QTest::keyClick(m_window->nodesPage()->view(), Qt::Key_Slash);
    QCOMPARE(QApplication::focusWidget(), m_window->nodesPage()->filterBox());
    QCOMPARE(m_window->nodesPage()->filterBox()->text(), QString());
    type(QStringLiteral("zzzz"));
    QVERIFY(m_window->nodesPage()->filterProblem()->isVisible());
    press(Qt::Key_Escape);
    QCOMPARE(m_window->nodesPage()->filterBox()->text(), QString());
    // A notification's click on a kluster the filter hides opens that kluster, not the one shown.
    press(Qt::Key_K, Qt::ControlModifier);
    type(QStringLiteral("leg"));
    QCOMPARE(ConsoleTest::sidebarRows(m_window->sidebar()).size(), 1);
    emit m_window->notifier()->activated({ QStringLiteral("sim"), QStringLiteral("blue") }, QString());
    QCOMPARE(m_window->currentKey().toString(), QStringLiteral("sim/blue"));
    QCOMPARE(m_window->sidebarFilter()->text(), QString());
}

// Ctrl+C copies the selected rows as text with their header; the row's context menu copies its facts.
void TestConsoleKeyboard::copyRowsAndTheirFacts()
{
    QVERIFY(start());
    press(Qt::Key_3, Qt::ControlModifier);
    QTreeView *view = m_window->nodesPage()->view();
    view->setFocus();
    view->setCurrentIndex(view->model()->index(0, 0));
    const QString name = view->currentIndex().data().toString();
    QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
    const QString text = QGuiApplication::clipboard()->text();
    QVERIFY2(text.startsWith(QStringLiteral("Name\t")), qPrintable(text));
    QVERIFY2(text.section(QLatin1Char('\n'), 1, 1).startsWith(name + QLatin1Char('\t')), qPrintable(text));
    QAction *copy = nullptr;
    for (QAction *a : view->actions()) {
        if (a->text() == QStringLiteral("Copy"))
            copy = a;
    }
    QVERIFY(copy && copy->menu());
    emit copy->menu()->aboutToShow();
    QStringList labels;
    for (QAction *a : copy->menu()->actions())
        labels << a->text();
    QVERIFY2(labels.contains(QStringLiteral("Name ") + name), qPrintable(labels.join(QLatin1Char('|'))));
    QVERIFY2(labels.join(QLatin1Char('|')).contains(QStringLiteral("openstack server show")),
        qPrintable(labels.join(QLatin1Char('|'))));
    copy->menu()->actions().constLast()->trigger();
    QVERIFY(!QGuiApplication::clipboard()->text().isEmpty());
}

void TestConsoleKeyboard::tabbingIntoATable()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_2, Qt::ControlModifier);
    press(Qt::Key_F, Qt::ControlModifier);
    type(QStringLiteral("duplicate"));
    // Tab on, to the table: the row under the cursor is the selection, and Ctrl+R acts on it.
    QTreeView *view = m_window->findingsPage()->view();
    for (int i = 0; i < 6 && QApplication::focusWidget() != view; ++i)
        press(Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), view);
    QCOMPARE(m_window->findingsPage()->selectedKeys(), QStringList { Duplicate });
    QVERIFY(repairByKeyboard(Duplicate));
}

// Ctrl+Shift+A on the worst finding: a dialog (an hour, a note), Enter keeps it; the finding sinks below the
// other criticals, says by whom and until when, and notifies no more; Ctrl+Shift+U withdraws it and it is
// first again.
void TestConsoleKeyboard::acknowledgeAndWithdraw()
{
    QVERIFY(start());
    const QString rule = QStringLiteral("security-group-rule-missing:tcp");
    HistoryClient *history = m_window->session()->history();
    const KlusterKey demo { QStringLiteral("sim"), QStringLiteral("demo") };
    QSignalSpy since(history, &HistoryClient::findingsSinceChanged);
    QVERIFY(history->canAcknowledge(demo) || since.wait(20000));
    press(Qt::Key_2, Qt::ControlModifier);
    press(Qt::Key_F8);
    QCOMPARE(m_window->findingsPage()->selectedKeys(), QStringList { rule });
    QVERIFY(m_window->acknowledgeCommand()->action()->isEnabled());
    QVERIFY(!m_window->withdrawCommand()->action()->isEnabled()); // nothing to withdraw yet
    QPointer<QDialog> dialog;
    connect(m_window.get(), &MainWindow::dialogOpened, this, [&dialog](QDialog *d) { dialog = d; });
    press(Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY2(dialog && dialog->isVisible() && ConsoleTest::activate(dialog), "Ctrl+Shift+A opened no dialog");
    press(Qt::Key_Tab); // from the duration to the note
    type(QStringLiteral("on it"));
    shoot(m_window.get(), dialog, QStringLiteral("acknowledge-dialog"));
    press(Qt::Key_Return);
    QVERIFY(!dialog || !dialog->isVisible());
    QVERIFY(ConsoleTest::activate(m_window.get()));
    const FindingsModel *model = m_window->models()->findings();
    // Recorded on the history's thread, then said to the model: waited for itself, not for the first word of
    // any kluster's history (on a loaded machine a refresh's came first).
    QTRY_VERIFY_WITH_TIMEOUT(model->acknowledgement(rule), 10000);
    const Acknowledgement *ack = model->acknowledgement(rule);
    QCOMPARE(ack->by, AcknowledgeCommand::localUser());
    QCOMPARE(ack->note, QStringLiteral("on it"));
    QCOMPARE(ack->at.secsTo(ack->until), 3600);
    // Sunk below the other criticals, not below a warning; it says who and until when.
    const QAbstractItemModel *view = m_window->findingsPage()->view()->model();
    const QStringList severities = ConsoleTest::column(view, FindingsModel::SeverityColumn);
    const QStringList ids = ConsoleTest::column(view, 0, FindingsModel::IdRole);
    const int at = int(ids.indexOf(rule));
    QVERIFY2(
        at > 0 && severities.at(at) == QStringLiteral("critical"), qPrintable(ids.join(QLatin1Char(','))));
    QCOMPARE(severities.lastIndexOf(QStringLiteral("critical")), at);
    QVERIFY(ConsoleTest::column(view, FindingsModel::AcknowledgedColumn)
                .at(at)
                .startsWith(QStringLiteral("by %1 until ").arg(ack->by)));
    QVERIFY(!m_window->findingsPage()->view()->isColumnHidden(FindingsModel::AcknowledgedColumn));
    shoot(m_window.get(), nullptr, QStringLiteral("acknowledged"));
    // F8 from the top lands on an unacknowledged finding first.
    m_window->findingsPage()->view()->clearSelection();
    m_window->findingsPage()->view()->setCurrentIndex(QModelIndex());
    press(Qt::Key_F8);
    QVERIFY(m_window->findingsPage()->selectedKeys() != QStringList { rule });
    // A refresh that brings it critical again announces nothing: someone is on it.
    const KlusterData *data = m_window->session()->store()->data(demo);
    QVERIFY(data && data->diagnosis);
    KlusterData before = *data;
    auto diagnosis = std::make_shared<Diagnosis>(*data->diagnosis);
    diagnosis->findings.erase(std::remove_if(diagnosis->findings.begin(), diagnosis->findings.end(),
                                  [&](const Finding &f) { return f.id() == rule; }),
        diagnosis->findings.end());
    before.diagnosis = diagnosis;
    const auto acknowledged = [&](const Finding &f) {
        return history->acknowledgement(demo, f, QDateTime::currentDateTimeUtc()) != nullptr;
    };
    const auto unheeded = ConsoleText::notification(demo, before, *data);
    QVERIFY(unheeded && unheeded->finding == rule);
    QVERIFY(!ConsoleText::notification(demo, before, *data, acknowledged));
    // Withdrawn: first again.
    m_window->findingsPage()->selectKeys({ rule });
    QVERIFY(m_window->withdrawCommand()->action()->isEnabled());
    press(Qt::Key_U, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!model->acknowledgement(rule), 10000);
    QTRY_COMPARE(ConsoleTest::column(view, 0, FindingsModel::IdRole).value(0), rule);
}

// ":" from wherever the focus is: a few letters of a kluster, Enter, it is shown; ":" from its table, a view;
// ":" and an action's letters run it; letters that match nothing say so.
void TestConsoleKeyboard::paletteToAKlusterAViewAndAnAction()
{
    QVERIFY(start());
    QPointer<CommandPalette> palette;
    connect(m_window.get(), &MainWindow::dialogOpened, this,
        [&palette](QDialog *d) { palette = qobject_cast<CommandPalette *>(d); });
    QCOMPARE(QApplication::focusWidget(), m_window->sidebar());
    press(Qt::Key_Colon);
    QVERIFY2(palette && palette->isVisible() && ConsoleTest::activate(palette), "\":\" opened no palette");
    QCOMPARE(QApplication::focusWidget(), palette->queryBox());
    type(QStringLiteral("lgcy"));
    QCOMPARE(palette->shown().value(0).text, QStringLiteral("sim/legacy"));
    shoot(m_window.get(), palette, QStringLiteral("palette"));
    QSignalSpy shown(m_window.get(), &MainWindow::viewsShown);
    press(Qt::Key_Return);
    QVERIFY(!palette || !palette->isVisible());
    QVERIFY(ConsoleTest::activate(m_window.get()));
    QCOMPARE(m_window->currentKey().toString(), QStringLiteral("sim/legacy"));
    QVERIFY(shown.wait(10000));
    // From a table: a view by name.
    press(Qt::Key_2, Qt::ControlModifier);
    m_window->findingsPage()->view()->setFocus();
    press(Qt::Key_Colon);
    QVERIFY(palette && ConsoleTest::activate(palette));
    type(QStringLiteral("routes"));
    QCOMPARE(palette->shown().value(0).kind, Palette::Kind::View);
    press(Qt::Key_Return);
    QVERIFY(ConsoleTest::activate(m_window.get()));
    QCOMPARE(m_window->currentTab(), Tab::Routes);
    QCOMPARE(QApplication::focusWidget(), m_window->routesPage()->view());
    // Nothing matches: it says so; Escape leaves.
    press(Qt::Key_Colon);
    QVERIFY(palette && ConsoleTest::activate(palette));
    type(QStringLiteral("qqqq"));
    QVERIFY(palette->shown().isEmpty());
    QVERIFY(palette->list()->topLevelItem(0)->text(0).contains(QStringLiteral("No match")));
    press(Qt::Key_Escape);
    QVERIFY(!palette || !palette->isVisible());
    // An action: Down to the second match and Enter runs it once the palette has gone (a refresh here).
    QVERIFY(ConsoleTest::activate(m_window.get()));
    press(Qt::Key_Colon);
    QVERIFY(palette && ConsoleTest::activate(palette));
    type(QStringLiteral("refresh"));
    const QList<Palette::Entry> matches = palette->shown();
    QVERIFY(matches.size() >= 1 && matches.first().text == QStringLiteral("Refresh"));
    QSignalSpy settled(m_window.get(), &MainWindow::refreshesSettled);
    press(Qt::Key_Return);
    QVERIFY(settled.wait(30000));
}

// Neutron answers the repair with a 500 once: the dialog says it failed and offers Retry once the kluster has
// been read again; Alt+R previews it anew from the fresh data, and it is sent, fixed and verified.
void TestConsoleKeyboard::retryAfterAFailedRepair()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_2, Qt::ControlModifier);
    QVERIFY(m_window->findingsPage()->selectKeys({ Duplicate }) == 1);
    m_window->findingsPage()->view()->setFocus();
    FaultRule rule = ConsoleTest::fault(QStringLiteral("network"), FaultRule::Kind::Status, 500);
    rule.method = QStringLiteral("PUT");
    rule.remaining = 1;
    m_fixture->sim.faults().add(rule);
    press(Qt::Key_R, Qt::ControlModifier);
    QVERIFY(m_dialog && ConsoleTest::activate(m_dialog));
    QPointer<RepairDialog> first = m_dialog;
    const QString text = first->confirmButton()->text();
    const int amp = int(text.indexOf(QLatin1Char('&')));
    QVERIFY(amp >= 0);
    QSignalSpy finished(first.data(), &RepairDialog::repairsFinished);
    press(Qt::Key_A + (text.at(amp + 1).toUpper().unicode() - 'A'), Qt::AltModifier);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toInt(), 0);
    QVERIFY2(first->resultsText().contains(QStringLiteral("500")), qPrintable(first->resultsText()));
    QCOMPARE(first->unfixed(), QStringList { Duplicate });
    QVERIFY(first->retryButton()->isVisible());
    // Enabled once the kluster has been read again (the console refreshes it after every repair).
    QTRY_VERIFY_WITH_TIMEOUT(first->retryButton()->isEnabled(), 30000);
    shoot(m_window.get(), first, QStringLiteral("repair-retry"));
    press(Qt::Key_R, Qt::AltModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_dialog && m_dialog != first, 5000);
    QVERIFY(!first || !first->isVisible());
    QVERIFY(ConsoleTest::activate(m_dialog));
    QCOMPARE(m_dialog->sendable(), QStringList { Duplicate });
    QVERIFY(m_dialog->confirmButton()->isEnabled());
    QSignalSpy again(m_dialog.data(), &RepairDialog::repairsFinished);
    press(Qt::Key_A + (text.at(amp + 1).toUpper().unicode() - 'A'), Qt::AltModifier);
    QVERIFY(again.wait(60000));
    QCOMPARE(again.first().at(0).toInt(), 1);
    QVERIFY(!m_dialog->retryButton()->isVisible()); // nothing left to retry
}

// diagnosis.md §5 in the console, by keyboard: the Overview leads with legacy's incident (its recycled pod
// CIDR: a stale route and the missing one); Ctrl+G groups the findings by incident (remembered), the
// incident first with its findings beneath it, hiding none; F8 steps through the incident and the findings in
// none, never through its members; the filter still works; Ctrl+R on the incident previews its one repair,
// naming each of its findings, with the router's routes before and after; sent, verified, its findings gone.
void TestConsoleKeyboard::incidentsByKeyboard()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    const KlusterKey legacy { QStringLiteral("sim"), QStringLiteral("legacy") };
    const Diagnosis &diagnosis = *m_window->kluster(legacy)->diagnosis;
    const auto found = std::find_if(diagnosis.incidents.cbegin(), diagnosis.incidents.cend(),
        [](const Incident &i) { return i.rule == IncidentRule::RecycledPodCidr; });
    QVERIFY(found != diagnosis.incidents.cend());
    const Incident incident = *found;
    QCOMPARE(incident.repairFindings().size(), 2);

    // The Overview leads with it: its title, how many findings, and its Repair.
    press(Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Overview);
    const QStringList lines = m_window->overviewPage()->incidentLines();
    QVERIFY2(!lines.isEmpty() && lines.first().startsWith(incident.title)
            && lines.first().contains(QStringLiteral("%1 findings").arg(incident.members.size())),
        qPrintable(lines.join(QLatin1Char('|'))));
    QVERIFY2(m_window->overviewPage()->title().contains(QStringLiteral("1 incident")),
        qPrintable(m_window->overviewPage()->title()));
    auto *overviewRepair
        = m_window->overviewPage()->findChild<QPushButton *>(QStringLiteral("repair ") + incident.id());
    QVERIFY(overviewRepair && overviewRepair->isVisible());
    // The kluster list counts it once, with the findings in none.
    const QModelIndex row
        = ConsoleTest::sidebarRows(m_window->sidebar(), KlustersModel::CriticalColumn).first();
    QVERIFY2(row.data(Qt::ToolTipRole).toString().contains(QStringLiteral(" — 1 incident (2 findings)")),
        qPrintable(row.data(Qt::ToolTipRole).toString()));
    QCOMPARE(row.data().toInt(), KlusterStanding::of(diagnosis).critical);
    QCOMPARE(row.data().toInt(), diagnosis.count(Severity::Critical) - 1);

    // Ctrl+G: the findings grouped by incident, remembered.
    press(Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Findings);
    FindingsPage *page = m_window->findingsPage();
    QTreeView *tree = page->view();
    const QAbstractItemModel *view = tree->model();
    const int flat = view->rowCount();
    QVERIFY(!page->isGrouped());
    press(Qt::Key_G, Qt::ControlModifier);
    QVERIFY(page->isGrouped());
    QVERIFY(Settings::findingsByIncident().value());
    QCOMPARE(view->index(0, 0).data(ConsoleRole::Key).toString(), incident.id());
    QVERIFY(view->index(0, 0).data(FindingsModel::IncidentRowRole).toBool());
    QVERIFY2(
        view->index(0, FindingsModel::MessageColumn).data().toString().contains(QStringLiteral("2 findings")),
        qPrintable(view->index(0, FindingsModel::MessageColumn).data().toString()));
    QCOMPARE(view->rowCount(view->index(0, 0)), incident.members.size());
    QVERIFY(tree->isExpanded(view->index(0, 0)));
    // Grouping hides no finding: the members beneath it, the others after it.
    QStringList all;
    for (int r = 0; r < view->rowCount(); ++r) {
        const QModelIndex top = view->index(r, 0);
        if (!top.data(FindingsModel::IncidentRowRole).toBool())
            all << top.data(ConsoleRole::Key).toString();
        for (int c = 0; c < view->rowCount(top); ++c)
            all << view->index(c, 0, top).data(ConsoleRole::Key).toString();
    }
    QCOMPARE(all.size(), flat);
    QCOMPARE(view->rowCount(), flat - int(incident.members.size()) + 1);

    // F8 steps through the incident and the findings in none, never through its members.
    QStringList stepped;
    for (int i = 0; i < view->rowCount(); ++i) {
        press(Qt::Key_F8);
        QCOMPARE(page->selectedKeys().size(), 1);
        stepped << page->selectedKeys().first();
    }
    QCOMPARE(stepped.first(), incident.id());
    QCOMPARE(QSet<QString>(stepped.cbegin(), stepped.cend()).size(), view->rowCount());
    for (const QString &member : incident.members)
        QVERIFY2(!stepped.contains(member), qPrintable(stepped.join(QLatin1Char(','))));

    // The filter still works, and keeps the incident over the member that matches.
    press(Qt::Key_F, Qt::ControlModifier);
    type(QStringLiteral("kind:route-missing"));
    QStringList shown;
    for (int r = 0; r < view->rowCount(); ++r) {
        const QModelIndex top = view->index(r, 0);
        shown << top.data(ConsoleRole::Key).toString();
        for (int c = 0; c < view->rowCount(top); ++c)
            shown << QStringLiteral(">") + view->index(c, 0, top).data(ConsoleRole::Key).toString();
    }
    QCOMPARE(shown,
        QStringList({ incident.id(), QStringLiteral(">route-missing:kks-legacy-default-g5h6j"),
            QStringLiteral("route-missing:kks-legacy-default-k7l8m") }));
    press(Qt::Key_Escape);
    QCOMPARE(view->rowCount(), flat - int(incident.members.size()) + 1);

    // scripts/screenshots: the grouped Findings and the Overview with its incident, on a laptop and a
    // desktop.
    if (const QString shots = qEnvironmentVariable("FLIGHTDECK_SCREENSHOT_DIR"); !shots.isEmpty()) {
        QVERIFY(page->selectKeys({ incident.id() }) == 1);
        for (const QSize size : { QSize(1024, 640), QSize(1440, 900) }) {
            const QString dir = QStringLiteral("%1/%2x%3").arg(shots).arg(size.width()).arg(size.height());
            QDir().mkpath(dir);
            m_window->resize(size);
            for (const Tab tab : { Tab::Overview, Tab::Findings }) {
                m_window->setTab(tab);
                QTest::qWait(50);
                QVERIFY(m_window->grab().save(dir
                    + (tab == Tab::Overview ? QStringLiteral("/overview-incidents.png")
                                            : QStringLiteral("/findings-grouped.png"))));
            }
        }
        m_window->setTab(Tab::Findings);
    }

    // Ctrl+R on the incident: its one repair, naming each of its findings, the router before and after.
    tree->setFocus(Qt::OtherFocusReason);
    QVERIFY(page->selectKeys({ incident.id() }) == 1);
    QCOMPARE(m_window->repairTargets(), incident.repairFindings());
    QCOMPARE(page->repairButton()->text(), QStringLiteral("Repair the incident…"));
    press(Qt::Key_R, Qt::ControlModifier);
    QVERIFY2(m_dialog && m_dialog->isVisible() && ConsoleTest::activate(m_dialog), "Ctrl+R opened no dialog");
    QCOMPARE(m_dialog->sendable(), incident.repairFindings());
    QVERIFY2(m_dialog->windowTitle().contains(incident.id()), qPrintable(m_dialog->windowTitle()));
    auto *plan = m_dialog->findChild<QTextBrowser *>();
    QVERIFY(plan);
    const QString planText = plan->toPlainText();
    QVERIFY2(planText.contains(incident.title), qPrintable(planText));
    for (const QString &member : incident.members)
        QVERIFY2(
            planText.contains(member + QStringLiteral(" (resolved by the repair)")), qPrintable(planText));
    QVERIFY2(planText.contains(QStringLiteral("Before")) && planText.contains(QStringLiteral("After")),
        qPrintable(planText));
    const QJsonArray requests = m_dialog->plannedRequests();
    QCOMPARE(requests.size(), 2); // one change of the router: the stale route out, then the right one in
    QVERIFY(requests.at(0)
                .toObject()
                .value(QStringLiteral("path"))
                .toString()
                .endsWith(QStringLiteral("/remove_extraroutes")));
    QVERIFY(requests.at(1)
                .toObject()
                .value(QStringLiteral("path"))
                .toString()
                .endsWith(QStringLiteral("/add_extraroutes")));
    shoot(m_window.get(), m_dialog, QStringLiteral("repair-incident"));
    QVERIFY(QApplication::focusWidget() != m_dialog->confirmButton());
    const QString text = m_dialog->confirmButton()->text();
    const int amp = int(text.indexOf(QLatin1Char('&')));
    QVERIFY2(amp >= 0 && m_dialog->confirmButton()->isEnabled(), qPrintable(text));
    QSignalSpy finished(m_dialog.data(), &RepairDialog::repairsFinished);
    press(Qt::Key_Return, Qt::ControlModifier); // the one send key, in an incident's dialog too
    QVERIFY2(finished.wait(60000), "the repair did not finish");
    QCOMPARE(finished.first().at(0).toInt(), 2);
    // Verified, then read again: the incident's findings are gone.
    QTRY_VERIFY2_WITH_TIMEOUT(m_dialog->incidentResultText().contains(QStringLiteral("all 2 gone")),
        qPrintable(m_dialog->incidentResultText()), 30000);
    press(Qt::Key_Escape);
    QVERIFY(!m_dialog || !m_dialog->isVisible());
    QVERIFY(ConsoleTest::activate(m_window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_window->kluster(legacy)->diagnosis->incidentOf(incident.members.first()), 30000);

    // Ctrl+G again: one flat table, remembered.
    press(Qt::Key_2, Qt::ControlModifier);
    press(Qt::Key_G, Qt::ControlModifier);
    QVERIFY(!page->isGrouped());
    QVERIFY(!Settings::findingsByIncident().value());
}

// The Fleet view by keyboard: Ctrl+7, "/" to its filter, Enter opens the worst kluster that matches; Down
// from the filter moves to the tiles, End to the last, Enter opens it; grouped by state, as a heat map, the
// same walk.
// The runbook of what is selected: linked from its details, opened with Ctrl+B, closed with Escape.
void TestConsoleKeyboard::runbookOfTheSelection()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_2, Qt::ControlModifier);
    FindingsPage *page = m_window->findingsPage();
    press(Qt::Key_F8);
    QCOMPARE(page->selectedKeys().size(), 1);
    const QString id = page->selectedKeys().first();
    const QString kind = id.section(QLatin1Char(':'), 0, 0);
    QVERIFY2(page->details()->toHtml().contains(QStringLiteral("runbook:") + kind), qPrintable(id));
    press(Qt::Key_B, Qt::ControlModifier);
    QDialog *dialog = nullptr;
    QTRY_VERIFY(
        (dialog = m_window->findChild<QDialog *>(QStringLiteral("RunbookDialog"))) && dialog->isVisible());
    const QString text = dialog->findChild<QTextBrowser *>()->toPlainText();
    QVERIFY2(text.startsWith(kind) && text.contains(QStringLiteral("Confirm by hand")),
        qPrintable(text.left(300)));
    shoot(m_window.get(), dialog, QStringLiteral("runbook")); // scripts/screenshots
    QTest::keyClick(dialog, Qt::Key_Escape);
    QTRY_VERIFY(!m_window->findChild<QDialog *>(QStringLiteral("RunbookDialog")));
}

// From the Findings view, by keyboard alone: the link to the finding selected (Ctrl+Shift+L), the kluster as
// Markdown (Ctrl+Shift+C), the kluster marked protected from the Kluster menu (Alt+K, T).
void TestConsoleKeyboard::linkAndHandOffByKeyboard()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_2, Qt::ControlModifier);
    press(Qt::Key_F8);
    const QStringList selected = m_window->findingsPage()->selectedKeys();
    QCOMPARE(selected.size(), 1);
    QApplication::clipboard()->clear();
    press(Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    QString error;
    const std::optional<FlightdeckLink> link
        = FlightdeckLink::parse(QApplication::clipboard()->text(), &error);
    QVERIFY2(link, qPrintable(QApplication::clipboard()->text() + QStringLiteral(": ") + error));
    QCOMPARE(link->kluster, QStringLiteral("legacy"));
    QCOMPARE(link->item, selected.first());
    press(Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY2(QApplication::clipboard()->text().startsWith(QStringLiteral("## Kluster `legacy`")),
        qPrintable(QApplication::clipboard()->text().left(200)));
    // The Kluster menu: Alt+K opens it, T marks the kluster protected.
    QVERIFY(!m_window->session()->isProtected(m_window->currentKey()));
    press(Qt::Key_K, Qt::AltModifier);
    QMenu *menu = nullptr;
    QTRY_VERIFY((menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())));
    QTest::keyClick(menu, Qt::Key_T);
    QTRY_VERIFY(m_window->session()->isProtected(m_window->currentKey()));
    m_window->session()->setKlusterProtected(m_window->currentKey(), false);
}

void TestConsoleKeyboard::fleetByKeyboard()
{
    QVERIFY(start());
    press(Qt::Key_7, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Fleet);
    auto *page = m_window->findChild<FleetPage *>();
    QVERIFY(page);
    FleetView *fleet = page->view();
    QCOMPARE(fleet->tileCount(), 7); // the demo world's klusters
    QVERIFY(!fleet->isCompact()); // seven klusters: tiles
    QVERIFY(page->summary()->text().startsWith(QStringLiteral("7 klusters")));
    fleet->setFocus(Qt::ShortcutFocusReason);
    QTest::keyClick(fleet, Qt::Key_Slash);
    QCOMPARE(QApplication::focusWidget(), page->filterBox());
    type(QStringLiteral("state:fresh leg"));
    press(Qt::Key_Return);
    QTRY_COMPARE(m_window->currentKey().toString(), QStringLiteral("sim/legacy"));
    QCOMPARE(m_window->currentTab(), Tab::Overview);

    press(Qt::Key_7, Qt::ControlModifier);
    page->filterBox()->setFocus(Qt::ShortcutFocusReason);
    press(Qt::Key_Escape);
    QCOMPARE(page->filterBox()->text(), QString());
    fleet->settle();
    QCOMPARE(fleet->tileCount(), 7);
    press(Qt::Key_Down);
    QCOMPARE(QApplication::focusWidget(), fleet);
    QCOMPARE(fleet->tileKey(fleet->currentTile()).kluster, QStringLiteral("legacy")); // where it was
    QVERIFY(page->currentLine()->text().startsWith(QStringLiteral("legacy (sim)")));
    press(Qt::Key_End);
    QCOMPARE(fleet->currentTile(), 6);
    const KlusterKey last = fleet->tileKey(6);
    QCOMPARE(last.kluster, QStringLiteral("retired")); // gone, its warnings of one slot each: the least grave
    press(Qt::Key_Return);
    QTRY_COMPARE(m_window->currentKey(), last);

    // By state, as a heat map: the worst group first, the keys walk the cells.
    press(Qt::Key_7, Qt::ControlModifier);
    auto *grouping = page->findChild<QComboBox *>();
    QVERIFY(grouping);
    grouping->setCurrentIndex(grouping->findData(int(FleetGrouping::State)));
    const QList<QComboBox *> combos = page->findChildren<QComboBox *>();
    QCOMPARE(combos.size(), 2);
    combos.last()->setCurrentIndex(combos.last()->findData(int(FleetLayout::HeatMap)));
    QVERIFY(fleet->isCompact());
    QCOMPARE(fleet->tile(0)->group, QStringLiteral("Critical"));
    fleet->setFocus(Qt::ShortcutFocusReason);
    press(Qt::Key_Home);
    press(Qt::Key_Right);
    QCOMPARE(fleet->currentTile(), 1);
    const KlusterKey second = fleet->tileKey(1);
    press(Qt::Key_Space);
    QTRY_COMPARE(m_window->currentKey(), second);
    QCOMPARE(Settings::fleetLayout().value(), QStringLiteral("heatmap"));
    QCOMPARE(Settings::fleetGrouping().value(), QStringLiteral("state"));
}
// The window's commands come from one table (views/windowcommands.cpp): each is in its menu once, in the
// table's order, and on the toolbar where its row says; the keys written in the table are the keys it
// answers; and no two actions of the window answer one key (Qt would run neither: an ambiguous shortcut).
void TestConsoleKeyboard::everyCommandInItsPlaceWithKeysOfItsOwn()
{
    m_window = std::make_unique<MainWindow>();
    QList<QMenu *> menus;
    for (QAction *a : m_window->menuBar()->actions()) {
        if (a->menu())
            menus << a->menu();
    }
    QCOMPARE(menus.size(), 4); // File, View, Kluster, Help
    auto *bar = m_window->findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    QVERIFY(bar);
    QHash<int, qsizetype> last;
    for (const CommandRow &row : WindowCommands::table()) {
        if (row.id == CommandId::Views || row.id == CommandId::AutoRefresh)
            continue; // a row per view; a submenu
        QAction *a = m_window->action(row.id);
        QVERIFY2(a, qPrintable(QString::number(int(row.id))));
        QMenu *menu = menus.at(int(row.menu));
        const qsizetype at = menu->actions().indexOf(a);
        QVERIFY2(at > last.value(int(row.menu), -1), qPrintable(a->text()));
        last[int(row.menu)] = at;
        for (QMenu *other : std::as_const(menus))
            QVERIFY2(other == menu || !other->actions().contains(a), qPrintable(a->text()));
        QCOMPARE(bar->actions().contains(a), row.toolbar > 0);
    }
    QCOMPARE(m_window->action(CommandId::GoTo)->shortcuts(),
        QList<QKeySequence>({ QKeySequence(Qt::Key_Colon), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P) }));
    QCOMPARE(m_window->action(CommandId::Filter)->shortcuts(),
        QList<QKeySequence>({ QKeySequence(Qt::CTRL | Qt::Key_F), QKeySequence(Qt::Key_Slash) }));
    QCOMPARE(m_window->action(CommandId::CancelRefresh)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Period));
    QCOMPARE(m_window->action(CommandId::Shortcuts)->shortcuts(),
        QList<QKeySequence>({ QKeySequence(Qt::Key_F1), QKeySequence(Qt::Key_Question) }));
    QCOMPARE(m_window->action(CommandId::PreviousFinding)->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F8));
    // Every key of the menus and the window, one action each.
    QList<QAction *> actions = m_window->actions();
    for (int i = 0; i < menus.size(); ++i) {
        for (QAction *a : menus.at(i)->actions()) {
            actions << a;
            if (a->menu())
                menus << a->menu(); // the auto-refresh intervals
        }
    }
    QHash<QString, QAction *> owner;
    for (QAction *a : std::as_const(actions)) {
        for (const QKeySequence &key : a->shortcuts()) {
            QAction *&first = owner[key.toString()];
            QVERIFY2(!first || first == a,
                qPrintable(QStringLiteral("%1: %2 and %3")
                               .arg(key.toString(), first ? first->text() : QString(), a->text())));
            first = a;
        }
    }
    QVERIFY(owner.size() > 20);
}

QTEST_MAIN(TestConsoleKeyboard)
#include "tst_console_keyboard.moc"

// Tab from the kluster list through the Overview and the Fleet: every stop a control that shows it has the
// keyboard (a button, a box, the tiles), never a scroll area, a chart or the tab bar's scroll arrows, which
// show nothing.
void TestConsoleKeyboard::everyTabStopShows()
{
    QVERIFY(start());
    for (const int key : { Qt::Key_1, Qt::Key_7 }) {
        press(key, Qt::ControlModifier);
        m_window->sidebar()->setFocus(Qt::OtherFocusReason);
        QStringList chain;
        bool wrapped = false;
        for (int i = 0; i < 60 && !wrapped; ++i) {
            press(Qt::Key_Tab);
            QWidget *w = QApplication::focusWidget();
            QVERIFY(w && w->isVisible());
            chain << QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(':')
                    + w->accessibleName();
            const bool invisibleStop = qobject_cast<QAbstractScrollArea *>(w) && !qobject_cast<QTreeView *>(w)
                && !w->inherits("FleetView");
            QVERIFY2(!invisibleStop, qPrintable(chain.join(QStringLiteral(" → "))));
            QVERIFY2(!(qobject_cast<QToolButton *>(w) && qobject_cast<QTabBar *>(w->parentWidget())),
                qPrintable(chain.join(QStringLiteral(" → "))));
            wrapped = w == m_window->sidebar();
        }
        QVERIFY2(wrapped, qPrintable(chain.join(QStringLiteral(" → "))));
        if (key == Qt::Key_7) // the first stop past the tab bar: the tiles
            QVERIFY2(chain.value(1).startsWith(QStringLiteral("FleetView")),
                qPrintable(chain.join(QStringLiteral(" → "))));
    }
}

// A filter typed in a view of one kluster stays with it: the next kluster opens unfiltered (its table not
// emptied by words meant for another), and going back finds the filter as it was.
void TestConsoleKeyboard::filterStaysWithItsKluster()
{
    QVERIFY(start());
    press(Qt::Key_2, Qt::ControlModifier);
    m_window->findingsPage()->filterBox()->setFocus(Qt::ShortcutFocusReason);
    type(QStringLiteral("kind:instance-error"));
    QAbstractItemModel *rows = m_window->findingsPage()->view()->model();
    QTRY_COMPARE(rows->rowCount(), 1);
    QVERIFY(ConsoleTest::select(*m_window, { QStringLiteral("sim"), QStringLiteral("legacy") }));
    QCOMPARE(m_window->findingsPage()->filterBox()->text(), QString());
    QVERIFY(rows->rowCount() > 1);
    QVERIFY(ConsoleTest::select(*m_window, { QStringLiteral("sim"), QStringLiteral("demo") }));
    QCOMPARE(m_window->findingsPage()->filterBox()->text(), QStringLiteral("kind:instance-error"));
    QTRY_COMPARE(rows->rowCount(), 1);
}

// The Overview's incident card repaired by keyboard (Tab to its Repair…, Space, Ctrl+Enter, Escape): the
// keyboard comes back to the Overview's incident rows (the card made again), not to the kluster filter.
void TestConsoleKeyboard::incidentRepairKeepsTheKeyboard()
{
    QVERIFY(start());
    QVERIFY(goToLegacy());
    press(Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(m_window->currentTab(), Tab::Overview);
    const KlusterData *data = m_window->kluster({ QStringLiteral("sim"), QStringLiteral("legacy") });
    QVERIFY(data && data->diagnosis && !data->diagnosis->incidents.isEmpty());
    const Incident incident = data->diagnosis->incidents.first();
    QVERIFY(incident.repair());
    auto *repair
        = m_window->overviewPage()->findChild<QPushButton *>(QStringLiteral("repair ") + incident.id());
    QVERIFY(repair);
    for (int i = 0; i < 20 && QApplication::focusWidget() != repair; ++i)
        press(Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), repair);
    press(Qt::Key_Space);
    QVERIFY(m_dialog && m_dialog->isVisible() && ConsoleTest::activate(m_dialog));
    QSignalSpy finished(m_dialog.data(), &RepairDialog::repairsFinished);
    press(Qt::Key_Return, Qt::ControlModifier);
    QVERIFY2(finished.wait(60000), qPrintable(m_dialog ? m_dialog->statusText() : QString()));
    QVERIFY(waitSettled(*m_window));
    press(Qt::Key_Escape);
    QVERIFY(!m_dialog || !m_dialog->isVisible());
    QVERIFY(ConsoleTest::activate(m_window.get()));
    QTest::qWait(50);
    // Its incident repaired, the card is gone: the keyboard is on the next stop of the Overview, a visible
    // control that takes Tab (the trend range), not on the kluster filter nor on a hidden widget.
    QWidget *focus = QApplication::focusWidget();
    const QString where = focus
        ? QString::fromLatin1(focus->metaObject()->className()) + QLatin1Char(' ') + focus->accessibleName()
        : QStringLiteral("no focus");
    QVERIFY2(focus && m_window->overviewPage()->isAncestorOf(focus) && focus->isVisible()
            && (focus->focusPolicy() & Qt::TabFocus),
        qPrintable(where));
    QCOMPARE(focus->accessibleName(), QStringLiteral("Trend range"));
}
