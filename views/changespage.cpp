#include "views/changespage.h"

#include "services/historyrecorder.h"
#include "views/severitystyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace {

QString momentText(const HistoryMoment &m)
{
    const QString when = QLocale().toString(m.at.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    const QString incomplete = m.complete ? QString() : ChangesPage::tr(" (incomplete)");
    if (m.healthy())
        return ChangesPage::tr("%1 · healthy").arg(when);
    return ChangesPage::tr("%1 · %2 critical, %3 warning%4")
        .arg(when)
        .arg(m.critical)
        .arg(m.warning)
        .arg(incomplete);
}

} // namespace

ChangesPage::ChangesPage(QWidget *parent)
    : QWidget(parent)
    , m_caption(new QLabel(this))
    , m_before(new QComboBox(this))
    , m_after(new QComboBox(this))
    , m_default(new QPushButton(tr("&Last healthy → newest"), this))
    , m_list(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("changes"));
    auto *bar = new QHBoxLayout;
    auto *from = new QLabel(tr("Co&mpare"), this);
    from->setTextFormat(Qt::PlainText);
    from->setBuddy(m_before);
    auto *with = new QLabel(tr("w&ith"), this);
    with->setTextFormat(Qt::PlainText);
    with->setBuddy(m_after);
    m_before->setAccessibleName(tr("Earlier moment"));
    m_after->setAccessibleName(tr("Later moment"));
    m_default->setToolTip(tr("The last moment without a critical or warning finding (or the one before the "
                             "newest) against the newest"));
    bar->addWidget(from);
    bar->addWidget(m_before, 1);
    bar->addWidget(with);
    bar->addWidget(m_after, 1);
    bar->addWidget(m_default);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText); // it may say why the history could not be read
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list->setObjectName(QStringLiteral("changesList"));
    m_list->setAccessibleName(tr("Changes"));
    m_list->setHeaderLabels({ tr("Change"), tr("What"), tr("Subject"), tr("Detail") });
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->setUniformRowHeights(true);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_caption);
    layout->addWidget(m_list, 1);
    connect(m_before, &QComboBox::currentIndexChanged, this, &ChangesPage::requestFromCombos);
    connect(m_after, &QComboBox::currentIndexChanged, this, &ChangesPage::requestFromCombos);
    connect(m_default, &QPushButton::clicked, this, [this] { emit compareRequested(0, 0); });
    clear(tr("Select a kluster in the sidebar."));
}

QString ChangesPage::caption() const
{
    return m_caption->text();
}

void ChangesPage::requestFromCombos()
{
    if (m_filling)
        return;
    emit compareRequested(m_before->currentData().toLongLong(), m_after->currentData().toLongLong());
}

void ChangesPage::clear(const QString &message)
{
    m_filling = true;
    m_before->clear();
    m_after->clear();
    m_filling = false;
    m_before->setEnabled(false);
    m_after->setEnabled(false);
    m_default->setEnabled(false);
    m_list->clear();
    m_caption->setText(message);
}

void ChangesPage::showChanges(const HistoryChanges &c, int shownCritical, int shownWarning)
{
    m_filling = true;
    m_before->clear();
    m_after->clear();
    for (const HistoryMoment &m : c.moments) {
        m_before->addItem(momentText(m), m.id);
        m_after->addItem(momentText(m), m.id);
    }
    m_before->setCurrentIndex(m_before->findData(c.before));
    m_after->setCurrentIndex(m_after->findData(c.after));
    m_filling = false;
    const bool comparable = c.moments.size() >= 2;
    m_before->setEnabled(comparable);
    m_after->setEnabled(comparable);
    m_default->setEnabled(comparable);
    m_list->clear();
    if (!c.error.isEmpty() || !c.beforeDigest || !c.afterDigest) {
        m_caption->setText(c.error);
        return;
    }
    const QPalette pal = palette();
    const QColor bad = SeverityStyle::alarmText(pal);
    const QColor good = SeverityStyle::colour(std::nullopt).darker(140);
    QList<QTreeWidgetItem *> items;
    for (const StateChange &change : c.changes) {
        const QString kind = QStringLiteral("%1 %2").arg(
            StateChanges::mark(change.change, StateChanges::MarkStyle::Typographic),
            StateChanges::name(change.change));
        auto *item = new QTreeWidgetItem(
            { kind, StateChanges::name(change.category), change.subject, change.detail });
        if (change.category == ChangeCategory::Finding) {
            using D = StateChanges::Direction;
            const D direction = StateChanges::direction(change.change);
            const QColor colour = direction == D::Came ? bad
                : direction == D::Went                 ? good
                                                       : pal.text().color();
            for (int column = 0; column < 4; ++column)
                item->setForeground(column, colour);
        }
        item->setToolTip(2, change.subject);
        items << item;
    }
    m_list->addTopLevelItems(items);
    // The moments' instants, on this machine's clock as the lists above show them (a digest's capturedAt is
    // the cloud's, which may be hours off).
    const auto momentOf = [&c](qint64 id) {
        const auto it = std::find_if(
            c.moments.cbegin(), c.moments.cend(), [id](const HistoryMoment &m) { return m.id == id; });
        return it == c.moments.cend() ? std::optional<HistoryMoment>() : std::optional(*it);
    };
    const std::optional<HistoryMoment> before = momentOf(c.before);
    const std::optional<HistoryMoment> after = momentOf(c.after);
    const auto when = [](const std::optional<HistoryMoment> &m, const QDateTime &cloud) {
        return QLocale().toString((m ? m->at : cloud).toLocalTime(), QLocale::ShortFormat);
    };
    const QString from = when(before, c.beforeDigest->capturedAt);
    const QString to = when(after, c.afterDigest->capturedAt);
    QString text = c.changes.isEmpty()
        ? tr("No change between %1 and %2.").arg(from, to)
        : tr("%n change(s) between %1 and %2.", nullptr, int(c.changes.size())).arg(from, to);
    if (!c.notCompared.isEmpty()) {
        QStringList categories;
        for (ChangeCategory category : c.notCompared)
            categories << StateChanges::name(category);
        text += tr(" Not compared (a source could not be read at one of the moments): %1.")
                    .arg(categories.join(QStringLiteral(", ")));
    }
    // The newest moment is the last refresh recorded; the nodes' watch may have changed the findings since.
    if (after && !c.moments.isEmpty() && after->id == c.moments.first().id && shownCritical >= 0
        && (after->critical != shownCritical || after->warning != shownWarning))
        text += tr(" Newer than %1: the nodes' watch has changed findings since, and the Findings view shows "
                   "%2 critical, %3 warning now (the next refresh records it).")
                    .arg(to)
                    .arg(shownCritical)
                    .arg(shownWarning);
    m_caption->setText(text);
}
