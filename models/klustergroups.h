#pragma once

#include "core/finding.h"

#include <QAbstractProxyModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <optional>

// The sidebar's tree: the rows of a KlustersModel (flat) under one group row
// per connection, labelled with the connection's region. A group sums up its
// klusters: the critical and warning findings of all of them, the worst
// severity of any, how many are in doubt (stale, unreachable, incomplete),
// and it sorts by its worst kluster, so that sorted worst first, the first
// kluster of the first group is the worst of all. Groups and klusters keep
// the source's order (the filter model above sorts both levels). Updated
// from the source's own inserts, removals and changes: no reset, so the
// view's selection, current row and expanded groups survive every refresh.
class KlusterGroups : public QAbstractProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterGroups)

public:
    explicit KlusterGroups(QObject *parent = nullptr);
    ~KlusterGroups() override;

    void setSourceModel(QAbstractItemModel *source) override;

    static bool isGroup(const QModelIndex &index) { return index.isValid() && !index.parent().isValid(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    bool hasChildren(const QModelIndex &parent = QModelIndex()) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &index) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    // Says the group's row changed (its sums), once per turn of the event loop.
    void groupChangedLater(quintptr id);
    QSet<quintptr> m_changedGroups;

    struct Group
    {
        QString connection;
        quintptr id = 0; // the children's internal id, stable while the group lives
        QList<int> rows; // source rows, ascending
        // What data() answered for it, by column and role, until one of its klusters changes: a group's sums
        // walk all its klusters, and a view asks for them on every paint.
        mutable QHash<quint64, QVariant> answers;
        void forget() const
        {
            answers.clear();
            sums.reset();
        }
        // What its klusters say, summed up: one walk over them when first asked; then kept up to date, a
        // changed kluster's part taken out and its new one put in (a round of ten thousand klusters changes
        // each once, and a view asks for the sums after each: a walk each was the square of the klusters).
        struct Part;
        struct Sums
        {
            QStringList regions; // sorted
            QHash<QString, int> regionCounts; // how many of its klusters are in each
            std::optional<Severity> worst;
            int bySeverity[4] = { 0, 0, 0, 0 }; // critical, warning, info, none: `worst` from them
            int critical = 0;
            int warning = 0;
            int diagnosed = 0;
            int inDoubt = 0;
            int incomplete = 0;
            QDateTime oldest;
            QString worstRank; // the lowest KlusterRanking::sortKey of its klusters
            QString worstReason; // that kluster's reason
            bool extremesStale
                = false; // the part that gave `oldest` or `worstRank` went: walk the parts again
            QList<qsizetype> pending; // parts taken out, to be read again and put in
            void add(const Part &p, int sign, bool withRegion = true);
        };
        mutable std::optional<Sums> sums;
        // What each of its klusters adds to the sums, by position in `rows` (empty: not read yet): a
        // kluster's change reads that kluster again, not all of them (a thousand klusters' results came with
        // a walk over the thousand each, most of the window's time after the settings).
        struct Part
        {
            QString region;
            QString rank;
            QString reason;
            std::optional<Severity> severity;
            int critical = -1; // -1: not diagnosed
            int warning = 0;
            bool inDoubt = false;
            bool incomplete = false;
            QDateTime fetched;
        };
        mutable QList<std::optional<Part>> parts;
        // A kluster's own change: its part taken out of the sums (put in again when they are asked for).
        void changed(qsizetype at) const
        {
            answers.clear();
            if (at >= parts.size()) {
                sums.reset();
                return;
            }
            if (!parts[at])
                return; // not read yet, or taken out already: the sums do not hold it
            if (sums) {
                const Part &p = *parts[at];
                sums->add(p, -1);
                if ((!p.rank.isEmpty() && p.rank == sums->worstRank)
                    || (p.fetched.isValid() && p.fetched == sums->oldest))
                    sums->extremesStale = true;
                sums->pending.append(at);
            }
            parts[at].reset();
        }
    };

    QString groupOf(int sourceRow) const;
    int groupRow(quintptr id) const;
    int groupRowOf(const QString &connection) const;
    void rebuild();
    void addRow(int sourceRow); // signals the insertion
    void removeRow(int sourceRow); // signals the removal (the source row still exists)
    void shiftRows(int from, int by); // the source's rows from `from` on moved by `by`: no signal
    QVariant groupData(const Group &group, int column, int role) const;
    const Group::Sums &sumsOf(const Group &group) const;
    Group::Part partOf(int sourceRow) const;

    void sourceAboutToRemove(const QModelIndex &parent, int first, int last);
    void sourceRemoved(const QModelIndex &parent, int first, int last);
    void sourceInserted(const QModelIndex &parent, int first, int last);
    void sourceChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);

    QList<Group> m_groups;
    quintptr m_nextId = 1;
    QList<QMetaObject::Connection> m_connections;
};
