#include "views/fleetview.h"

#include "core/printable.h"
#include "views/severitystyle.h"

#include <QAbstractItemModel>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>
#include <QToolTip>

namespace {

constexpr int TileWidth = 190;
constexpr int TileHeight = 64;
constexpr int Gap = 8;
constexpr int Cell = 16; // a heat map's cell
constexpr int CellGap = 3;
constexpr int Margin = 10;

} // namespace

FleetView::FleetView(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Fleet: every kluster at a glance"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto *ages = new QTimer(this); // the data's ages, kept true while shown
    ages->setInterval(30000);
    connect(ages, &QTimer::timeout, this, [this] {
        if (isVisible())
            rebuild();
    });
    ages->start();
    m_rebuildTimer = new QTimer(this);
    m_rebuildTimer->setSingleShot(true);
    m_rebuildTimer->setInterval(150);
    connect(m_rebuildTimer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            rebuild();
    });
}

void FleetView::setModel(QAbstractItemModel *klusters)
{
    if (m_model)
        m_model->disconnect(this);
    m_model = klusters;
    connect(klusters, &QAbstractItemModel::modelReset, this, &FleetView::scheduleRebuild);
    connect(klusters, &QAbstractItemModel::rowsInserted, this, &FleetView::scheduleRebuild);
    connect(klusters, &QAbstractItemModel::rowsRemoved, this, &FleetView::scheduleRebuild);
    connect(klusters, &QAbstractItemModel::dataChanged, this, &FleetView::scheduleRebuild);
    connect(klusters, &QAbstractItemModel::layoutChanged, this, &FleetView::scheduleRebuild);
    rebuild();
}

void FleetView::setGrouping(FleetGrouping grouping)
{
    if (grouping == m_grouping)
        return;
    m_grouping = grouping;
    rebuild();
}

void FleetView::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    layoutTiles(width());
    updateGeometry();
    update();
    if (m_current >= 0)
        setCurrentTile(m_current); // still in sight
}

void FleetView::scheduleRebuild()
{
    // A thousand klusters refreshed one after another: one rebuild for a burst of changes, none while hidden
    // (shown, it is made afresh).
    m_dirty = true;
    if (isVisible() && !m_rebuildTimer->isActive())
        m_rebuildTimer->start();
}

void FleetView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        rebuild();
}

void FleetView::rebuild()
{
    m_dirty = false;
    const KlusterKey current = tileKey(m_current);
    m_tiles.clear();
    if (m_model) {
        const QList<FleetTile> tiles = fleetTiles(*m_model, m_grouping, QDateTime::currentDateTimeUtc());
        m_summary = fleetSummary(tiles);
        m_tiles.reserve(tiles.size());
        for (const FleetTile &t : tiles)
            m_tiles.append({ t, QRect() });
    } else {
        m_summary = FleetSummary();
    }
    m_current = -1;
    for (int i = 0; i < m_tiles.size(); ++i) {
        if (m_tiles.at(i).tile.key == current)
            m_current = i;
    }
    layoutTiles(width());
    updateGeometry();
    update();
    emit tilesChanged();
    emit currentChanged();
}

QSize FleetView::cellSize() const
{
    return m_compact ? QSize(Cell, Cell) : QSize(TileWidth, TileHeight);
}

void FleetView::layoutTiles(int width)
{
    m_headers.clear();
    const QSize cell = cellSize();
    const int gap = m_compact ? CellGap : Gap;
    const int perRow = qMax(1, (width - 2 * Margin + gap) / (cell.width() + gap));
    const int lineHeight = fontMetrics().height();
    int y = Margin;
    QString group;
    int column = 0;
    int inGroup = 0;
    const auto closeGroup = [&] {
        if (!m_headers.isEmpty())
            m_headers.last().first = tr("%1 (%2)").arg(m_headers.last().first).arg(inGroup);
    };
    for (Placed &t : m_tiles) {
        if (t.tile.group != group || m_headers.isEmpty()) {
            closeGroup();
            if (!m_headers.isEmpty())
                y += cell.height() + Gap;
            group = t.tile.group;
            m_headers.append({ group.isEmpty() ? tr("Every kluster") : group,
                QRect(Margin, y, width - 2 * Margin, lineHeight + 4) });
            y += lineHeight + 8;
            column = 0;
            inGroup = 0;
        } else if (column == perRow) {
            y += cell.height() + gap;
            column = 0;
        }
        t.rect = QRect(QPoint(Margin + column * (cell.width() + gap), y), cell);
        ++column;
        ++inGroup;
    }
    closeGroup();
    m_height = m_tiles.isEmpty() ? 2 * Margin + lineHeight : y + cell.height() + Margin;
}

int FleetView::heightForWidth(int width) const
{
    auto *self = const_cast<FleetView *>(this);
    self->layoutTiles(width);
    const int h = m_height;
    self->layoutTiles(this->width());
    return h;
}

QSize FleetView::sizeHint() const
{
    return { 4 * (TileWidth + Gap) + 2 * Margin, qMax(m_height, 200) };
}

void FleetView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layoutTiles(width());
}

void FleetView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_tiles.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(Margin, Margin, -Margin, -Margin), Qt::AlignLeft | Qt::AlignTop,
            m_placeholder.isEmpty()
                ? tr("No kluster yet: add a connection (File ▸ Add connection), or start with --demo.")
                : m_placeholder);
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    for (const auto &h : std::as_const(m_headers)) {
        if (h.second.intersects(event->rect()))
            p.drawText(h.second, Qt::AlignLeft | Qt::AlignVCenter, h.first);
    }
    // Only what is exposed: a thousand tiles, a screenful painted.
    for (int i = 0; i < m_tiles.size(); ++i) {
        const Placed &t = m_tiles.at(i);
        if (!t.rect.adjusted(-3, -3, 3, 3).intersects(event->rect()))
            continue;
        if (m_compact)
            paintCell(p, t, i == m_current);
        else
            paintTile(p, t, i == m_current);
    }
}

void FleetView::paintCell(QPainter &p, const Placed &t, bool current) const
{
    p.setPen(
        QPen(t.tile.retiring ? palette().color(QPalette::Mid) : SeverityStyle::colour(t.tile.severity), 1));
    p.setBrush(t.tile.retiring ? palette().color(QPalette::Mid)
            : t.tile.severity  ? SeverityStyle::colour(t.tile.severity)
                               : SeverityStyle::wash(std::nullopt, palette()));
    p.drawRect(QRectF(t.rect).adjusted(0.5, 0.5, -0.5, -0.5));
    // A shape besides the colour, for whoever does not tell the colours apart (or prints it in grey): a cross
    // on a critical cell, a bar on a warning.
    if (t.tile.severity == Severity::Critical || t.tile.severity == Severity::Warning) {
        const QRectF mark = QRectF(t.rect).adjusted(
            t.rect.width() * 0.28, t.rect.height() * 0.28, -t.rect.width() * 0.28, -t.rect.height() * 0.28);
        p.setPen(QPen(
            palette().color(QPalette::Base), qMax(1.5, t.rect.width() / 9.0), Qt::SolidLine, Qt::RoundCap));
        if (t.tile.severity == Severity::Critical) {
            p.drawLine(mark.topLeft(), mark.bottomRight());
            p.drawLine(mark.topRight(), mark.bottomLeft());
        } else {
            p.drawLine(QPointF(mark.left(), mark.center().y()), QPointF(mark.right(), mark.center().y()));
        }
    }
    if (t.tile.doubtful) {
        // The data itself is in doubt: hatched, so it never reads as a plain colour.
        p.setBrush(QBrush(palette().color(QPalette::Base), Qt::BDiagPattern));
        p.setPen(Qt::NoPen);
        p.drawRect(QRectF(t.rect));
    }
    if (current) {
        p.setPen(QPen(palette().color(hasFocus() ? QPalette::Highlight : QPalette::WindowText), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(t.rect).adjusted(-2, -2, 2, 2));
    }
}

void FleetView::paintTile(QPainter &p, const Placed &t, bool current) const
{
    // A kluster being torn down is grey: going away, not failing.
    p.setPen(
        QPen(t.tile.retiring ? palette().color(QPalette::Mid) : SeverityStyle::colour(t.tile.severity), 1.5));
    p.setBrush(t.tile.retiring ? palette().color(QPalette::Midlight)
                               : SeverityStyle::wash(t.tile.severity, palette()));
    p.drawRoundedRect(QRectF(t.rect).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    if (t.tile.doubtful) {
        QColor hatch = SeverityStyle::alarmText(palette());
        hatch.setAlpha(70);
        p.setBrush(QBrush(hatch, Qt::BDiagPattern));
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(QRectF(t.rect), 5, 5);
    }
    if (current && hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(t.rect).adjusted(-2, -2, 2, 2), 6, 6);
    }
    const QRect text = t.rect.adjusted(8, 5, -8, -5);
    const int line = fontMetrics().height();
    QFont bold = font();
    bold.setBold(true);
    p.setPen(palette().color(QPalette::WindowText));
    p.setFont(bold);
    p.drawText(QRect(text.left(), text.top(), text.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(bold).elidedText(t.tile.title, Qt::ElideMiddle, text.width()));
    p.setFont(font());
    // Its worst cause, then its counts and the data's age; a kluster without one: its state, then the age.
    const QString second = t.tile.causes ? t.tile.reason : t.tile.counts;
    const QString third = t.tile.causes
        ? t.tile.counts + (t.tile.age.isEmpty() ? QString() : QStringLiteral(" · ") + t.tile.age)
        : t.tile.age;
    p.drawText(QRect(text.left(), text.top() + line + 1, text.width(), line),
        Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(second, Qt::ElideRight, text.width()));
    QColor dim = palette().color(QPalette::WindowText);
    dim.setAlpha(170);
    p.setPen(dim);
    p.drawText(QRect(text.left(), text.top() + 2 * line + 2, text.width(), line),
        Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(third, Qt::ElideRight, text.width()));
}

int FleetView::tileAt(const QPoint &pos) const
{
    for (int i = 0; i < m_tiles.size(); ++i) {
        if (m_tiles.at(i).rect.contains(pos))
            return i;
    }
    return -1;
}

void FleetView::setCurrentTile(int i)
{
    if (i < 0 || i >= m_tiles.size())
        return;
    const bool changed = i != m_current;
    m_current = i;
    const QRect r = m_tiles.at(i).rect;
    for (QWidget *w = parentWidget(); w; w = w->parentWidget()) {
        if (auto *area = qobject_cast<QScrollArea *>(w)) {
            area->ensureVisible(
                r.center().x(), r.center().y(), r.width() / 2 + Margin, r.height() / 2 + Margin);
            break;
        }
    }
    update();
    if (changed)
        emit currentChanged();
}

void FleetView::mousePressEvent(QMouseEvent *event)
{
    const int i = tileAt(event->position().toPoint());
    if (i < 0 || event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    setCurrentTile(i);
    emit klusterActivated(m_tiles.at(i).tile.key);
}

void FleetView::keyPressEvent(QKeyEvent *event)
{
    if (m_tiles.isEmpty()) {
        QWidget::keyPressEvent(event);
        return;
    }
    const int at = qMax(0, m_current);
    const auto nearest = [this, at](int rows) {
        // The tile `rows` rows above or below, nearest in x; the last or first row when there are fewer.
        int from = at;
        for (int step = 0; step < qAbs(rows); ++step) {
            const QRect here = m_tiles.at(from).rect;
            int best = -1;
            int bestScore = 0;
            for (int i = 0; i < m_tiles.size(); ++i) {
                const QRect r = m_tiles.at(i).rect;
                if ((rows > 0 && r.top() <= here.top()) || (rows < 0 && r.top() >= here.top()))
                    continue;
                const int score = qAbs(r.top() - here.top()) * 10 + qAbs(r.left() - here.left());
                if (best < 0 || score < bestScore) {
                    best = i;
                    bestScore = score;
                }
            }
            if (best < 0)
                break;
            from = best;
        }
        return from;
    };
    const int page
        = qMax(1, (parentWidget() ? parentWidget()->height() : height()) / (cellSize().height() + Gap));
    switch (event->key()) {
    case Qt::Key_Right:
        setCurrentTile(m_current < 0 ? 0 : qMin(at + 1, int(m_tiles.size()) - 1));
        return;
    case Qt::Key_Left:
        setCurrentTile(m_current < 0 ? 0 : qMax(at - 1, 0));
        return;
    case Qt::Key_Down:
        setCurrentTile(m_current < 0 ? 0 : nearest(1));
        return;
    case Qt::Key_Up:
        setCurrentTile(m_current < 0 ? 0 : nearest(-1));
        return;
    case Qt::Key_PageDown:
        setCurrentTile(m_current < 0 ? 0 : nearest(page));
        return;
    case Qt::Key_PageUp:
        setCurrentTile(m_current < 0 ? 0 : nearest(-page));
        return;
    case Qt::Key_Home:
        setCurrentTile(0);
        return;
    case Qt::Key_End:
        setCurrentTile(int(m_tiles.size()) - 1);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (m_current >= 0)
            emit klusterActivated(m_tiles.at(m_current).tile.key);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool FleetView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int i = tileAt(help->pos());
        if (i >= 0) {
            const FleetTile &t = m_tiles.at(i).tile;
            QToolTip::showText(help->globalPos(),
                tr("<b>%1</b>%2<br>%3<br>%4%5")
                    .arg(OutsideText::html(t.title),
                        t.key.kluster.isEmpty()
                            ? QString()
                            : QStringLiteral(" (%1)").arg(OutsideText::html(t.key.connection)),
                        t.causes ? QStringLiteral("Worst cause: %1<br>%2")
                                       .arg(t.reason.toHtmlEscaped(),
                                           (t.standing.isEmpty() ? t.counts : t.standing).toHtmlEscaped())
                                 : t.counts.toHtmlEscaped(),
                        t.age.toHtmlEscaped(),
                        t.error.isEmpty() ? QString()
                                          : QStringLiteral("<br>") + OutsideText::html(t.error, 400)),
                this, m_tiles.at(i).rect);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    if (event->type() == QEvent::FocusIn && m_current < 0 && !m_tiles.isEmpty()) {
        m_current = 0;
        emit currentChanged();
    }
    if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut)
        update();
    return QWidget::event(event);
}
