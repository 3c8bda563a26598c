#pragma once

#include "core/klusterkey.h"
#include "models/fleettiles.h"

#include <QPointer>
#include <QWidget>

class QAbstractItemModel;
class QTimer;

// The whole fleet at a glance: a tile per kluster of every connection (FleetTiles: grouped by connection
// and region, by state, or not at all; worst first), coloured by the worst finding (hatched when the data
// itself is in doubt: stale, unreachable, incomplete), with the counts and the age of the data; or, for a
// region's hundreds, a heat map of small cells, one per kluster, the current one's details in a line above
// them. A click, Enter or Space opens the kluster; the arrow keys, Home and End move between tiles. Fed by
// the kluster list's model (KlustersModel, or a filter over it).
class FleetView : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetView)

public:
    explicit FleetView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *klusters);
    void setGrouping(FleetGrouping grouping);
    FleetGrouping grouping() const { return m_grouping; }
    // What it says when it has no tile (no kluster yet; none that matches a filter).
    void setPlaceholder(const QString &text)
    {
        m_placeholder = text;
        update();
    }
    // Small cells without text: a thousand klusters on one screen.
    void setCompact(bool compact);
    bool isCompact() const { return m_compact; }
    int tileCount() const { return int(m_tiles.size()); }
    KlusterKey tileKey(int i) const
    {
        return i >= 0 && i < m_tiles.size() ? m_tiles.at(i).tile.key : KlusterKey();
    }
    const FleetTile *tile(int i) const
    {
        return i >= 0 && i < m_tiles.size() ? &m_tiles.at(i).tile : nullptr;
    }
    int currentTile() const { return m_current; }
    void setCurrentTile(int i);
    // Changes not yet shown (they wait for a burst to end) shown now.
    void settle()
    {
        if (m_dirty)
            rebuild();
    }
    // What the tiles hold, counted.
    FleetSummary summary() const { return m_summary; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;

signals:
    void klusterActivated(const KlusterKey &key);
    void currentChanged(); // the current tile, or what it says
    void tilesChanged(); // rebuilt: the summary may differ

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    struct Placed
    {
        FleetTile tile;
        QRect rect;
    };
    void rebuild();
    void scheduleRebuild();
    void layoutTiles(int width);
    int tileAt(const QPoint &p) const;
    QSize cellSize() const;
    void paintTile(QPainter &p, const Placed &t, bool current) const;
    void paintCell(QPainter &p, const Placed &t, bool current) const;

    QPointer<QAbstractItemModel> m_model;
    FleetGrouping m_grouping = FleetGrouping::ConnectionRegion;
    bool m_compact = false;
    QList<Placed> m_tiles;
    FleetSummary m_summary;
    QList<QPair<QString, QRect>> m_headers;
    int m_current = -1;
    int m_height = 0;
    bool m_dirty = false;
    QTimer *m_rebuildTimer = nullptr;
    QString m_placeholder;
};
