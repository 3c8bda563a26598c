#include "models/filtermodel.h"
#include "models/filterquery.h"
#include "models/findingsmodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// Filtering and sorting the console's tables: the filter syntax (free words
// on names, field:value, -exclusion, quotes), severities, and an order that
// never changes between runs.
// Headings over rows, two levels, each row's text settable: the sidebar's shape without its models.
class HeadingsTree : public QAbstractItemModel
{
public:
    struct Heading
    {
        QString name;
        QStringList rows;
    };
    explicit HeadingsTree(QList<Heading> headings)
        : m_headings(std::move(headings))
    { }
    void setRow(int heading, int row, const QString &text)
    {
        m_headings[heading].rows[row] = text;
        const QModelIndex at = index(row, 0, index(heading, 0));
        emit dataChanged(at, at);
    }
    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override
    {
        if (column != 0 || row < 0)
            return QModelIndex();
        if (!parent.isValid())
            return row < m_headings.size() ? createIndex(row, 0, quintptr(0)) : QModelIndex();
        if (parent.internalId() != 0 || row >= m_headings.at(parent.row()).rows.size())
            return QModelIndex();
        return createIndex(row, 0, quintptr(parent.row() + 1));
    }
    QModelIndex parent(const QModelIndex &child) const override
    {
        return child.isValid() && child.internalId() != 0
            ? createIndex(int(child.internalId() - 1), 0, quintptr(0))
            : QModelIndex();
    }
    int rowCount(const QModelIndex &parent = QModelIndex()) const override
    {
        if (!parent.isValid())
            return int(m_headings.size());
        return parent.internalId() == 0 && parent.column() == 0 ? int(m_headings.at(parent.row()).rows.size())
                                                                : 0;
    }
    int columnCount(const QModelIndex & = QModelIndex()) const override { return 1; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override
    {
        if (!index.isValid() || role != Qt::DisplayRole)
            return QVariant();
        if (index.internalId() == 0)
            return m_headings.at(index.row()).name;
        return m_headings.at(int(index.internalId() - 1)).rows.at(index.row());
    }

private:
    QList<Heading> m_headings;
};

class TestFilterModel : public QObject
{
    Q_OBJECT
private slots:
    void querySyntax();
    void filterAndSort();
    void wordsMatchNamesNotProse();
    void equalRowsKeepTheirOrder();
    void headingsShowTheRowsThatMatch();
};

void TestFilterModel::querySyntax()
{
    const QStringList fields { QStringLiteral("kind"), QStringLiteral("severity"), QStringLiteral("node"),
        QStringLiteral("nexthop") };
    const QVariantMap row { { QStringLiteral("kind"), QStringList { QStringLiteral("route-duplicate") } },
        { QStringLiteral("severity"), QStringList { QStringLiteral("critical") } },
        { QStringLiteral("node"),
            QStringList { QStringLiteral("kks-demo-pool-a1b2c"), QStringLiteral("kks demo spaced") } },
        { QStringLiteral("nexthop"), QStringList { QStringLiteral("10.180.0.3") } } };
    const auto matches = [&](const QString &text) { return FilterQuery::parse(text, fields).matches(row); };
    QVERIFY(matches(QString()));
    QVERIFY(matches(QStringLiteral("duplicate")));
    QVERIFY(matches(QStringLiteral("kind:route-duplicate")));
    QVERIFY(!matches(QStringLiteral("kind:route-orphaned")));
    QVERIFY(matches(QStringLiteral("sev:crit"))); // a field abbreviated
    QVERIFY(!matches(QStringLiteral("-severity:critical")));
    QVERIFY(matches(QStringLiteral("-kind:stale A1B2C"))); // case-insensitive, every term
    QVERIFY(!matches(QStringLiteral("a1b2c nothere")));
    QVERIFY(matches(QStringLiteral("node:\"demo spaced\"")));
    QVERIFY(!matches(QStringLiteral("node:10.180"))); // a field means that field only
    QVERIFY(matches(QStringLiteral("10.180"))); // a free word means any field
    // A finding id is a word, not a field.
    const FilterQuery id = FilterQuery::parse(QStringLiteral("route-duplicate:198.19.1.0/24"), fields);
    QVERIFY(id.error().isEmpty());
    QCOMPARE(id.terms().size(), 1);
    QVERIFY(id.terms().first().field.isEmpty());
    // An unknown field is said, not silently ignored.
    QVERIFY(
        FilterQuery::parse(QStringLiteral("colour:red"), fields).error().contains(QStringLiteral("colour")));
    QVERIFY(FilterQuery::parse(QStringLiteral("n:x"), fields)
                .error()
                .contains(QStringLiteral("node or nexthop")));
}

void TestFilterModel::filterAndSort()
{
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 2);
    w.server(QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), 45); // critical
    w.server(QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 15); // warning
    w.route(QStringLiteral("100.100.9.0/24"), QStringLiteral("10.0.0.99")); // warning
    FindingsModel findings;
    findings.setDiagnosis(Diagnosis::run(w.state()));
    FilterModel filter;
    filter.setKnownFields(FindingsModel::filterFields());
    filter.setSourceModel(&findings);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(filter.rowCount(), 3);
    filter.setText(QStringLiteral("POOL-bbbbb unregistered"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QStringLiteral("severity:warning"));
    QCOMPARE(filter.rowCount(), 2);
    filter.setText(QStringLiteral("severity:warning -kind:route"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QStringLiteral("pool:pool nexthop:10.0.0.99"));
    QCOMPARE(filter.rowCount(), 0);
    filter.setText(QStringLiteral("nexthop:10.0.0.99"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QString());
    filter.setMinimumSeverity(Severity::Critical);
    QCOMPARE(filter.rowCount(), 1);
    filter.setMinimumSeverity(std::nullopt);
    filter.sort(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    QCOMPARE(filter.index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("critical"));
    filter.sort(FindingsModel::SeverityColumn, Qt::DescendingOrder);
    QCOMPARE(filter.index(0, FindingsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
}

void TestFilterModel::wordsMatchNamesNotProse()
{
    // A duplicate whose message speaks of an orphaned route, and an orphaned route.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 1);
    w.route(QStringLiteral("100.100.1.0/24"), QStringLiteral("10.0.0.99"));
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.1.0/24"));
    w.route(QStringLiteral("100.100.7.0/24"), QStringLiteral("10.0.0.98"));
    const Diagnosis diagnosis = Diagnosis::run(w.state());
    QVERIFY(diagnosis.find(QStringLiteral("route-duplicate:100.100.1.0/24")));
    QVERIFY(diagnosis.find(QStringLiteral("route-duplicate:100.100.1.0/24"))
                ->message()
                .contains(QStringLiteral("orphaned")));
    FindingsModel findings;
    findings.setDiagnosis(diagnosis);
    FilterModel filter;
    filter.setKnownFields(FindingsModel::filterFields());
    filter.setSourceModel(&findings);
    filter.setText(QStringLiteral("orphaned"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data(FindingsModel::IdRole).toString(),
        QStringLiteral("route-orphaned:100.100.7.0/24 via 10.0.0.98"));
}

void TestFilterModel::equalRowsKeepTheirOrder()
{
    // Findings of one severity, given in two orders: the view shows them in one order.
    WorldBuilder w;
    w.pool(QStringLiteral("pool"), 4);
    for (const char *name :
        { "kks-demo-pool-ddddd", "kks-demo-pool-aaaaa", "kks-demo-pool-ccccc", "kks-demo-pool-bbbbb" })
        w.server(QString::fromLatin1(name), QStringLiteral("10.0.0.4"), 45);
    Diagnosis diagnosis = Diagnosis::run(w.state());
    QStringList orders[2];
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            std::reverse(diagnosis.findings.begin(), diagnosis.findings.end());
        FindingsModel findings;
        findings.setDiagnosis(diagnosis);
        FilterModel filter;
        filter.setSourceModel(&findings);
        filter.sort(FindingsModel::SeverityColumn, Qt::AscendingOrder);
        for (int row = 0; row < filter.rowCount(); ++row)
            orders[pass] << filter.index(row, 0).data(FindingsModel::IdRole).toString();
    }
    QCOMPARE(orders[0], orders[1]);
    QVERIFY(orders[0].first().endsWith(QStringLiteral("aaaaa")));
}

// The sidebar's tree (headings over rows): a heading is shown with the rows that match, or with all of them
// when nothing filters; a row's change says nothing of its heading then (Qt's recursive filtering looked at
// the heading again after every row's change, and the view sized its row again: ten thousand times a round).
void TestFilterModel::headingsShowTheRowsThatMatch()
{
    HeadingsTree tree({ { QStringLiteral("lab"), { QStringLiteral("alpha"), QStringLiteral("beta") } },
        { QStringLiteral("prod"), { QStringLiteral("gamma") } } });
    FilterModel filter;
    filter.setHeadings();
    filter.setSourceModel(&tree);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.sort(0);
    const auto shown = [&filter] {
        QStringList out;
        for (int h = 0; h < filter.rowCount(); ++h) {
            const QModelIndex at = filter.index(h, 0);
            QStringList rows;
            for (int r = 0; r < filter.rowCount(at); ++r)
                rows << filter.index(r, 0, at).data().toString();
            rows.sort(); // (no sort values here: their order is not what is tested)
            out << at.data().toString() + QLatin1Char(':') + rows.join(QLatin1Char(','));
        }
        out.sort();
        return out;
    };
    QCOMPARE(shown(), (QStringList { QStringLiteral("lab:alpha,beta"), QStringLiteral("prod:gamma") }));

    // Nothing filters: a row's change is said of the row alone.
    QSignalSpy changed(&filter, &QAbstractItemModel::dataChanged);
    tree.setRow(0, 1, QStringLiteral("beta2"));
    QCOMPARE(changed.size(), 1);
    QVERIFY(changed.first().first().value<QModelIndex>().parent().isValid());

    // Filtering: the headings with a row that matches, with those rows only.
    filter.setText(QStringLiteral("gamma"));
    QCOMPARE(shown(), QStringList { QStringLiteral("prod:gamma") });
    // A row that comes to match brings its heading back.
    tree.setRow(0, 0, QStringLiteral("gamma-alpha"));
    QCOMPARE(shown(), (QStringList { QStringLiteral("lab:gamma-alpha"), QStringLiteral("prod:gamma") }));
    // And the last row that matched takes it away.
    tree.setRow(1, 0, QStringLiteral("delta"));
    QCOMPARE(shown(), QStringList { QStringLiteral("lab:gamma-alpha") });

    // The filter cleared: every heading with all its rows.
    filter.setText(QString());
    QCOMPARE(
        shown(), (QStringList { QStringLiteral("lab:beta2,gamma-alpha"), QStringLiteral("prod:delta") }));
}

QTEST_GUILESS_MAIN(TestFilterModel)
#include "tst_filtermodel.moc"
