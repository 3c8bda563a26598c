#include "views/plaintooltips.h"

#include "core/printable.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QToolTip>

PlainToolTips::PlainToolTips(QAbstractItemView *view)
    : QObject(view)
    , m_view(view)
{ }

void PlainToolTips::install(QAbstractItemView *view)
{
    view->viewport()->installEventFilter(new PlainToolTips(view));
}

bool PlainToolTips::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ToolTip || watched != m_view->viewport())
        return QObject::eventFilter(watched, event);
    const auto *help = static_cast<QHelpEvent *>(event);
    const QModelIndex index = m_view->indexAt(help->pos());
    const QString text = index.isValid() ? index.data(Qt::ToolTipRole).toString() : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(
            help->globalPos(), OutsideText::toolTip(text), m_view->viewport(), m_view->visualRect(index));
    return true;
}
