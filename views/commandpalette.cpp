#include "views/commandpalette.h"

#include "models/klustersmodel.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

CommandPalette::CommandPalette(QList<Palette::Entry> entries, QWidget *parent)
    : QDialog(parent)
    , m_entries(std::move(entries))
    , m_query(new QLineEdit(this))
    , m_list(new QTreeWidget(this))
{
    setWindowTitle(tr("Go to — Flightdeck"));
    setObjectName(QStringLiteral("commandPalette"));
    m_query->setPlaceholderText(tr("A kluster, a view or an action: a few of its letters"));
    m_query->setAccessibleName(tr("Go to"));
    m_query->setClearButtonEnabled(true);
    m_list->setColumnCount(3);
    m_list->setHeaderLabels({ tr("Name"), tr("Is"), tr("") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAllColumnsShowFocus(true);
    m_list->setFocusPolicy(Qt::NoFocus); // the keyboard stays in the box; Up and Down move here
    m_list->setAccessibleName(tr("Matches"));
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(0, 280);
    m_list->setColumnWidth(1, 70);
    auto *hint = new QLabel(tr("↑ ↓ choose · Enter go · Esc close"), this);
    hint->setTextFormat(Qt::PlainText);
    hint->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_query);
    layout->addWidget(m_list, 1);
    layout->addWidget(hint);
    resize(560, 380);
    m_query->installEventFilter(this);
    connect(m_query, &QLineEdit::textChanged, this, &CommandPalette::update);
    connect(m_list, &QTreeWidget::itemActivated, this, &CommandPalette::choose);
    update();
    m_query->setFocus();
}

namespace {

void collect(const QList<QAction *> &actions, const QString &path, QList<Palette::Entry> &entries,
    QList<QPointer<QAction>> &found)
{
    for (QAction *a : actions) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        QString text = a->text();
        text.remove(QLatin1Char('&'));
        if (a->menu()) {
            collect(a->menu()->actions(), path.isEmpty() ? text : path + QStringLiteral(" › ") + text,
                entries, found);
            continue;
        }
        if (!a->isEnabled() || text.isEmpty() || text.contains(QLatin1String("Go to…")))
            continue;
        const QString shortcut = a->shortcut().toString(QKeySequence::NativeText);
        entries.append({ Palette::Kind::Action, text,
            shortcut.isEmpty() ? path : QStringLiteral("%1 · %2").arg(shortcut, path),
            QString::number(found.size()) });
        found << a;
    }
}

} // namespace

CommandPalette::CommandPalette(const QAbstractItemModel *klusters, const QMenuBar *menus, QWidget *parent)
    : CommandPalette(QList<Palette::Entry>(), parent)
{
    for (int row = 0; row < klusters->rowCount(); ++row) {
        const QModelIndex i = klusters->index(row, 0);
        const KlusterKey key = KlusterKey::fromString(i.data(KlustersModel::KeyRole).toString());
        if (key.kluster.isEmpty())
            continue; // a connection's own row
        m_entries.append({ Palette::Kind::Kluster, key.toString(),
            i.siblingAtColumn(KlustersModel::WorstColumn).data().toString(), key.toString() });
    }
    for (const TabInfo &t : Tabs::all())
        m_entries.append({ Palette::Kind::View, Tabs::title(t.tab),
            Tabs::shortcut(t.tab).toString(QKeySequence::NativeText), Tabs::name(t.tab) });
    collect(menus->actions(), QString(), m_entries, m_actions);
    connect(this, &CommandPalette::chosen, this, &CommandPalette::run);
    update();
}

void CommandPalette::run(const Palette::Entry &entry)
{
    switch (entry.kind) {
    case Palette::Kind::Kluster:
        emit klusterChosen(KlusterKey::fromString(entry.id));
        break;
    case Palette::Kind::View:
        if (const std::optional<Tab> tab = Tabs::fromName(entry.id))
            emit viewChosen(*tab);
        break;
    case Palette::Kind::Action:
        // Once the palette has gone: the action may open a dialog of its own.
        if (QAction *a = m_actions.value(entry.id.toInt()))
            QTimer::singleShot(0, a, &QAction::trigger);
        break;
    }
}

QList<Palette::Entry> CommandPalette::shown() const
{
    QList<Palette::Entry> result;
    for (const int i : m_shown)
        result << m_entries.at(i);
    return result;
}

void CommandPalette::update()
{
    m_shown = Palette::matches(m_entries, m_query->text());
    m_list->clear();
    QList<QTreeWidgetItem *> items;
    for (const int i : std::as_const(m_shown)) {
        const Palette::Entry &e = m_entries.at(i);
        auto *item = new QTreeWidgetItem({ e.text, Palette::kindName(e.kind), e.detail });
        item->setToolTip(0, e.text);
        items << item;
    }
    m_list->addTopLevelItems(items);
    if (!items.isEmpty())
        m_list->setCurrentItem(items.first());
    else
        m_list->addTopLevelItem(new QTreeWidgetItem({ tr("No match for \"%1\"").arg(m_query->text()) }));
}

void CommandPalette::choose()
{
    const int row = m_list->currentItem() ? m_list->indexOfTopLevelItem(m_list->currentItem()) : -1;
    if (row < 0 || row >= m_shown.size())
        return;
    const Palette::Entry entry = m_entries.at(m_shown.at(row));
    accept();
    emit chosen(entry);
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_query && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const int count = int(m_shown.size());
        const int row = m_list->currentItem() ? m_list->indexOfTopLevelItem(m_list->currentItem()) : -1;
        int to = -1;
        switch (key->key()) {
        case Qt::Key_Down:
            to = qMin(row + 1, count - 1);
            break;
        case Qt::Key_Up:
            to = qMax(row - 1, 0);
            break;
        case Qt::Key_PageDown:
            to = qMin(row + 10, count - 1);
            break;
        case Qt::Key_PageUp:
            to = qMax(row - 10, 0);
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            choose();
            return true;
        default:
            return QDialog::eventFilter(watched, event);
        }
        if (count > 0 && to >= 0)
            m_list->setCurrentItem(m_list->topLevelItem(to));
        return true;
    }
    return QDialog::eventFilter(watched, event);
}
