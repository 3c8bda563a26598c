#pragma once

#include <QIdentityProxyModel>

// Marks failing rows of a console table with an icon in the first column and
// a tinted background, never colour alone: rows with a severity (the source's
// `severityRole`, int(Severity), -1 for none) or a problem flag (`problemRole`,
// bool) get the severity's icon, and the accessible text names it.
class SeverityDecorator : public QIdentityProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SeverityDecorator)

public:
    SeverityDecorator(int severityRole, int problemRole, QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    static QIcon icon(int severity);        // 0 critical, 1 warning, 2 info; -1: none
    static QColor tint(int severity);       // a background that reads in light and dark palettes

private:
    int severityOf(const QModelIndex &index) const;

    int m_severityRole;
    int m_problemRole;
};
