#include "views/messagebanner.h"
#include "views/severitystyle.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>

// The inline message banner: its type drawn in the severity style, its
// standard actions (Retry, Details, Dismiss) and the window's own.
class TestMessageBanner : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void typeIsDrawnInItsSeverity();
    void followsThePalette();
    void retryOnlyWhenItMayHelp();
    void detailsOnlyWhenThereAreSome();
    void actionsAreButtons();
    void dismissHidesUntilTheTextChanges();
    void emptyTextHides();

private:
    QColor fill(MessageBanner::Type type);
    static bool same(const QColor &painted, const QColor &wanted);

    QWidget *m_window = nullptr;
    MessageBanner *m_banner = nullptr;
};

void TestMessageBanner::init()
{
    m_window = new QWidget;
    auto *layout = new QVBoxLayout(m_window);
    m_banner = new MessageBanner(m_window);
    layout->addWidget(m_banner);
    layout->addStretch();
    m_window->resize(600, 200);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestMessageBanner::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

QColor TestMessageBanner::fill(MessageBanner::Type type)
{
    m_banner->setMessage({ type, QStringLiteral("Something to say"), QString(), false, {} });
    // Away from the edge, the text and the icon: the fill alone.
    const QImage image = m_banner->grab().toImage();
    return image.pixelColor(image.width() / 2, image.height() - 3);
}

bool TestMessageBanner::same(const QColor &painted, const QColor &wanted)
{
    // Painted in 8 bits a channel: a rounding apart at most.
    return qAbs(painted.red() - wanted.red()) <= 1 && qAbs(painted.green() - wanted.green()) <= 1
        && qAbs(painted.blue() - wanted.blue()) <= 1;
}

void TestMessageBanner::typeIsDrawnInItsSeverity()
{
    const QPalette palette = m_window->palette();
    QVERIFY(same(fill(MessageBanner::Type::Error), SeverityStyle::wash(Severity::Critical, palette)));
    QVERIFY(same(fill(MessageBanner::Type::Warning), SeverityStyle::wash(Severity::Warning, palette)));
    QVERIFY(same(fill(MessageBanner::Type::Information), SeverityStyle::wash(Severity::Info, palette)));
    QVERIFY(same(fill(MessageBanner::Type::Positive), SeverityStyle::wash(std::nullopt, palette)));
    QCOMPARE(m_banner->type(), MessageBanner::Type::Positive);
    // Never colour alone: each type has its icon and its word.
    m_banner->setMessage({ MessageBanner::Type::Error, QStringLiteral("Failed"), QString(), false, {} });
    QCOMPARE(m_banner->accessibleName(), QStringLiteral("Error"));
    const QList<QLabel *> labels = m_banner->findChildren<QLabel *>();
    QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](QLabel *l) { return !l->pixmap().isNull(); }));
}

void TestMessageBanner::followsThePalette()
{
    // On a dark window the wash stays dark: light text still reads on it.
    QPalette dark = m_window->palette();
    dark.setColor(QPalette::Window, QColor(30, 30, 30));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    m_window->setPalette(dark);
    const QColor fillOnDark = fill(MessageBanner::Type::Error);
    QVERIFY(same(fillOnDark, SeverityStyle::wash(Severity::Critical, dark)));
    QVERIFY2(fillOnDark.lightness() < 100, qPrintable(fillOnDark.name()));
    QPalette light = dark;
    light.setColor(QPalette::Window, QColor(240, 240, 240));
    m_window->setPalette(light);
    QVERIFY(fill(MessageBanner::Type::Error).lightness() > 180);
}

void TestMessageBanner::retryOnlyWhenItMayHelp()
{
    QSignalSpy retried(m_banner, &MessageBanner::retryRequested);
    m_banner->setMessage({ MessageBanner::Type::Error, QStringLiteral("network error: Connection refused"),
        QString(), true, {} });
    QVERIFY(m_banner->retryButton()->isVisible());
    QCOMPARE(m_banner->retryButton()->text(), QStringLiteral("Retry"));
    QTest::mouseClick(m_banner->retryButton(), Qt::LeftButton);
    QCOMPARE(retried.size(), 1);
    m_banner->setMessage(
        { MessageBanner::Type::Error, QStringLiteral("authentication failed"), QString(), false, {} });
    QVERIFY(!m_banner->retryButton()->isVisible());
}

void TestMessageBanner::detailsOnlyWhenThereAreSome()
{
    m_banner->setMessage({ MessageBanner::Type::Error, QStringLiteral("sim: demo could not be refreshed"),
        QString(), false, {} });
    QVERIFY(!m_banner->detailsButton()->isVisible());
    m_banner->setMessage({ MessageBanner::Type::Error, QStringLiteral("sim: demo could not be refreshed"),
        QStringLiteral("sim/demo: refresh failed at 10:00:00 UTC: compute: HTTP 503"), false, {} });
    QVERIFY(m_banner->detailsButton()->isVisible());
    QTest::mouseClick(m_banner->detailsButton(), Qt::LeftButton);
    QDialog *dialog = m_banner->findChild<QDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->findChild<QPlainTextEdit *>()->toPlainText(), m_banner->details());
    dialog->close();
}

void TestMessageBanner::actionsAreButtons()
{
    QAction manage(QStringLiteral("Connections…"));
    QSignalSpy triggered(&manage, &QAction::triggered);
    m_banner->setMessage({ MessageBanner::Type::Error,
        QStringLiteral("sim: its klusters could not be listed"), QString(), true, { &manage } });
    QToolButton *button = nullptr;
    for (QToolButton *b : m_banner->findChildren<QToolButton *>()) {
        if (b->defaultAction() == &manage)
            button = b;
    }
    QVERIFY(button);
    QVERIFY(button->x() > m_banner->retryButton()->x()); // Retry first, then the window's own
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(triggered.size(), 1);
    // The next message has its own actions only.
    m_banner->setMessage(
        { MessageBanner::Type::Warning, QStringLiteral("kept for this session only"), QString(), false, {} });
    for (QToolButton *b : m_banner->findChildren<QToolButton *>())
        QVERIFY(b->defaultAction() != &manage);
}

void TestMessageBanner::dismissHidesUntilTheTextChanges()
{
    QSignalSpy dismissed(m_banner, &MessageBanner::dismissed);
    const MessageBanner::Message message { MessageBanner::Type::Warning,
        QStringLiteral("kept for this session only"), QString(), false, {} };
    m_banner->setMessage(message);
    QVERIFY(m_banner->isShown());
    QTest::mouseClick(m_banner->dismissButton(), Qt::LeftButton);
    QCOMPARE(dismissed.size(), 1);
    QVERIFY(!m_banner->isShown());
    m_banner->setMessage(message); // said again: still dismissed
    QVERIFY(!m_banner->isShown());
    m_banner->setMessage(
        { MessageBanner::Type::Error, QStringLiteral("something else"), QString(), false, {} });
    QVERIFY(m_banner->isShown());
}

void TestMessageBanner::emptyTextHides()
{
    m_banner->setMessage(
        { MessageBanner::Type::Error, QStringLiteral("failed"), QStringLiteral("why"), true, {} });
    QVERIFY(m_banner->isShown());
    m_banner->setMessage({ MessageBanner::Type::Error, QString(), QString(), false, {} });
    QVERIFY(!m_banner->isShown());
    QVERIFY(m_banner->text().isEmpty() && m_banner->details().isEmpty());
}

QTEST_MAIN(TestMessageBanner)
#include "tst_messagebanner.moc"
