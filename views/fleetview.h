#pragma once

#include "core/klusterkey.h"

#include <QPointer>
#include <QWidget>
#include <functional>

class QAbstractItemModel;
class QTimer;

// The whole fleet at a glance: a tile per kluster of every connection, grouped by connection and region,
// worst first, coloured by the worst finding (hatched when the data itself is in doubt: stale,
// unreachable, incomplete), with the counts and the age of the data. A click, Enter or Space opens the
// kluster; the arrow keys move between tiles. Fed by the sidebar's model (KlustersModel).
class FleetView : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetView)

public:
    explicit FleetView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *klusters);
    // The region of a kluster's data ("" when not known yet): the tiles are grouped by it.
    void setRegionOf(std::function<QString(const KlusterKey &)> regionOf)
    {
        m_regionOf = std::move(regionOf);
    }
    int tileCount() const { return int(m_tiles.size()); }
    KlusterKey tileKey(int i) const { return m_tiles.value(i).key; }
    int currentTile() const { return m_current; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;

signals:
    void klusterActivated(const KlusterKey &key);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    struct Tile
    {
        KlusterKey key;
        QString group; // "<connection> · <region>"
        QString title;
        QString counts;
        QString age;
        QString tooltip;
        int severity = -1; // -1 none, else int(Severity)
        bool doubtful = false; // stale, unreachable, incomplete, not yet read
        int rank = 0;
        QRect rect;
    };
    void rebuild();
    void scheduleRebuild();
    void layoutTiles(int width);
    int tileAt(const QPoint &p) const;
    void setCurrent(int i);

    QPointer<QAbstractItemModel> m_model;
    std::function<QString(const KlusterKey &)> m_regionOf;
    QList<Tile> m_tiles;
    QList<QPair<QString, QRect>> m_headers;
    int m_current = -1;
    int m_height = 0;
    bool m_dirty = false;
    QTimer *m_rebuildTimer = nullptr;
};
