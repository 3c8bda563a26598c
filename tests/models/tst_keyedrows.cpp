#include "models/keyedrows.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSortFilterProxyModel>
#include <QTest>

// KeyedRows under a model, a sorting proxy and Qt's model tester: random updates (rows gone, new, changed,
// in few runs or many, in the same order or another) leave the model showing exactly the new list, and
// every row is found where it is at every signal in between (what a proxy asks while it maps rows).
namespace {

struct Item
{
    QString key;
    int value = 0;
    friend bool operator==(const Item &a, const Item &b) { return a.key == b.key && a.value == b.value; }
};

class ItemsModel : public KeyedTableModel
{
public:
    ItemsModel()
        : m_rows([](const Item &i) { return i.key; }, [](const Item &a, const Item &b) { return a == b; })
    { }
    void apply(const QList<Item> &next) { applyRows(m_rows, next); }
    // As the console does it: how the rows change worked out beside them (from a snapshot), then followed.
    void applyPlanned(const QList<Item> &next, const KeyedRows<Item>::Snapshot &held)
    {
        applyRows(m_rows, next, false, KeyedRows<Item>::plan(held, next));
    }
    KeyedRows<Item>::Snapshot snapshot() const { return m_rows.snapshot(); }
    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : m_rows.size();
    }
    int columnCount(const QModelIndex &parent = QModelIndex()) const override
    {
        return parent.isValid() ? 0 : 2;
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::DisplayRole)
            return QVariant();
        const Item &i = m_rows.at(index.row());
        return index.column() == 0 ? QVariant(i.key) : QVariant(i.value);
    }
    int rowOf(const QString &key) const { return m_rows.rowOf(key); }
    // Every row found where it is.
    QString misplaced() const
    {
        for (int row = 0; row < m_rows.size(); ++row) {
            if (m_rows.rowOf(m_rows.at(row).key) != row)
                return QStringLiteral("%1 at %2, found at %3")
                    .arg(m_rows.at(row).key)
                    .arg(row)
                    .arg(m_rows.rowOf(m_rows.at(row).key));
        }
        return QString();
    }

private:
    KeyedRows<Item> m_rows;
};

QList<Item> shown(const ItemsModel &model)
{
    QList<Item> items;
    for (int row = 0; row < model.rowCount(); ++row)
        items.append({ model.index(row, 0).data().toString(), model.index(row, 1).data().toInt() });
    return items;
}

} // namespace

class TestKeyedRows : public QObject
{
    Q_OBJECT
private slots:
    void randomUpdates_data();
    void randomUpdates();
};

void TestKeyedRows::randomUpdates_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("gone"); // per thousand
    QTest::addColumn<int>("added"); // per thousand
    QTest::addColumn<bool>("reorder");
    QTest::newRow("a few") << 200 << 10 << 10 << false;
    QTest::newRow("scattered, in order") << 1000 << 40 << 40 << false; // more runs than a few
    QTest::newRow("most gone") << 500 << 900 << 50 << false;
    QTest::newRow("all new") << 300 << 1000 << 1000 << false;
    QTest::newRow("reordered") << 300 << 30 << 30 << true;
}

void TestKeyedRows::randomUpdates()
{
    QFETCH(int, rows);
    QFETCH(int, gone);
    QFETCH(int, added);
    QFETCH(bool, reorder);
    QRandomGenerator random(20261123);
    ItemsModel model;
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(1);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QStringList problems;
    const auto check = [&] {
        const QString wrong = model.misplaced();
        if (!wrong.isEmpty())
            problems << wrong;
    };
    for (const auto signal : { &QAbstractItemModel::rowsAboutToBeRemoved, &QAbstractItemModel::rowsRemoved,
             &QAbstractItemModel::rowsAboutToBeInserted, &QAbstractItemModel::rowsInserted })
        connect(&model, signal, this, check);
    connect(&model, &QAbstractItemModel::dataChanged, this, check);

    int serial = 0;
    QList<Item> current;
    for (int i = 0; i < rows; ++i)
        current.append({ QStringLiteral("k%1").arg(serial++), int(random.bounded(100)) });
    model.apply(current);
    QCOMPARE(shown(model), current);
    for (int round = 0; round < 9; ++round) {
        QList<Item> next;
        for (const Item &i : std::as_const(current)) {
            if (int(random.bounded(1000)) < gone)
                continue;
            if (int(random.bounded(1000)) < added) // a new one before it
                next.append({ QStringLiteral("k%1").arg(serial++), int(random.bounded(100)) });
            next.append({ i.key, random.bounded(10) == 0 ? int(random.bounded(100)) : i.value });
        }
        if (reorder && next.size() > 2)
            std::swap(next[0], next[next.size() - 1]);
        // Worked out here, from a plan, or from a plan made for rows the model no longer holds (a plan made
        // before another update: it must not be followed).
        if (round % 3 == 0) {
            model.apply(next);
        } else if (round % 3 == 1) {
            model.applyPlanned(next, model.snapshot());
        } else {
            const KeyedRows<Item>::Snapshot before = model.snapshot();
            QList<Item> meanwhile = current;
            if (!meanwhile.isEmpty())
                meanwhile.removeLast();
            model.apply(meanwhile);
            model.applyPlanned(next, before);
        }
        // The rows are those of the new list (in its order, or with the new ones last when the order
        // changed).
        QList<Item> got = shown(model);
        if (reorder) {
            const auto byKey = [](const Item &a, const Item &b) { return a.key < b.key; };
            std::sort(got.begin(), got.end(), byKey);
            std::sort(next.begin(), next.end(), byKey);
        }
        QCOMPARE(got, next);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 5).join(QLatin1Char('\n'))));
        check();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        current = shown(model);
    }
}

QTEST_GUILESS_MAIN(TestKeyedRows)
#include "tst_keyedrows.moc"
