#include "models/klustersmodel.h"

#include <QSet>

KlustersModel::State KlustersModel::Row::state() const
{
    if (kluster.isEmpty())
        return State::ConnectionFailed;
    if (!error.isEmpty())
        return diagnosed ? State::Stale : State::Unreachable;
    if (!diagnosed)
        return State::Pending;
    return incomplete.isEmpty() ? State::Fresh : State::Incomplete;
}

KlusterStanding KlustersModel::Row::standing() const
{
    if (incomplete.isEmpty() || !hasComplete)
        return shown;
    // Missing data never makes a kluster look healthier than it last was.
    return KlusterStanding::graver(shown, complete);
}

RankedKluster KlustersModel::Row::ranked() const
{
    RankedKluster k;
    k.key = { connection, kluster };
    switch (state()) {
    case State::Pending:
        k.reading = Reading::NotRead;
        break;
    case State::Fresh:
        k.reading = Reading::Fresh;
        break;
    case State::Incomplete:
        k.reading = Reading::Incomplete;
        break;
    case State::Stale:
        k.reading = Reading::Stale;
        break;
    case State::Unreachable:
    case State::ConnectionFailed:
        k.reading = Reading::Unreadable;
        break;
    }
    k.standing = diagnosed ? standing() : KlusterStanding();
    return k;
}

KlustersModel::KlustersModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.key(); }, [](const Row &a, const Row &b) { return a == b; })
{ }

QStringList KlustersModel::filterFields()
{
    return { QStringLiteral("kluster"), QStringLiteral("connection"), QStringLiteral("region"),
        QStringLiteral("severity"), QStringLiteral("state") };
}

void KlustersModel::apply(const QList<Row> &next)
{
    applyRows(m_rows, next);
    takeRetired(); // a handful of rows: freed here
}

void KlustersModel::setKluster(const QString &connection, const QString &kluster)
{
    if (rowOf(connection, kluster) >= 0)
        return;
    Row r;
    r.connection = connection;
    r.kluster = kluster;
    // A connection that lists a kluster needs no row of its own any more.
    if (rowOf(connection, QString()) < 0) {
        applyRows(m_rows, { r }, true); // appended: the rows held are not looked at
        return;
    }
    QList<Row> next = m_rows.rows();
    next.append(r);
    next.erase(std::remove_if(next.begin(), next.end(),
                   [&](const Row &x) { return x.connection == connection && x.kluster.isEmpty(); }),
        next.end());
    apply(next);
}

void KlustersModel::setKlusters(const QString &connection, const QStringList &klusters)
{
    QList<Row> added;
    for (const QString &k : klusters) {
        if (rowOf(connection, k) >= 0)
            continue;
        Row r;
        r.connection = connection;
        r.kluster = k;
        added << r;
    }
    if (added.isEmpty())
        return;
    if (added.size() == 1 || rowOf(connection, QString()) >= 0) {
        for (const Row &r : std::as_const(added)) // the connection's own row goes: as setKluster does it
            setKluster(r.connection, r.kluster);
        return;
    }
    applyRows(m_rows, added, true); // appended in one insertion: the rows held are not looked at
}

void KlustersModel::setDiagnosis(const QString &connection, const QString &kluster,
    const Diagnosis &diagnosis, const QDateTime &fetchedAt, const QString &incomplete, const QString &region)
{
    setKluster(connection, kluster);
    const int row = rowOf(connection, kluster);
    Row r = m_rows.rows().at(row);
    r.diagnosed = true;
    if (!region.isEmpty())
        r.region = region;
    r.shown = KlusterStanding::of(diagnosis);
    r.phase = diagnosis.phase == QLatin1String("Running") ? QString() : diagnosis.phase;
    r.terminatingFor = diagnosis.terminatingSeconds;
    r.fetchedAt = fetchedAt;
    r.error.clear();
    r.incomplete = incomplete;
    if (incomplete.isEmpty()) {
        r.complete = r.shown;
        r.hasComplete = true;
    }
    replaceRow(m_rows, row, r);
}

void KlustersModel::setExported(
    const QString &connection, const QString &kluster, const ExportedFleet::Kluster &exported)
{
    setKluster(connection, kluster);
    const int row = rowOf(connection, kluster);
    Row r = m_rows.rows().at(row);
    r.diagnosed = exported.reading != Reading::Unreadable;
    r.region = exported.target.value(QStringLiteral("region"), r.region);
    r.shown = exported.standing;
    r.complete = exported.standing;
    r.hasComplete = true;
    r.phase = exported.phase == QLatin1String("Running") || exported.phase == QLatin1String("none")
        ? QString()
        : exported.phase;
    r.terminatingFor = -1;
    r.fetchedAt = exported.readAt.value_or(QDateTime());
    r.incomplete.clear();
    if (exported.reading == Reading::Unreadable)
        r.error = tr("its exporter %1 has not read it").arg(exported.exporter);
    else if (!exported.present)
        r.error = tr("its exporter %1 is not scraped now: the data it last gave").arg(exported.exporter);
    else if (!exported.up)
        r.error = tr("its exporter's last check could not read every source: the last good data");
    else
        r.error.clear();
    replaceRow(m_rows, row, r);
}

void KlustersModel::setError(const QString &connection, const QString &kluster, const QString &error)
{
    setKluster(connection, kluster);
    const int row = rowOf(connection, kluster);
    Row r = m_rows.rows().at(row);
    r.error = error;
    replaceRow(m_rows, row, r);
}

void KlustersModel::setConnectionError(const QString &connection, const QString &error)
{
    QList<Row> next = m_rows.rows();
    const bool hasKlusters = std::any_of(next.cbegin(), next.cend(),
        [&](const Row &r) { return r.connection == connection && !r.kluster.isEmpty(); });
    const int own = rowOf(connection, QString());
    if (error.isEmpty() || hasKlusters) {
        if (own < 0)
            return;
        next.removeAt(own);
    } else if (own >= 0) {
        next[own].error = error;
    } else {
        Row r;
        r.connection = connection;
        r.error = error;
        next.append(r);
    }
    apply(next);
}

void KlustersModel::removeConnection(const QString &connection)
{
    QList<Row> next;
    for (const Row &r : m_rows.rows()) {
        if (r.connection != connection)
            next.append(r);
    }
    apply(next);
}

void KlustersModel::removeKluster(const QString &connection, const QString &kluster)
{
    const int row = rowOf(connection, kluster);
    if (row < 0)
        return;
    QList<Row> next = m_rows.rows();
    next.removeAt(row);
    apply(next);
}

int KlustersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KlustersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString stateName(KlustersModel::State s)
{
    switch (s) {
    case KlustersModel::State::Pending:
        return QStringLiteral("pending");
    case KlustersModel::State::Fresh:
        return QStringLiteral("fresh");
    case KlustersModel::State::Incomplete:
        return QStringLiteral("incomplete");
    case KlustersModel::State::Stale:
        return QStringLiteral("stale");
    case KlustersModel::State::Unreachable:
        return QStringLiteral("unreachable");
    case KlustersModel::State::ConnectionFailed:
        return QStringLiteral("failed");
    }
    return QString();
}

QVariant KlustersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &r = m_rows.at(index.row());
    switch (role) { // what the proxies ask most, answered before the row's state and standing are made
    case KeyRole:
        return r.key();
    case ConnectionRole:
        return r.connection;
    case KlusterRole:
        return r.kluster;
    case RegionRole:
        return r.region;
    case CriticalCountRole:
        return r.diagnosed ? r.shown.critical : -1;
    case WarningCountRole:
        return r.diagnosed ? r.shown.warning : -1;
    case RankRole:
        return KlusterRanking::sortKey(r.ranked());
    case ReasonRole:
        return KlusterRanking::reason(r.ranked());
    case PhaseRole:
        return r.phase;
    case TerminatingRole:
        return r.terminatingFor;
    case FetchedAtRole:
        return r.fetchedAt;
    default:
        break;
    }
    const State state = r.state();
    const KlusterStanding rank = r.standing();
    const bool lowerBound = state == State::Incomplete;
    const auto count
        = [&](int n) { return lowerBound ? QVariant(QStringLiteral("≥ %1").arg(n)) : QVariant(n); };
    switch (role) {
    case StandingRole:
        return r.diagnosed ? r.shown.text(state == State::Incomplete) : QString();
    case StateRole:
        return int(state);
    case AlarmRole:
        return state != State::Fresh && state != State::Pending;
    case SeverityRole:
        // What cannot be read at all is as bad as critical.
        if (state == State::Unreachable || state == State::ConnectionFailed)
            return ConsoleRole::severityData(Severity::Critical);
        return ConsoleRole::severityData(rank.worst);
    case ErrorRole:
        return !r.error.isEmpty() ? r.error : r.incomplete;
    case FilterRole: {
        const std::optional<Severity> severity = ConsoleRole::severityOf(index);
        return QVariantMap { { QStringLiteral("kluster"),
                                 r.kluster.isEmpty() ? QStringList() : QStringList { r.kluster } },
            { QStringLiteral("connection"), QStringList { r.connection } },
            { QStringLiteral("region"), r.region.isEmpty() ? QStringList() : QStringList { r.region } },
            { QStringLiteral("severity"), ConsoleRole::severityField(severity) },
            { QStringLiteral("state"), QStringList { stateName(state) } } };
    }
    case Qt::ToolTipRole:
        switch (state) {
        case State::Stale:
            return tr("The last refresh failed: %1\nThe data shown was fetched %2.")
                .arg(r.error, r.fetchedAt.toUTC().toString(Qt::ISODate));
        case State::Unreachable:
            return tr("Could not be read: %1").arg(r.error);
        case State::Incomplete:
            return tr("Incomplete: %1\nThe counts are lower bounds; the kluster keeps the rank of its last "
                      "complete result.")
                .arg(r.incomplete);
        case State::ConnectionFailed:
            return tr("Connection %1 lists no kluster: %2").arg(r.connection, r.error);
        default:
            if (index.column() == AlertsColumn && !r.kluster.isEmpty()) {
                const int n = m_alertCounts.value(r.key());
                return n > 0
                    ? tr(
                        "%n alert(s) firing in Alertmanager (the Overview shows which findings explain them)",
                        nullptr, n)
                    : QVariant();
            }
            // The counts are of causes: what they are made of; the worst cause, why it ranks there.
            if (r.diagnosed && (index.column() == CriticalColumn || index.column() == WarningColumn))
                return r.shown.incidents > 0 ? QVariant(r.shown.text()) : QVariant();
            if (index.column() == WorstColumn && r.diagnosed)
                return rank.worstCause.isEmpty()
                    ? QVariant(r.shown.text(lowerBound))
                    : QVariant(tr("Worst cause: %1\n%2").arg(rank.worstCause, r.shown.text(lowerBound)));
            return QVariant();
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case KlusterColumn:
            // The name whole (what the data is worth is said beside the worst cause, and in red).
            if (state == State::ConnectionFailed)
                return tr("%1 (connection failed)").arg(r.connection);
            // Its lifecycle beside its name where it is not Running ("demo · Terminating").
            return QString((m_protected.contains(r.key()) ? tr("%1 (protected)").arg(r.kluster) : r.kluster)
                + (r.phase.isEmpty() ? QString() : QString(QStringLiteral(" · ") + r.phase)));
        case ConnectionColumn:
            return r.connection;
        case WorstColumn:
            // Why it ranks where it does, and (stale) what its data is worth: "stale · pod network closed".
            // Incomplete data says so in its counts ("≥ 3"), in red.
            switch (state) {
            case State::Stale:
                return tr("stale · %1").arg(KlusterRanking::reason(r.ranked()));
            case State::ConnectionFailed:
                return tr("failed");
            default:
                return KlusterRanking::reason(r.ranked());
            }
        case CriticalColumn:
            return r.diagnosed ? count(r.shown.critical) : QVariant(QStringLiteral("—"));
        case WarningColumn:
            return r.diagnosed ? count(r.shown.warning) : QVariant(QStringLiteral("—"));
        case AlertsColumn: {
            const int n = m_alertCounts.value(r.key());
            return n > 0 ? QVariant(QString::number(n)) : QVariant();
        }
        case FetchedColumn:
            return r.fetchedAt.isValid()
                ? r.fetchedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))
                : QString();
        }
        break;
    case SortRole:
        switch (index.column()) {
        case WorstColumn:
            // The one ranking (KlusterRanking), ascending: the worst first.
            return KlusterRanking::sortKey(r.ranked());
        case FetchedColumn:
            return r.fetchedAt;
        case AlertsColumn:
            return m_alertCounts.value(r.key());
        case KlusterColumn:
            return r.kluster;
        // Not read yet: no count, below every kluster that was read.
        case CriticalColumn:
            return r.diagnosed ? qint64(rank.critical) * 10000000 + rank.warning : qint64(-1);
        case WarningColumn:
            return r.diagnosed ? qint64(rank.warning) * 10000000 + rank.critical : qint64(-1);
        default:
            return data(index, Qt::DisplayRole);
        }
    default:
        break;
    }
    return QVariant();
}

QVariant KlustersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole
        && (section == CriticalColumn || section == WarningColumn))
        return tr("%1 causes: an incident once, whatever its findings, and each %2 finding in no incident")
            .arg(section == CriticalColumn ? tr("Critical") : tr("Warning"),
                section == CriticalColumn ? tr("critical") : tr("warning"));
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == WorstColumn)
        return KlusterRanking::rule();
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KlusterColumn:
        return tr("Kluster");
    case ConnectionColumn:
        return tr("Connection");
    case WorstColumn:
        return tr("Worst cause");
    case CriticalColumn:
        return tr("Crit.");
    case WarningColumn:
        return tr("Warn.");
    case AlertsColumn:
        return tr("Alerts");
    case FetchedColumn:
        return tr("Fetched");
    }
    return QVariant();
}

void KlustersModel::setAlertCounts(
    const QString &connection, const QHash<QString, int> &byKluster, bool configured)
{
    const bool wasConfigured = alertsConfigured();
    const QString prefix = keyOf(connection, QString());
    for (auto it = m_alertCounts.begin(); it != m_alertCounts.end();)
        it = it.key().startsWith(prefix) ? m_alertCounts.erase(it) : std::next(it);
    for (auto it = byKluster.cbegin(); it != byKluster.cend(); ++it)
        if (it.value() > 0)
            m_alertCounts.insert(keyOf(connection, it.key()), it.value());
    if (configured)
        m_alertConnections.insert(connection);
    else
        m_alertConnections.remove(connection);
    if (rowCount() > 0)
        emit dataChanged(index(0, AlertsColumn), index(rowCount() - 1, AlertsColumn));
    if (wasConfigured != alertsConfigured())
        emit alertsConfiguredChanged(alertsConfigured());
}

void KlustersModel::setProtected(const QSet<QString> &keys)
{
    if (keys == m_protected)
        return;
    m_protected = keys;
    if (rowCount() > 0)
        emit dataChanged(index(0, KlusterColumn), index(rowCount() - 1, KlusterColumn), { Qt::DisplayRole });
}
