#include "views/autorefreshmenu.h"

#include <QActionGroup>
#include <QMenu>
#include <QToolButton>

AutoRefreshMenu::AutoRefreshMenu(QWidget *parent)
    : QObject(parent)
    , m_menu(new QMenu(tr("A&uto-refresh"), parent))
    , m_button(new QToolButton(parent))
    , m_group(new QActionGroup(this))
{
    for (int m : { 0, 1, 2, 5, 10, 15, 30 }) {
        QAction *a = m_menu->addAction(m == 0 ? tr("Off") : tr("Every %1 min").arg(m));
        a->setCheckable(true);
        a->setData(m);
        m_group->addAction(a);
    }
    connect(m_group, &QActionGroup::triggered, this, [this](QAction *a) { emit chosen(a->data().toInt()); });
    m_button->setMenu(m_menu);
    m_button->setPopupMode(QToolButton::InstantPopup);
    m_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_button->setAccessibleName(tr("Auto-refresh interval"));
    m_button->setObjectName(QStringLiteral("autoRefresh"));
}

void AutoRefreshMenu::setMinutes(int minutes)
{
    for (QAction *a : m_group->actions())
        a->setChecked(a->data().toInt() == minutes);
    // (The trailing spaces keep the menu's arrow clear of the text.)
    m_button->setText(
        minutes > 0 ? tr("Auto-refresh: every %1 min   ").arg(minutes) : tr("Auto-refresh: off   "));
    m_button->setAccessibleDescription(m_button->text().trimmed());
}

void AutoRefreshMenu::setLive(bool live)
{
    m_button->setEnabled(live);
    m_menu->setEnabled(live);
}
