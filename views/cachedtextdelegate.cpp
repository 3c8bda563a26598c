#include "views/cachedtextdelegate.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QStyle>
#include <QTextOption>
#include <cmath>

CachedTextDelegate::CachedTextDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{ }

const CachedTextDelegate::Shaped &CachedTextDelegate::shaped(const Key &key) const
{
    if (const auto kept = m_cache.constFind(key); kept != m_cache.cend())
        return *kept;
    if (m_cache.size() >= MostKept)
        m_cache.clear();
    // As Qt's style draws a line of a cell: the whole text when it fits, else elided to the room; laid out
    // left to right as the style lays it out (the view's direction, never guessed from the text); its height
    // the whole text's, as the style aligns it.
    const QFontMetricsF metrics(key.font);
    Shaped shaped;
    shaped.width = metrics.horizontalAdvance(key.text);
    const bool fits = shaped.width <= key.width;
    QTextOption leftToRight;
    leftToRight.setTextDirection(Qt::LeftToRight);
    const auto prepared = [&](const QString &text) {
        QStaticText line(text);
        line.setTextOption(leftToRight);
        line.setTextFormat(Qt::PlainText);
        line.prepare(QTransform(), key.font);
        return line;
    };
    shaped.text = prepared(fits ? key.text : metrics.elidedText(key.text, key.elide, key.width));
    shaped.height = int((fits ? shaped.text : prepared(key.text)).size().height());
    return *m_cache.insert(key, shaped);
}

void CachedTextDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    // Qt places a cell's text in the whole room beside its decoration only when the decoration is shown
    // selected (rows selected whole, as every view here); otherwise the rectangle follows the text's size.
    // Nor does it draw a cell whose layout Qt makes otherwise: right to left, wrapped, several lines,
    // trailing spaces (left out of Qt's measure), or the focus frame drawn over the text (a view that frames
    // cells, not rows).
    if (opt.text.isEmpty() || !opt.showDecorationSelected || opt.direction != Qt::LeftToRight
        || (opt.features & QStyleOptionViewItem::WrapText)
        || (opt.state & (QStyle::State_Editing | QStyle::State_HasFocus)) || opt.text.back().isSpace()
        || opt.text.contains(u'\n') || opt.text.contains(QChar::LineSeparator)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const QString text = std::exchange(opt.text, QString());
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect room
        = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    const Shaped &shaped = this->shaped({ text, opt.font, qMax(0, room.width()), opt.textElideMode });
    const Qt::Alignment across = QStyle::visualAlignment(opt.direction, opt.displayAlignment);
    const bool fits = shaped.width <= room.width();
    if (!fits && (across & (Qt::AlignRight | Qt::AlignHCenter | Qt::AlignJustify))) {
        // Qt places an elided line it does not align left by rules of its text engine's own: left to Qt.
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The background, selection, decoration and focus as Qt draws them, without the text.
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    if (room.width() <= 0)
        return;
    QPalette::ColorGroup group = (opt.state & QStyle::State_Enabled) ? QPalette::Normal : QPalette::Disabled;
    if (group == QPalette::Normal && !(opt.state & QStyle::State_Active))
        group = QPalette::Inactive;
    painter->save();
    painter->setClipRect(opt.rect);
    painter->setPen(opt.palette.color(
        group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    painter->setFont(opt.font);
    // The line spans the room and is aligned in it as QTextLayout aligns it, then the room aligned
    // vertically.
    const QRect line
        = QStyle::alignedRect(opt.direction, opt.displayAlignment, { room.width(), shaped.height }, room);
    qreal x = 0;
    if (fits && (across & Qt::AlignRight))
        x = room.width() - shaped.width;
    else if (fits && (across & Qt::AlignHCenter))
        x = (room.width() - shaped.width) / 2;
    painter->drawStaticText(QPointF(line.left() + x, line.top()), shaped.text);
    painter->restore();
}
