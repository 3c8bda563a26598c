#pragma once

#include <QObject>

class QActionGroup;
class QMenu;
class QToolButton;
class QWidget;

// Auto-refresh: a menu of intervals (off, 1 to 30 minutes), in the Kluster menu and behind a toolbar button
// that says the interval chosen.
class AutoRefreshMenu : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AutoRefreshMenu)

public:
    explicit AutoRefreshMenu(QWidget *parent);

    QMenu *menu() const { return m_menu; }
    QToolButton *button() const { return m_button; }
    void setMinutes(int minutes); // what is shown as chosen (0: off)
    void setLive(bool live); // snapshots have nothing to refresh: disabled

signals:
    void chosen(int minutes);

private:
    QMenu *m_menu;
    QToolButton *m_button;
    QActionGroup *m_group;
};
