#include "views/fleetpage.h"

#include "models/filtermodel.h"
#include "models/fleettiles.h"
#include "models/klustersmodel.h"
#include "services/settings.h"
#include "views/fleetview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace {

QLabel *plainLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

FleetPage::FleetPage(QAbstractItemModel *klusters, QWidget *parent)
    : QWidget(parent)
    , m_klusters(klusters)
    , m_filter(new FilterModel(this))
    , m_view(new FleetView(this))
    , m_scroll(new QScrollArea(this))
    , m_filterBox(new QLineEdit(this))
    , m_grouping(new QComboBox(this))
    , m_layout(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_currentLine(new QLabel(this))
{
    m_filter->setKnownFields(KlustersModel::filterFields());
    m_filter->setSourceModel(klusters);
    m_view->setModel(m_filter);

    m_filterBox->setObjectName(QStringLiteral("fleet-filter"));
    m_filterBox->setPlaceholderText(tr("Filter: words, severity:…, state:…, region:…, -word (/)"));
    m_filterBox->setToolTip(tr("Words match kluster, connection and region names; fields: %1 "
                               "(severity:critical, state:stale); -word excludes. Enter opens the first "
                               "kluster that matches, Down moves to the tiles.")
                                .arg(KlustersModel::filterFields().join(QStringLiteral(", "))));
    m_filterBox->setAccessibleName(tr("Filter the fleet"));
    m_filterBox->setClearButtonEnabled(true);
    m_filterBox->installEventFilter(this);
    connect(m_filterBox, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_filter->setText(text);
        m_view->setPlaceholder(text.trimmed().isEmpty() ? QString() : tr("No kluster matches the filter."));
        showSummary();
    });

    for (const FleetGroupings::Info &g : FleetGroupings::all())
        m_grouping->addItem(FleetGroupings::title(g.grouping), QVariant::fromValue(int(g.grouping)));
    m_grouping->setAccessibleName(tr("Group the fleet by"));
    m_grouping->setToolTip(tr("Group the klusters by connection and region, by state, or not at all; "
                              "worst first within each group"));
    const FleetGrouping grouping = FleetGroupings::fromName(Settings::fleetGrouping().value())
                                       .value_or(FleetGrouping::ConnectionRegion);
    m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
    m_view->setGrouping(grouping);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] {
        const auto g = FleetGrouping(m_grouping->currentData().toInt());
        Settings::fleetGrouping().setValue(FleetGroupings::name(g));
        m_view->setGrouping(g);
    });

    m_layout->addItem(tr("Automatic"), QVariant::fromValue(int(FleetLayout::Auto)));
    m_layout->addItem(tr("Tiles"), QVariant::fromValue(int(FleetLayout::Tiles)));
    m_layout->addItem(tr("Heat map"), QVariant::fromValue(int(FleetLayout::HeatMap)));
    m_layout->setAccessibleName(tr("Show the fleet as"));
    m_layout->setToolTip(tr("Tiles that say what is wrong, or a heat map of small cells: a thousand klusters "
                            "on one screen (automatic: a heat map beyond %1 klusters)")
                             .arg(FleetLayouts::AutoHeatMapAbove));
    const FleetLayout layout
        = FleetLayouts::fromName(Settings::fleetLayout().value()).value_or(FleetLayout::Auto);
    m_layout->setCurrentIndex(m_layout->findData(int(layout)));
    connect(m_layout, &QComboBox::currentIndexChanged, this, [this] {
        Settings::fleetLayout().setValue(FleetLayouts::name(FleetLayout(m_layout->currentData().toInt())));
        applyLayout();
    });

    m_summary->setObjectName(QStringLiteral("fleet-summary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_currentLine->setObjectName(QStringLiteral("fleet-current"));
    m_currentLine->setTextFormat(Qt::PlainText);
    m_currentLine->setMinimumWidth(100);

    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setFocusPolicy(Qt::NoFocus); // the tiles take the keyboard, not an invisible stop around them

    auto *tools = new QHBoxLayout;
    tools->setContentsMargins(6, 4, 6, 0);
    tools->addWidget(m_filterBox, 1);
    tools->addWidget(plainLabel(tr("Group by"), this));
    tools->addWidget(m_grouping);
    tools->addWidget(plainLabel(tr("Show"), this));
    tools->addWidget(m_layout);
    auto *layoutBox = new QVBoxLayout(this);
    layoutBox->setContentsMargins(0, 0, 0, 0);
    layoutBox->setSpacing(4);
    layoutBox->addLayout(tools);
    m_summary->setContentsMargins(8, 0, 8, 0);
    m_currentLine->setContentsMargins(8, 0, 8, 0);
    layoutBox->addWidget(m_summary);
    layoutBox->addWidget(m_currentLine);
    layoutBox->addWidget(m_scroll, 1);

    setFocusProxy(m_view); // the page focused: the tiles
    connect(m_view, &FleetView::klusterActivated, this, &FleetPage::klusterActivated);
    connect(m_view, &FleetView::tilesChanged, this, [this] {
        applyLayout();
        showSummary();
    });
    connect(m_view, &FleetView::currentChanged, this, &FleetPage::showCurrent);
    applyLayout();
    showSummary();
    showCurrent();
}

void FleetPage::focusFilter()
{
    m_filterBox->setFocus(Qt::ShortcutFocusReason);
    m_filterBox->selectAll();
}

void FleetPage::applyLayout()
{
    const auto layout = FleetLayout(m_layout->currentData().toInt());
    // Automatic follows the whole fleet, not what the filter leaves: a filter never switches the layout.
    m_view->setCompact(FleetLayouts::heatMap(layout, m_klusters->rowCount()));
}

void FleetPage::showSummary()
{
    const FleetSummary s = m_view->summary();
    QString text = s.text();
    if (!m_filter->query().isEmpty()) {
        text = tr("%1 match the filter, of %2").arg(text).arg(m_klusters->rowCount());
        if (!m_filter->query().error().isEmpty())
            text = m_filter->query().error();
    }
    m_summary->setText(text);
}

void FleetPage::showCurrent()
{
    const FleetTile *t = m_view->tile(m_view->currentTile());
    if (!t) {
        m_currentLine->setText(m_view->tileCount() > 0
                ? tr("Arrow keys move between klusters; Enter opens one. Worst first.")
                : QString());
        return;
    }
    QStringList parts { t->key.kluster.isEmpty() ? t->title : tr("%1 (%2)").arg(t->title, t->key.connection),
        t->counts };
    if (!t->age.isEmpty())
        parts << t->age;
    if (!t->error.isEmpty())
        parts << t->error;
    m_currentLine->setText(
        m_currentLine->fontMetrics().elidedText(parts.join(QStringLiteral(" — ")) + tr(" — Enter opens it"),
            Qt::ElideMiddle, qMax(100, m_currentLine->width() - 16)));
    m_currentLine->setToolTip(parts.join(QLatin1Char('\n')));
}

bool FleetPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filterBox && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const bool down = key->key() == Qt::Key_Down && key->modifiers() == Qt::NoModifier;
        const bool open = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (down || open)
            m_view->settle(); // what was just typed, filtered (typing itself waits for the burst to end)
        if (down && m_view->tileCount() > 0) {
            m_view->setFocus(Qt::ShortcutFocusReason);
            m_view->setCurrentTile(qMax(0, m_view->currentTile()));
            return true;
        }
        if (open && m_view->tileCount() > 0) {
            m_view->setCurrentTile(0);
            emit klusterActivated(m_view->tileKey(0));
            return true;
        }
        if (key->key() == Qt::Key_Escape && !m_filterBox->text().isEmpty()) {
            m_filterBox->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}
