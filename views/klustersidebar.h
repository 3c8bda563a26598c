#pragma once

#include "core/klusterkey.h"

#include <QModelIndex>
#include <QSet>
#include <QWidget>

class KlustersModel;
class QLabel;
class QLineEdit;
class QTreeView;

// The kluster list beside the views: the klusters under their connection and region, worst first at both
// levels, with its own filter (the tables' syntax). Keyboard: typing in the list starts a filter, Down in the
// filter goes to the list, Escape clears the filter, Enter on a group opens or closes it, Enter on a kluster
// goes into its views (enterRequested). Groups stay as the engineer opened or closed them.
class KlusterSidebar : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterSidebar)

public:
    explicit KlusterSidebar(KlustersModel *klusters, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QLineEdit *filterBox() const { return m_filter; }
    QLabel *noMatch() const { return m_noMatch; } // "No kluster matches …", shown only then
    // Selects the kluster (its group opened); false when the list does not show it.
    bool select(const KlusterKey &key);
    // The same, for a kluster asked for from elsewhere (a notification, the fleet): the filter is cleared
    // when it hides it. False when the list has no such kluster.
    bool reveal(const KlusterKey &key);
    // The first kluster in the list's order (the worst of all, sorted worst first); invalid when none.
    QModelIndex firstKluster() const;
    // The keyboard to the list (its first kluster made current when none is).
    void focusList(Qt::FocusReason reason);
    static KlusterKey keyAt(const QModelIndex &row); // a connection's own row: its kluster is empty

signals:
    void currentChanged(const KlusterKey &key);
    void enterRequested(); // Enter on a kluster: into its views
    void filterChanged(); // the filter's text changed

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void expandGroups(int first, int last);

    QLineEdit *m_filter;
    QLabel *m_noMatch;
    QTreeView *m_view;
    QSet<QString> m_collapsed; // the groups (connections) the engineer closed
};
