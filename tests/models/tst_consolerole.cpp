#include "models/consolerole.h"

#include <QAbstractTableModel>
#include <QTest>

// One row of three columns whose first column holds a severity, as the console's models do.
class OneRow : public QAbstractTableModel
{
public:
    QVariant severity;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : 1;
    }
    int columnCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : 3;
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        return index.column() == 0 && role == ConsoleRole::Severity ? severity : QVariant();
    }
};

// The severity every console model answers through ConsoleRole::Severity: a Severity, or no value for none.
class TestConsoleRole : public QObject
{
    Q_OBJECT
private slots:
    void severityRoundTrip();
    void readFromTheFirstColumn();
    void worse();
    void filterField();
};

void TestConsoleRole::severityRoundTrip()
{
    OneRow model;
    for (const std::optional<Severity> &s : { std::optional(Severity::Critical),
             std::optional(Severity::Warning), std::optional(Severity::Info), std::optional<Severity>() }) {
        model.severity = ConsoleRole::severityData(s);
        QCOMPARE(ConsoleRole::severityOf(model.index(0, 0)), s);
    }
    QVERIFY(!ConsoleRole::severityData(std::nullopt).isValid()); // none is no value, never a number
}

void TestConsoleRole::readFromTheFirstColumn()
{
    OneRow model;
    model.severity = ConsoleRole::severityData(Severity::Warning);
    QCOMPARE(ConsoleRole::severityOf(model.index(0, 2)), std::optional(Severity::Warning));
}

void TestConsoleRole::worse()
{
    using ConsoleRole::worse;
    QCOMPARE(worse(Severity::Warning, Severity::Critical), std::optional(Severity::Critical));
    QCOMPARE(worse(Severity::Info, Severity::Warning), std::optional(Severity::Warning));
    QCOMPARE(worse(std::nullopt, Severity::Info), std::optional(Severity::Info));
    QCOMPARE(worse(Severity::Info, std::nullopt), std::optional(Severity::Info));
    QCOMPARE(worse(std::nullopt, std::nullopt), std::optional<Severity>());
}

void TestConsoleRole::filterField()
{
    QCOMPARE(ConsoleRole::severityField(Severity::Critical), QStringList { QStringLiteral("critical") });
    QVERIFY(ConsoleRole::severityField(std::nullopt).isEmpty());
}

QTEST_GUILESS_MAIN(TestConsoleRole)
#include "tst_consolerole.moc"
