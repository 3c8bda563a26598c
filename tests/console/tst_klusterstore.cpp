#include "console/klusterstore.h"

#include <QSignalSpy>
#include <QTest>

// The console's state without a window: klusters by connection, their data, listings and refreshes under way,
// listing errors, the retire pool.
// An error as the connections report it.
static Error err(const char *text)
{
    return Error::of(Error::Kind::Network, QString::fromUtf8(text));
}

static QList<SourceError> errs(const char *text)
{
    return { SourceError { std::nullopt, err(text), QString() } };
}

class TestKlusterStore : public QObject
{
    Q_OBJECT
private slots:
    void listingAddsAndMarksGone();
    void listingErrorPerConnection();
    void refreshesArePending();
    void failedRefreshKeepsTheData();
    void replacedDataIsRetired();
    void otherKlustersOfTheConnection();
    void removeConnectionForgetsIt();

private:
    static std::shared_ptr<const KlusterFetch> fetch() { return std::make_shared<const KlusterFetch>(); }
    static std::shared_ptr<const Diagnosis> diagnosis() { return std::make_shared<const Diagnosis>(); }
    static QList<KlusterKey> keysOf(const QSignalSpy &spy)
    {
        QList<KlusterKey> keys;
        for (const QList<QVariant> &args : spy)
            keys << args.first().value<KlusterKey>();
        return keys;
    }
};

void TestKlusterStore::listingAddsAndMarksGone()
{
    KlusterStore store;
    QSignalSpy added(&store, &KlusterStore::klustersAdded);
    QSignalSpy gone(&store, &KlusterStore::klusterGone);
    store.setListing("sim");
    QVERIFY(store.isListing("sim"));
    QCOMPARE(store.pending(), 1);
    store.setListed("sim", { "demo", "legacy", "blue" }, Error());
    QVERIFY(!store.isListing("sim"));
    QCOMPARE(store.pending(), 0);
    QCOMPARE(store.klusters("sim"), (QStringList { "demo", "legacy", "blue" }));
    QCOMPARE(added.size(), 1); // once for the listing
    QCOMPARE(added.first().at(0).toString(), QStringLiteral("sim"));
    QCOMPARE(added.first().at(1).toStringList(), (QStringList { "demo", "legacy", "blue" }));
    QVERIFY(gone.isEmpty());

    // Listed again without legacy, with a new one: legacy stays known, said to be gone; the new one is last.
    added.clear();
    store.setListed("sim", { "blue", "demo", "green" }, Error());
    QCOMPARE(store.klusters("sim"), (QStringList { "demo", "legacy", "blue", "green" }));
    QCOMPARE(added.size(), 1);
    QCOMPARE(added.first().at(1).toStringList(), QStringList { "green" });
    QCOMPARE(keysOf(gone), QList<KlusterKey> { (KlusterKey { "sim", "legacy" }) });
    QVERIFY(store.isGone({ "sim", "legacy" }));
    QVERIFY(store.klusters("lab").isEmpty());

    // Listed as before: nothing added, legacy still gone (said with each listing that leaves it out).
    added.clear();
    gone.clear();
    store.setListed("sim", { "blue", "demo", "green" }, Error());
    QVERIFY(added.isEmpty());
    QCOMPARE(keysOf(gone), QList<KlusterKey> { (KlusterKey { "sim", "legacy" }) });
    // Listed again: no longer gone, nothing added; and the same listing as what is known changes nothing.
    gone.clear();
    store.setListed("sim", { "demo", "legacy", "blue", "green" }, Error());
    QVERIFY(!store.isGone({ "sim", "legacy" }));
    QVERIFY(added.isEmpty() && gone.isEmpty());
    store.setListed("sim", { "demo", "legacy", "blue", "green" }, Error());
    QVERIFY(added.isEmpty() && gone.isEmpty());
    QCOMPARE(store.klusters("sim"), (QStringList { "demo", "legacy", "blue", "green" }));

    // A first listing that names a kluster twice adds it once, in its first place.
    store.setListed("lab", { "a", "b", "a", "c" }, Error());
    QCOMPARE(store.klusters("lab"), (QStringList { "a", "b", "c" }));
    QCOMPARE(added.last().at(1).toStringList(), (QStringList { "a", "b", "c" }));
}

void TestKlusterStore::listingErrorPerConnection()
{
    KlusterStore store;
    QSignalSpy changed(&store, &KlusterStore::listingErrorChanged);
    QSignalSpy gone(&store, &KlusterStore::klusterGone);
    store.setListed("sim", { "demo" }, Error());
    QVERIFY(changed.isEmpty());
    QVERIFY(!store.hasListingErrors());

    // A failed listing names why; the klusters known so far are kept, none of them gone.
    store.setListed("sim", {}, err("keystone: HTTP 401"));
    QCOMPARE(store.listingError("sim").toString(), QStringLiteral("keystone: HTTP 401"));
    QVERIFY(!store.listingError("lab").isError());
    QVERIFY(store.hasListingErrors());
    QCOMPARE(store.klusters("sim"), QStringList { "demo" });
    QVERIFY(gone.isEmpty());
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().first().toString(), QStringLiteral("sim"));

    store.setListed("sim", {}, err("keystone: HTTP 401")); // the same error: no change
    QCOMPARE(changed.size(), 1);
    store.setListed("lab", {}, err("no route to host"));
    QCOMPARE(changed.size(), 2);

    store.setListed("sim", { "demo" }, Error());
    QVERIFY(!store.listingError("sim").isError());
    QCOMPARE(changed.size(), 3);
    QVERIFY(store.hasListingErrors()); // lab's is still there
}

void TestKlusterStore::refreshesArePending()
{
    KlusterStore store;
    store.setListing("sim");
    store.setListed("sim", { "demo", "legacy" }, Error());
    store.setRefreshing({ "sim", "demo" }, true);
    store.setRefreshing({ "sim", "legacy" }, true);
    store.setRefreshing({ "sim", "demo" }, true); // asked again while it runs: still one
    store.setListing("lab");
    QCOMPARE(store.pending(), 3);
    store.setRefreshing({ "sim", "demo" }, false);
    QCOMPARE(store.pending(), 2);
    store.setRefreshing({ "sim", "legacy" }, false);
    store.setListed("lab", {}, err("down"));
    QCOMPARE(store.pending(), 0);
}

void TestKlusterStore::failedRefreshKeepsTheData()
{
    KlusterStore store;
    const KlusterKey demo { "sim", "demo" };
    QSignalSpy fetched(&store, &KlusterStore::klusterFetched);
    QSignalSpy failed(&store, &KlusterStore::klusterFailed);
    QVERIFY(!store.data(demo));

    // Never read: data without a fetch, only the error.
    const QDateTime at = QDateTime::currentDateTimeUtc();
    store.setFailed(demo, errs("timeout"), at);
    QCOMPARE(keysOf(failed), QList<KlusterKey> { demo });
    QVERIFY(store.data(demo)->isStale());
    QVERIFY(!store.data(demo)->fetch);

    const auto f = fetch();
    const auto d = diagnosis();
    const QDateTime fetchedAt = at.addSecs(60);
    store.setFetched(demo, f, d, fetchedAt, 1234, errs("nodes: HTTP 503"));
    QCOMPARE(keysOf(fetched), QList<KlusterKey> { demo });
    const KlusterData *data = store.data(demo);
    QCOMPARE(data->fetch, f);
    QCOMPARE(data->diagnosis, d);
    QCOMPARE(data->fetchedAt, fetchedAt);
    QCOMPARE(data->elapsedMs, 1234);
    QCOMPARE(SourceError::joined(data->incomplete), QStringLiteral("nodes: HTTP 503"));
    QVERIFY(!data->isStale());
    QVERIFY(data->errorAt.isNull());

    // The next refresh fails: the data read stays, stale, with when and why.
    const QDateTime failedAt = at.addSecs(120);
    store.setFailed(demo, errs("HTTP 500"), failedAt);
    data = store.data(demo);
    QVERIFY(data->isStale());
    QCOMPARE(SourceError::joined(data->error), QStringLiteral("HTTP 500"));
    QCOMPARE(data->errorAt, failedAt);
    QCOMPARE(data->fetch, f);
    QCOMPARE(data->fetchedAt, fetchedAt);
    QCOMPARE(SourceError::joined(data->incomplete), QStringLiteral("nodes: HTTP 503"));
}

void TestKlusterStore::replacedDataIsRetired()
{
    KlusterStore store;
    const KlusterKey demo { "sim", "demo" };
    store.setFetched(demo, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    QVERIFY(store.takeRetired().isEmpty()); // nothing was replaced

    const std::shared_ptr<const void> oldFetch = store.data(demo)->fetch;
    const std::shared_ptr<const void> oldDiagnosis = store.data(demo)->diagnosis;
    store.setFailed(demo, errs("down"), QDateTime::currentDateTimeUtc());
    QVERIFY(store.takeRetired().isEmpty()); // still shown, stale
    store.setFetched(demo, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    QCOMPARE(store.takeRetired(), (KlusterStore::Retired { oldFetch, oldDiagnosis }));
    QVERIFY(store.takeRetired().isEmpty()); // handed over once

    // What the views replaced joins the pool until it is taken.
    const KlusterStore::Retired rows { std::make_shared<const QList<int>>(QList<int> { 1, 2 }) };
    store.retire(rows);
    QCOMPARE(store.takeRetired(), rows);
}

void TestKlusterStore::otherKlustersOfTheConnection()
{
    KlusterStore store;
    store.setListed("sim", { "demo", "legacy", "blue", "green" }, Error());
    store.setListed("lab", { "demo" }, Error());
    const auto legacy = fetch();
    const auto green = fetch();
    store.setFetched({ "sim", "green" }, green, diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFetched({ "sim", "legacy" }, legacy, diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFetched({ "sim", "demo" }, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFetched({ "lab", "demo" }, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFailed({ "sim", "blue" }, errs("down"), QDateTime::currentDateTimeUtc()); // nothing read
    // In the connection's order, without the kluster itself, another connection's, or one never read.
    using Fetches = QList<std::shared_ptr<const KlusterFetch>>;
    QCOMPARE(store.otherFetches({ "sim", "demo" }), (Fetches { legacy, green }));
}

void TestKlusterStore::removeConnectionForgetsIt()
{
    KlusterStore store;
    QSignalSpy removed(&store, &KlusterStore::connectionRemoved);
    store.setListed("sim", { "demo", "legacy" }, Error());
    store.setListed("lab", { "demo" }, Error());
    store.setFetched({ "sim", "demo" }, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFetched({ "lab", "demo" }, fetch(), diagnosis(), QDateTime::currentDateTimeUtc(), 1, {});
    store.setFailed({ "sim", "legacy" }, errs("down"), QDateTime::currentDateTimeUtc());
    store.setRefreshing({ "sim", "legacy" }, true);
    store.setRefreshing({ "lab", "demo" }, true);
    store.setListing("sim");
    store.setListed("sim", {}, err("down"));
    store.setListing("sim");
    const std::shared_ptr<const void> simFetch = store.data({ "sim", "demo" })->fetch;
    const std::shared_ptr<const void> simDiagnosis = store.data({ "sim", "demo" })->diagnosis;

    store.removeConnection("sim");
    QCOMPARE(removed.size(), 1);
    QCOMPARE(removed.first().first().toString(), QStringLiteral("sim"));
    QVERIFY(store.klusters("sim").isEmpty());
    QVERIFY(!store.data({ "sim", "demo" }));
    QVERIFY(!store.data({ "sim", "legacy" }));
    QVERIFY(!store.isListing("sim"));
    QVERIFY(!store.listingError("sim").isError());
    QVERIFY(!store.hasListingErrors());
    QCOMPARE(store.pending(), 1); // lab's refresh
    // Its data is freed once no view shows it.
    QCOMPARE(store.takeRetired(), (KlusterStore::Retired { simFetch, simDiagnosis }));
    // The other connection is untouched.
    QCOMPARE(store.klusters("lab"), QStringList { "demo" });
    QVERIFY(store.data({ "lab", "demo" })->fetch);
}

QTEST_GUILESS_MAIN(TestKlusterStore)
#include "tst_klusterstore.moc"
