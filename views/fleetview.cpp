#include "views/fleetview.h"

#include "core/diagnosis.h"
#include "models/klustersmodel.h"
#include "views/severitystyle.h"

#include <QAbstractItemModel>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <algorithm>

namespace {

constexpr int TileWidth = 190;
constexpr int TileHeight = 64;
constexpr int Gap = 8;
constexpr int Margin = 10;

int severityRank(int severity)
{
    // Critical first, then warning, info, healthy.
    return severity < 0 ? 0 : 4 - severity;
}

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
    QStringList connections; // in the order first listed
    if (m_model) {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const QModelIndex first = m_model->index(row, 0);
            Tile t;
            t.key = { first.data(KlustersModel::ConnectionRole).toString(),
                first.data(KlustersModel::KlusterRole).toString() };
            if (!connections.contains(t.key.connection))
                connections << t.key.connection;
            const QString region = m_regionOf && !t.key.kluster.isEmpty() ? m_regionOf(t.key) : QString();
            t.group = region.isEmpty() ? t.key.connection : tr("%1 · %2").arg(t.key.connection, region);
            const QVariant severity = first.data(KlustersModel::SeverityRole);
            t.severity = severity.isValid() ? severity.toInt() : -1;
            t.doubtful = first.data(KlustersModel::AlarmRole).toBool();
            const auto state = KlustersModel::State(first.data(KlustersModel::StateRole).toInt());
            t.title = t.key.kluster.isEmpty() ? tr("%1 (connection)").arg(t.key.connection) : t.key.kluster;
            const QString worst = m_model->index(row, KlustersModel::WorstColumn).data().toString();
            const QVariant critical = m_model->index(row, KlustersModel::CriticalColumn).data();
            const QVariant warning = m_model->index(row, KlustersModel::WarningColumn).data();
            switch (state) {
            case KlustersModel::State::Pending:
                t.counts = tr("not checked yet");
                t.doubtful = true;
                break;
            case KlustersModel::State::Unreachable:
                t.counts = tr("UNREACHABLE");
                break;
            case KlustersModel::State::ConnectionFailed:
                t.counts = tr("CONNECTION FAILED");
                break;
            default:
                // Causes, not symptoms: an incident once, then the findings in none.
                t.counts = critical.toInt() + warning.toInt() == 0 ? worst
                    : first.data(KlustersModel::IncidentCountRole).toInt() > 0
                    ? ConsoleRole::counted(first.data(KlustersModel::IncidentCountRole).toInt(),
                          tr("incident"), tr("incidents"))
                        + (first.data(KlustersModel::LoneCountRole).toInt() > 0 ? QStringLiteral(" · ")
                                    + ConsoleRole::counted(first.data(KlustersModel::LoneCountRole).toInt(),
                                        tr("finding"), tr("findings"))
                                                                                : QString())
                    : tr("%1 critical · %2 warning").arg(critical.toString(), warning.toString());
                if (state == KlustersModel::State::Stale)
                    t.counts.prepend(tr("STALE · "));
                else if (state == KlustersModel::State::Incomplete)
                    t.counts.prepend(tr("INCOMPLETE · "));
            }
            const QDateTime fetched = first.data(KlustersModel::FetchedAtRole).toDateTime();
            if (fetched.isValid()) {
                const qint64 s = qMax<qint64>(0, fetched.secsTo(QDateTime::currentDateTimeUtc()));
                t.age = s < 60 ? tr("data %1 s old").arg(s) : tr("data %1 old").arg(formatDuration(s));
            }
            const QString error = first.data(KlustersModel::ErrorRole).toString();
            t.tooltip = tr("<b>%1</b> (%2)<br>%3<br>%4%5")
                            .arg(t.title.toHtmlEscaped(), t.group.toHtmlEscaped(), t.counts.toHtmlEscaped(),
                                t.age.toHtmlEscaped(),
                                error.isEmpty() ? QString() : QStringLiteral("<br>") + error.toHtmlEscaped());
            t.rank = severityRank(t.severity) * 1000000 + critical.toInt() * 1000 + warning.toInt();
            m_tiles << t;
        }
    }
    // By connection (in the order listed), then region, then worst first, then by name.
    std::stable_sort(m_tiles.begin(), m_tiles.end(), [&connections](const Tile &a, const Tile &b) {
        const qsizetype ca = connections.indexOf(a.key.connection);
        const qsizetype cb = connections.indexOf(b.key.connection);
        if (ca != cb)
            return ca < cb;
        if (a.group != b.group)
            return a.group < b.group;
        if (a.rank != b.rank)
            return a.rank > b.rank;
        return a.key.kluster < b.key.kluster;
    });
    m_current = -1;
    for (int i = 0; i < m_tiles.size(); ++i) {
        if (m_tiles.at(i).key == current)
            m_current = i;
    }
    layoutTiles(width());
    updateGeometry();
    update();
}

void FleetView::layoutTiles(int width)
{
    m_headers.clear();
    const int perRow = qMax(1, (width - 2 * Margin + Gap) / (TileWidth + Gap));
    const int lineHeight = fontMetrics().height();
    int y = Margin;
    QString group;
    int column = 0;
    for (Tile &t : m_tiles) {
        if (t.group != group || m_headers.isEmpty()) {
            if (!m_headers.isEmpty())
                y += TileHeight + Gap;
            group = t.group;
            m_headers.append({ group, QRect(Margin, y, width - 2 * Margin, lineHeight + 4) });
            y += lineHeight + 8;
            column = 0;
        } else if (column == perRow) {
            y += TileHeight + Gap;
            column = 0;
        }
        t.rect = QRect(Margin + column * (TileWidth + Gap), y, TileWidth, TileHeight);
        ++column;
    }
    m_height = m_tiles.isEmpty() ? 2 * Margin + lineHeight : y + TileHeight + Margin;
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

void FleetView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    if (m_tiles.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(Margin, Margin, -Margin, -Margin), Qt::AlignLeft | Qt::AlignTop,
            tr("No kluster yet: add a connection (File ▸ Add connection), or start with --demo."));
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    for (const auto &h : std::as_const(m_headers)) {
        p.setFont(bold);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(h.second, Qt::AlignLeft | Qt::AlignVCenter, h.first);
    }
    for (int i = 0; i < m_tiles.size(); ++i) {
        const Tile &t = m_tiles.at(i);
        const std::optional<Severity> severity
            = t.severity < 0 ? std::nullopt : std::optional(Severity(t.severity));
        QColor fill = SeverityStyle::wash(severity, palette());
        p.setPen(QPen(SeverityStyle::colour(severity), 1.5));
        p.setBrush(fill);
        p.drawRoundedRect(QRectF(t.rect).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
        if (t.doubtful) {
            // The data itself is in doubt: hatched, so it never reads as a plain colour.
            QColor hatch = SeverityStyle::alarmText(palette());
            hatch.setAlpha(70);
            p.setBrush(QBrush(hatch, Qt::BDiagPattern));
            p.setPen(Qt::NoPen);
            p.drawRoundedRect(QRectF(t.rect), 5, 5);
        }
        if (i == m_current && hasFocus()) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 3));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(QRectF(t.rect).adjusted(-2, -2, 2, 2), 6, 6);
        }
        const QRect text = t.rect.adjusted(8, 5, -8, -5);
        const int line = fontMetrics().height();
        p.setPen(palette().color(QPalette::WindowText));
        p.setFont(bold);
        p.drawText(QRect(text.left(), text.top(), text.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(bold).elidedText(t.title, Qt::ElideMiddle, text.width()));
        p.setFont(font());
        p.drawText(QRect(text.left(), text.top() + line + 1, text.width(), line),
            Qt::AlignLeft | Qt::AlignVCenter,
            fontMetrics().elidedText(t.counts, Qt::ElideRight, text.width()));
        QColor dim = palette().color(QPalette::WindowText);
        dim.setAlpha(170);
        p.setPen(dim);
        p.drawText(QRect(text.left(), text.top() + 2 * line + 2, text.width(), line),
            Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(t.age, Qt::ElideRight, text.width()));
    }
}

int FleetView::tileAt(const QPoint &pos) const
{
    for (int i = 0; i < m_tiles.size(); ++i) {
        if (m_tiles.at(i).rect.contains(pos))
            return i;
    }
    return -1;
}

void FleetView::setCurrent(int i)
{
    if (i < 0 || i >= m_tiles.size())
        return;
    m_current = i;
    update();
}

void FleetView::mousePressEvent(QMouseEvent *event)
{
    const int i = tileAt(event->position().toPoint());
    if (i < 0 || event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    setCurrent(i);
    emit klusterActivated(m_tiles.at(i).key);
}

void FleetView::keyPressEvent(QKeyEvent *event)
{
    if (m_tiles.isEmpty()) {
        QWidget::keyPressEvent(event);
        return;
    }
    const int at = qMax(0, m_current);
    const auto nearest = [this, at](int dy) {
        // The tile above or below, nearest in x.
        const QRect from = m_tiles.at(at).rect;
        int best = -1;
        int bestScore = 0;
        for (int i = 0; i < m_tiles.size(); ++i) {
            const QRect r = m_tiles.at(i).rect;
            if ((dy > 0 && r.top() <= from.top()) || (dy < 0 && r.top() >= from.top()))
                continue;
            const int score = qAbs(r.top() - from.top()) * 10 + qAbs(r.left() - from.left());
            if (best < 0 || score < bestScore) {
                best = i;
                bestScore = score;
            }
        }
        return best < 0 ? at : best;
    };
    switch (event->key()) {
    case Qt::Key_Right:
        setCurrent(m_current < 0 ? 0 : qMin(at + 1, int(m_tiles.size()) - 1));
        return;
    case Qt::Key_Left:
        setCurrent(m_current < 0 ? 0 : qMax(at - 1, 0));
        return;
    case Qt::Key_Down:
        setCurrent(m_current < 0 ? 0 : nearest(1));
        return;
    case Qt::Key_Up:
        setCurrent(m_current < 0 ? 0 : nearest(-1));
        return;
    case Qt::Key_Home:
        setCurrent(0);
        return;
    case Qt::Key_End:
        setCurrent(int(m_tiles.size()) - 1);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (m_current >= 0)
            emit klusterActivated(m_tiles.at(m_current).key);
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
        if (i >= 0)
            QToolTip::showText(help->globalPos(), m_tiles.at(i).tooltip, this, m_tiles.at(i).rect);
        else
            QToolTip::hideText();
        return true;
    }
    if (event->type() == QEvent::FocusIn && m_current < 0 && !m_tiles.isEmpty())
        m_current = 0;
    if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut)
        update();
    return QWidget::event(event);
}
