#include "models/findingsmodel.h"

#include "core/diagnosiscontext.h"

#include <QLocale>
#include <QSet>
#include <limits>

FindingsModel::FindingsModel(QObject *parent)
    : KeyedTableModel(parent)
    , m_rows([](const Row &r) { return r.finding.id(); },
          [](const Row &a, const Row &b) {
              return a.message == b.message && a.finding.severity == b.finding.severity
                  && a.hasRepair == b.hasRepair && a.notPermitted == b.notPermitted
                  && a.incident == b.incident;
          })
{ }

FindingsModel::Prepared FindingsModel::prepare(const Diagnosis &diagnosis)
{
    Prepared p;
    QHash<QString, QString> incidentOf;
    for (const Incident &i : diagnosis.incidents) {
        const std::optional<RepairPlan> plan = i.repair();
        p.incidents.append({ i.id(), i.rule, i.key, i.severity, i.title, i.members, i.repairFindings(),
            plan ? plan->title : QString() });
        for (const QString &id : i.members)
            incidentOf.insert(id, i.id());
    }
    p.rows.reserve(diagnosis.findings.size());
    for (const Finding &f : diagnosis.findings) {
        Row r { f, f.message(), f.subject, false, false, {}, incidentOf.value(f.id()) };
        const std::optional<RepairPlan> plan = f.repair();
        r.hasRepair = plan.has_value();
        r.notPermitted = plan && plan->refusal == Refusal::NotPermitted;
        const AffectedObjects a = f.affected();
        QStringList nodes = a.instances + a.nodes, pools, destinations, nexthops;
        nodes.removeDuplicates();
        QList<Route> routes = a.routes;
        if (plan)
            routes << plan->routes;
        for (const Route &route : std::as_const(routes)) {
            destinations << route.destination;
            nexthops << route.nexthop;
        }
        if (f.context) {
            for (const QString &n : std::as_const(nodes))
                pools << f.context->index.poolOf(n);
            if (f.kind == FindingKind::RouteLimit && !f.context->state.router.name.isEmpty())
                r.subject = QStringLiteral("%1 (%2)").arg(f.context->state.router.name, f.subject);
        }
        pools.removeAll(QString());
        pools.removeDuplicates();
        r.fields = QVariantMap { { QStringLiteral("id"), QStringList { f.id() } },
            { QStringLiteral("kind"), QStringList { findingKindName(f.kind) } },
            { QStringLiteral("subject"), QStringList { r.subject } },
            { QStringLiteral("severity"), QStringList { severityName(f.severity) } },
            { QStringLiteral("node"), nodes }, { QStringLiteral("pool"), pools },
            { QStringLiteral("destination"), destinations }, { QStringLiteral("nexthop"), nexthops },
            { QStringLiteral("protocol"),
                f.facts.protocol.isEmpty() ? QStringList() : QStringList { f.facts.protocol } },
            { QStringLiteral("repair"), plan ? QStringList { plan->title } : QStringList() },
            { QStringLiteral("incident"),
                r.incident.isEmpty() ? QStringList() : QStringList { r.incident } } };
        p.rows.append(std::move(r));
    }
    return p;
}

void FindingsModel::apply(const Prepared &prepared)
{
    applyRows(m_rows, prepared);
    m_incidents = prepared.incidents;
    if (!m_acknowledgements.isEmpty())
        updateHolding();
    emit applied();
}

const FindingsModel::IncidentRow *FindingsModel::incident(const QString &id) const
{
    for (const IncidentRow &i : m_incidents) {
        if (i.id == id)
            return &i;
    }
    return nullptr;
}

const FindingHistory *FindingsModel::history(const QString &id) const
{
    const auto it = m_history.constFind(id);
    return it == m_history.cend() ? nullptr : &it.value();
}

QString FindingsModel::noRepairReason(IncidentRule rule)
{
    Incident incident; // the words are the core's: one vocabulary for the console and the command line
    incident.rule = rule;
    return incident.noRepairReason();
}

void FindingsModel::setAcknowledgements(
    const QHash<QString, Acknowledgement> &acknowledgements, const QDateTime &now)
{
    m_acknowledgements = acknowledgements;
    m_acknowledgementsAt = now;
    updateHolding();
    emit historyChanged();
}

void FindingsModel::updateHolding()
{
    QHash<QString, Acknowledgement> holding;
    for (auto it = m_acknowledgements.cbegin(); it != m_acknowledgements.cend(); ++it) {
        const int row = m_rows.rowOf(it.key());
        if (row >= 0 && it->holds(m_rows.at(row).finding, m_acknowledgementsAt))
            holding.insert(it.key(), it.value());
    }
    if (holding.isEmpty() && m_holding.isEmpty())
        return; // nothing held before or now: no row changes
    const QSet<QString> changed = QSet<QString>(m_holding.keyBegin(), m_holding.keyEnd())
        + QSet<QString>(holding.keyBegin(), holding.keyEnd());
    const bool was = !m_holding.isEmpty();
    m_holding = holding;
    if (was != !m_holding.isEmpty())
        emit acknowledgedChanged(!m_holding.isEmpty());
    for (const QString &id : changed) {
        const int row = m_rows.rowOf(id);
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

const Acknowledgement *FindingsModel::acknowledgement(const QString &id) const
{
    const auto it = m_holding.constFind(id);
    return it == m_holding.cend() ? nullptr : &it.value();
}

void FindingsModel::setDiagnosis(const Diagnosis &diagnosis)
{
    apply(prepare(diagnosis));
}

void FindingsModel::setHistory(const QHash<QString, FindingHistory> &history, const QDateTime &at)
{
    m_history = history;
    m_historyAt = at;
    // Only what the column shows and sorts by: a sorting and filtering proxy then neither filters 20,000 rows
    // again nor sorts them unless it is sorted by this column.
    if (m_rows.size() > 0)
        emit dataChanged(index(0, SinceColumn), index(int(m_rows.size()) - 1, SinceColumn),
            { Qt::DisplayRole, Qt::ToolTipRole, SortRole, FirstSeenRole, FlappingRole });
    emit historyChanged();
}

QString FindingsModel::sinceText(const FindingHistory &h, const QDateTime &at)
{
    // The age first (what matters at 3 am), then the time: today's by the clock, this week's with its day.
    const QDateTime local = h.firstSeen.toLocalTime();
    const qint64 days = local.date().daysTo(at.toLocalTime().date());
    const QString when = days == 0 ? local.toString(QStringLiteral("HH:mm"))
        : days < 7                 ? QLocale().toString(local, QStringLiteral("ddd HH:mm"))
                                   : local.toString(QStringLiteral("yyyy-MM-dd"));
    const qint64 seconds = qMax<qint64>(0, h.firstSeen.secsTo(at));
    QString text;
    if (h.beforeHistory) // when it began is not known: only that it was open then
        text = seconds < 60 ? tr("open when first recorded") : tr("over %1").arg(formatDuration(seconds));
    else
        text = seconds < 60 ? tr("new, %1").arg(when) : tr("%1, since %2").arg(formatDuration(seconds), when);
    return h.flapping() ? tr("flapping · %1").arg(text) : text;
}

QString FindingsModel::acknowledgementTime(const QDateTime &t, const QDateTime &now)
{
    const QDateTime local = t.toLocalTime();
    return local.date() == now.toLocalTime().date() ? local.toString(QStringLiteral("HH:mm"))
                                                    : QLocale().toString(local, QStringLiteral("ddd HH:mm"));
}

const Finding *FindingsModel::findingAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row).finding : nullptr;
}

int FindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const Row &row = m_rows.at(index.row());
    const Finding &f = row.finding;
    switch (role) {
    case SortRole:
        // Severity sorts by rank (severity, then impact: what takes down the whole kluster before what takes
        // one node) and Repair by availability; the rest by the text shown.
        if (index.column() == SeverityColumn)
            return findingRank(f, m_holding.contains(f.id()));
        if (index.column() == AcknowledgedColumn) {
            const Acknowledgement *a = acknowledgement(f.id());
            return a ? a->until.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max();
        }
        if (index.column() == RepairColumn)
            return row.hasRepair;
        if (index.column() == SinceColumn) {
            // Oldest first; what the history began with sorts as older than anything it saw begin.
            const auto h = m_history.constFind(f.id());
            return h == m_history.cend()
                ? QVariant(std::numeric_limits<qint64>::max())
                : QVariant(h->firstSeen.toMSecsSinceEpoch() - (h->beforeHistory ? 1 : 0));
        }
        Q_FALLTHROUGH();
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        if (index.column() == SinceColumn) {
            const auto h = m_history.constFind(f.id());
            if (h == m_history.cend())
                return role == Qt::ToolTipRole
                    ? tr("Not in the history yet: recorded from the next refresh on")
                    : QVariant();
            if (role == Qt::DisplayRole)
                return sinceText(*h, m_historyAt);
            return tr("First seen %1%2; open since then.%3")
                .arg(QLocale().toString(h->firstSeen.toLocalTime(), QLocale::LongFormat),
                    h->beforeHistory
                        ? tr(", on the first refresh Flightdeck recorded of this kluster: it may be older")
                        : QString(),
                    h->flapping() ? tr(" It resolved and came back: %n interval(s) within the last day.",
                        nullptr, h->intervalsLastDay)
                                  : QString());
        }
        if (index.column() == AcknowledgedColumn) {
            const Acknowledgement *a = acknowledgement(f.id());
            if (!a)
                return role == Qt::ToolTipRole
                    ? tr("Nobody has acknowledged it: Ctrl+Shift+A says you are handling it")
                    : QVariant();
            const QString until = acknowledgementTime(a->until, m_acknowledgementsAt);
            return role == Qt::DisplayRole
                ? a->text(until)
                : tr("Acknowledged by %1 at %2, until %3%4. It notifies again and rises to its rank when "
                     "it changes (severity or evidence) or the time runs out.")
                      .arg(a->by, acknowledgementTime(a->at, m_acknowledgementsAt), until,
                          a->note.isEmpty() ? QString() : tr(": \"%1\"").arg(a->note));
        }
        switch (index.column()) {
        case SeverityColumn:
            return severityName(f.severity);
        case KindColumn:
            return findingKindName(f.kind);
        case SubjectColumn:
            return row.subject;
        case MessageColumn:
            return row.message;
        case RepairColumn:
            return !row.hasRepair ? QString() : row.notPermitted ? tr("Guide…") : tr("Repair…");
        }
        break;
    case IdRole:
        return f.id();
    case FindingsRole:
        return QStringList { f.id() };
    case FilterRole:
        return row.fields;
    case SeverityRole:
        return ConsoleRole::severityData(f.severity);
    case HasRepairRole:
        return row.hasRepair;
    case FirstSeenRole:
        return m_history.contains(f.id()) ? QVariant(m_history.value(f.id()).firstSeen) : QVariant();
    case FlappingRole:
        return m_history.value(f.id()).flapping();
    case AcknowledgedRole:
        return m_holding.contains(f.id());
    case IncidentRole:
        return row.incident;
    case IncidentRowRole:
        return false;

    default:
        break;
    }
    return QVariant();
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case KindColumn:
        return tr("Kind");
    case SubjectColumn:
        return tr("Subject");
    case SinceColumn:
        return tr("Since");
    case MessageColumn:
        return tr("What is wrong");
    case RepairColumn:
        return tr("Repair");
    case AcknowledgedColumn:
        return tr("Acknowledged");
    }
    return QVariant();
}

QStringList FindingsModel::filterFields()
{
    return { QStringLiteral("id"), QStringLiteral("kind"), QStringLiteral("subject"),
        QStringLiteral("severity"), QStringLiteral("node"), QStringLiteral("pool"),
        QStringLiteral("destination"), QStringLiteral("nexthop"), QStringLiteral("protocol"),
        QStringLiteral("repair"), QStringLiteral("incident") };
}

QHash<int, QByteArray> FindingsModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(SortRole, "sort");
    names.insert(IdRole, "findingId");
    names.insert(SeverityRole, "severity");
    names.insert(HasRepairRole, "hasRepair");
    return names;
}
