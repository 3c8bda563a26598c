#include "models/securitymodel.h"
#include "tests/common/worldbuilder.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

// The security group view's model: required rules and memberships.
class TestSecurityModel : public QObject
{
    Q_OBJECT
private slots:
    void rulesAndMembers();
};

void TestSecurityModel::rulesAndMembers()
{
    WorldBuilder w;
    w.clearGroups();
    const int g = w.group(QStringLiteral("kks-sg"));
    w.rule(g, QStringLiteral("tcp"), QStringLiteral("100.100.0.0/16"), 10250, 10250);
    w.rule(g, QStringLiteral("udp"), QStringLiteral("100.100.0.0/16"));
    w.pool(QStringLiteral("pool"), 2);
    w.healthyMember(
        QStringLiteral("kks-demo-pool-aaaaa"), QStringLiteral("10.0.0.4"), QStringLiteral("100.100.4.0/24"));
    w.server(
        QStringLiteral("kks-demo-pool-bbbbb"), QStringLiteral("10.0.0.5"), 60, QStringLiteral("ACTIVE"), {});
    SecurityModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    KlusterState s = w.state();
    model.setState(s, Diagnosis::run(s));
    QCOMPARE(model.rowCount(), 5);
    auto status = [&model](const QString &key) {
        return model.data(model.index(model.rowOf(key), SecurityModel::StatusColumn)).toString();
    };
    QCOMPARE(status(QStringLiteral("rule:tcp")), QStringLiteral("too narrow"));
    QVERIFY(model.data(model.index(model.rowOf(QStringLiteral("rule:tcp")), SecurityModel::DetailColumn))
                .toString()
                .contains(QStringLiteral("10250")));
    QCOMPARE(status(QStringLiteral("rule:udp")), QStringLiteral("present"));
    QCOMPARE(status(QStringLiteral("rule:icmp")), QStringLiteral("missing"));
    QCOMPARE(status(QStringLiteral("instance:kks-demo-pool-bbbbb")), QStringLiteral("not in the group"));
    QVERIFY(model
                .data(model.index(model.rowOf(QStringLiteral("instance:kks-demo-pool-bbbbb")), 0),
                    SecurityModel::ProblemRole)
                .toBool());
    // The missing rule is created: one row changes.
    w.rule(g, QStringLiteral("icmp"), QStringLiteral("100.100.0.0/16"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    s = w.state();
    model.setState(s, Diagnosis::run(s));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(status(QStringLiteral("rule:icmp")), QStringLiteral("present"));

    // The security groups unreadable: the Findings drop the instance's finding, and so does this view (the
    // membership is a fact of the servers; whether it matters is not known).
    s = w.state();
    s.securityGroupsSource.known = false;
    s.securityGroupsSource.error = QStringLiteral("network: GET /v2.0/security-groups: HTTP 500");
    const Diagnosis unknown = Diagnosis::run(s);
    QVERIFY(!unknown.find(QStringLiteral("instance-missing-security-group:kks-demo-pool-bbbbb")));
    model.setState(s, unknown);
    const QModelIndex member = model.index(model.rowOf(QStringLiteral("instance:kks-demo-pool-bbbbb")), 0);
    QVERIFY(!member.data(SecurityModel::ProblemRole).toBool());
    QVERIFY(!ConsoleRole::severityOf(member).has_value());
    QVERIFY2(member.siblingAtColumn(SecurityModel::DetailColumn)
                 .data()
                 .toString()
                 .contains(QStringLiteral("whether it matters is not known: the security groups could not be "
                                          "read (network: GET /v2.0/security-groups: HTTP 500)")),
        qPrintable(member.siblingAtColumn(SecurityModel::DetailColumn).data().toString()));
}

QTEST_GUILESS_MAIN(TestSecurityModel)
#include "tst_securitymodel.moc"
