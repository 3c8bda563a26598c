#pragma once

#include "console/palette.h"
#include "core/klusterkey.h"
#include "views/tabs.h"

#include <QDialog>
#include <QPointer>

class QAbstractItemModel;
class QAction;
class QLineEdit;
class QMenuBar;
class QTreeWidget;

// The ":" command palette: type a few letters of a kluster, a view or an action, Up and Down to choose,
// Enter to go (Escape to leave). The matching is Palette's; what an entry does is the window's (chosen()).
class CommandPalette : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandPalette)

public:
    CommandPalette(QList<Palette::Entry> entries, QWidget *parent = nullptr);
    // Every kluster of `klusters` (the KlustersModel), every view, and every action of `menus` that can run
    // now: a kluster or a view chosen is said (klusterChosen, viewChosen), an action is triggered once the
    // palette has closed.
    CommandPalette(const QAbstractItemModel *klusters, const QMenuBar *menus, QWidget *parent = nullptr);

    QLineEdit *queryBox() const { return m_query; }
    QTreeWidget *list() const { return m_list; }
    // The entries shown, best first.
    QList<Palette::Entry> shown() const;

signals:
    void chosen(const Palette::Entry &entry);
    void klusterChosen(const KlusterKey &key);
    void viewChosen(Tab tab);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void update();
    void choose();

    void run(const Palette::Entry &entry);

    QList<Palette::Entry> m_entries;
    QList<QPointer<QAction>> m_actions; // an action entry's id is its index here
    QList<int> m_shown;
    QLineEdit *m_query;
    QTreeWidget *m_list;
};
