#include "views/severitydecorator.h"

#include "models/consolerole.h"
#include "views/severitystyle.h"

#include <QApplication>
#include <QFont>
#include <QPalette>

SeverityDecorator::SeverityDecorator(QObject *parent)
    : QIdentityProxyModel(parent)
{ }

bool SeverityDecorator::quiet(const QModelIndex &index) const
{
    return m_quietRole >= 0 && mapToSource(index).siblingAtColumn(0).data(m_quietRole).toBool();
}

QVariant SeverityDecorator::data(const QModelIndex &index, int role) const
{
    switch (role) {
    case Qt::DecorationRole:
        if (index.column() == 0) {
            if (const std::optional<Severity> s = ConsoleRole::severityOf(mapToSource(index)))
                return SeverityStyle::icon(s);
        }
        break;
    case Qt::BackgroundRole: {
        if (quiet(index))
            break;
        const QColor c = SeverityStyle::tint(ConsoleRole::severityOf(mapToSource(index)));
        if (c.isValid())
            return c;
        break;
    }
    case Qt::ForegroundRole:
        if (m_alarmRole >= 0 && mapToSource(index).siblingAtColumn(0).data(m_alarmRole).toBool())
            return SeverityStyle::alarmText(QApplication::palette());
        break;
    case Qt::FontRole:
        if (quiet(index)) {
            QFont italic = QApplication::font();
            italic.setItalic(true);
            return italic;
        }
        if ((m_boldHeadings && !index.parent().isValid())
            || (m_boldRole >= 0 && mapToSource(index).siblingAtColumn(0).data(m_boldRole).toBool())) {
            QFont bold = QApplication::font();
            bold.setBold(true);
            return bold;
        }
        break;
    case Qt::ToolTipRole: {
        // A cell without a tooltip of its own shows its whole text in one: what elision cut is never lost.
        // Plain text: the views show it as such (PlainToolTips).
        QVariant own = QIdentityProxyModel::data(index, role);
        if (own.isValid())
            return own;
        const QString text = QIdentityProxyModel::data(index, Qt::DisplayRole).toString();
        return text.size() > 12 ? QVariant(text) : QVariant();
    }
    case Qt::AccessibleTextRole: {
        const QVariant own = QIdentityProxyModel::data(index, role);
        return own.isValid() ? own : QIdentityProxyModel::data(index, Qt::DisplayRole); // whole, never elided
    }
    case Qt::AccessibleDescriptionRole: {
        const std::optional<Severity> s = ConsoleRole::severityOf(mapToSource(index));
        if (s == Severity::Critical || s == Severity::Warning)
            return quiet(index) ? tr("%1, acknowledged").arg(SeverityStyle::word(s)) : SeverityStyle::word(s);
        break;
    }
    default:
        break;
    }
    return QIdentityProxyModel::data(index, role);
}
