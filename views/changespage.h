#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;
struct HistoryChanges;

// What changed in the kluster shown between two moments the history kept
// (by default the last healthy one, or the one before, and the newest):
// instances, nodes, routes, rules and memberships, and findings opened and
// resolved. The moments are the states that differed from the one before.
class ChangesPage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangesPage)

public:
    explicit ChangesPage(QWidget *parent = nullptr);

    // `shownCritical`/`shownWarning`: what the Findings view shows now (the nodes' watch updates it between
    // the refreshes the history records): said when the newest moment compared counts otherwise.
    void showChanges(const HistoryChanges &changes, int shownCritical = -1, int shownWarning = -1);
    void clear(const QString &message);
    QTreeWidget *list() const { return m_list; }
    QString caption() const;

signals:
    // The moments to compare (ids of the history's states; 0: the default).
    void compareRequested(qint64 before, qint64 after);

private:
    void requestFromCombos();

    QLabel *m_caption;
    QComboBox *m_before;
    QComboBox *m_after;
    QPushButton *m_default;
    QTreeWidget *m_list;
    bool m_filling = false;
};
