#include "views/severitydecorator.h"

#include "models/consolerole.h"
#include "views/severitystyle.h"

#include <QApplication>
#include <QPalette>

SeverityDecorator::SeverityDecorator(QObject *parent)
    : QIdentityProxyModel(parent)
{
}

int SeverityDecorator::severityOf(const QModelIndex &index) const
{
    const QVariant v = mapToSource(index).siblingAtColumn(0).data(ConsoleRole::Severity);
    return v.isValid() ? v.toInt() : -1;
}

QVariant SeverityDecorator::data(const QModelIndex &index, int role) const
{
    switch (role) {
    case Qt::DecorationRole:
        if (index.column() == 0) {
            const int s = severityOf(index);
            if (s >= 0)
                return SeverityStyle::icon(s);
        }
        break;
    case Qt::BackgroundRole: {
        const QColor c = SeverityStyle::tint(severityOf(index));
        if (c.isValid())
            return c;
        break;
    }
    case Qt::ForegroundRole:
        if (m_alarmRole >= 0 && mapToSource(index).siblingAtColumn(0).data(m_alarmRole).toBool())
            return SeverityStyle::alarmText(QApplication::palette());
        break;
    case Qt::AccessibleDescriptionRole: {
        const int s = severityOf(index);
        if (s == 0 || s == 1)
            return SeverityStyle::word(s);
        break;
    }
    default:
        break;
    }
    return QIdentityProxyModel::data(index, role);
}
