#pragma once

#include <QIdentityProxyModel>

// Marks failing rows of a console table with an icon in the first column and
// a tinted background, never colour alone: rows with a severity
// (ConsoleRole::Severity) get the severity's icon and tint, and the
// accessible text names it. Rows whose `alarmRole` is true
// (data that is itself in doubt: incomplete, stale, unreachable) get their
// text in the alarm colour. A cell's whole text is its tooltip (unless it has
// its own) and its accessible text, whatever the view elides.
class SeverityDecorator : public QIdentityProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SeverityDecorator)

public:
    explicit SeverityDecorator(QObject *parent = nullptr);

    void setAlarmRole(int role) { m_alarmRole = role; }
    // Rows whose `quietRole` is true (someone is handling them) keep their icon but lose the tint, in
    // italics: still there, no longer shouting.
    void setQuietRole(int role) { m_quietRole = role; }
    // Top-level rows are headings (the groups of a grouped list): in bold.
    void setBoldHeadings(bool bold) { m_boldHeadings = bold; }
    // Rows whose `boldRole` is true (an incident over its findings) in bold.
    void setBoldRole(int role) { m_boldRole = role; }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    bool quiet(const QModelIndex &index) const;
    int m_alarmRole = -1;
    int m_quietRole = -1;
    bool m_boldHeadings = false;
    int m_boldRole = -1;
};
