#include "severitydecorator.h"

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QStyle>

SeverityDecorator::SeverityDecorator(int severityRole, int problemRole, QObject *parent)
    : QIdentityProxyModel(parent)
    , m_severityRole(severityRole)
    , m_problemRole(problemRole)
{
}

int SeverityDecorator::severityOf(const QModelIndex &index) const
{
    const QModelIndex source = mapToSource(index);
    if (m_severityRole >= 0) {
        const QVariant v = source.siblingAtColumn(0).data(m_severityRole);
        if (v.isValid())
            return v.toInt();
    }
    if (m_problemRole >= 0 && source.siblingAtColumn(0).data(m_problemRole).toBool())
        return 0;
    return -1;
}

QIcon SeverityDecorator::icon(int severity)
{
    QStyle *style = QApplication::style();
    switch (severity) {
    case 0: return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case 1: return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case 2: return style->standardIcon(QStyle::SP_MessageBoxInformation);
    default: return QIcon();
    }
}

QColor SeverityDecorator::tint(int severity)
{
    switch (severity) {
    case 0: return QColor(220, 50, 47, 70);
    case 1: return QColor(230, 160, 0, 70);
    default: return QColor();
    }
}

QVariant SeverityDecorator::data(const QModelIndex &index, int role) const
{
    if (role == Qt::DecorationRole && index.column() == 0) {
        const int s = severityOf(index);
        if (s >= 0)
            return icon(s);
    } else if (role == Qt::BackgroundRole) {
        const QColor c = tint(severityOf(index));
        if (c.isValid())
            return c;
    } else if (role == Qt::AccessibleDescriptionRole) {
        const int s = severityOf(index);
        if (s == 0)
            return tr("critical");
        if (s == 1)
            return tr("warning");
    }
    return QIdentityProxyModel::data(index, role);
}
