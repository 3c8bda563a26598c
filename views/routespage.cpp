#include "views/routespage.h"

#include "core/printable.h"
#include "core/routeaudit.h"
#include "models/filtermodel.h"
#include "models/routesmodel.h"
#include "services/settings.h"

#include <QComboBox>
#include <QHeaderView>
#include <QTreeView>
#include <algorithm>
#include <climits>

RoutesPage::RoutesPage(RoutesModel *model, QWidget *parent)
    : KlusterTablePage(tr("Routes"), model, RoutesModel::filterFields(), parent)
    , m_scope(new QComboBox(this))
{
    m_scope->addItem(tr("This kluster's routes"), KlusterRoutes);
    m_scope->addItem(tr("Problems only"), ProblemRoutes);
    m_scope->addItem(tr("All routes on the router"), AllRoutes);
    m_scope->setAccessibleName(tr("Which routes to show"));
    m_scope->setToolTip(
        tr("This kluster's routes (and those it lacks), only the ones with a problem, or every route "
           "on the shared router (other klusters' and operators' too)"));
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this] {
        const int scope = m_scope->currentData().toInt();
        filter()->setPredicate([scope](const QModelIndex &row) {
            if (scope == AllRoutes)
                return true;
            if (scope == ProblemRoutes)
                return row.data(RoutesModel::ProblemRole).toBool();
            return !row.data(RoutesModel::ForeignRole).toBool();
        });
        Settings::routeScope().setValue(scope);
    });
    addToolWidget(m_scope);
    QTreeView *routes = view();
    routes->setRootIsDecorated(true);
    routes->setItemsExpandable(true);
    filter()->setGrouped(RoutesModel::PositionColumn);
    routes->sortByColumn(RoutesModel::DestinationColumn, Qt::AscendingOrder);
    routes->setColumnWidth(RoutesModel::DestinationColumn, 165);
    routes->setColumnWidth(RoutesModel::NexthopColumn, 110);
    routes->setColumnWidth(RoutesModel::OwnerColumn, 200);
    routes->setColumnWidth(RoutesModel::RolesColumn, 210);
    routes->setColumnWidth(RoutesModel::PositionColumn, 95);
    // The device columns (Neutron's intent beside what the ASR pair holds) where the driver's view was read.
    const auto showDevices = [routes, model] {
        const QStringList headers = model->deviceHeaders();
        for (int c = RoutesModel::FirstDeviceColumn; c <= RoutesModel::SecondDeviceColumn; ++c) {
            const bool hidden = headers.value(c - RoutesModel::FirstDeviceColumn).isEmpty();
            if (routes->isColumnHidden(c) && !hidden)
                routes->setColumnWidth(c, 140); // as it appears; a width the person chose stays
            routes->setColumnHidden(c, hidden);
        }
    };
    connect(model, &QAbstractItemModel::headerDataChanged, routes, showDevices);
    showDevices();
    // Neutron's order and the devices' side by side, right of the route: the three columns compared at a
    // glance, also on a narrow screen; whose the nexthop is and the role follow.
    QHeaderView *header = routes->header();
    int at = header->visualIndex(RoutesModel::NexthopColumn);
    for (const int c : { int(RoutesModel::PositionColumn), int(RoutesModel::FirstDeviceColumn),
             int(RoutesModel::SecondDeviceColumn) })
        header->moveSection(header->visualIndex(c), ++at);
    // Groups open as they appear: a duplicate's routes are the point. Only groups are expanded (an expanded
    // row is a persistent index the proxy keeps up to date: thousands of them would cost every update).
    const auto expandGroups = [routes](const QModelIndex &parent, int first, int last) {
        QAbstractItemModel *m = routes->model();
        if (parent.isValid()) {
            routes->expand(parent); // a destination that became a group
            return;
        }
        for (int row = first; row <= last; ++row) {
            const QModelIndex i = m->index(row, 0);
            if (m->hasChildren(i))
                routes->expand(i);
        }
    };
    connect(filter(), &QAbstractItemModel::rowsInserted, routes, expandGroups);
    connect(filter(), &QAbstractItemModel::modelReset, routes,
        [routes, expandGroups] { expandGroups(QModelIndex(), 0, routes->model()->rowCount() - 1); });
    m_scope->setCurrentIndex(qMax(0, m_scope->findData(Settings::routeScope().value())));
    emit m_scope->currentIndexChanged(m_scope->currentIndex());
}

QString RoutesPage::rowHtml(const QModelIndex &row) const
{
    if (!row.data(RoutesModel::GroupRole).toBool())
        return KlusterTablePage::rowHtml(row);
    // A destination with several routes: the router's order, the one that wins first.
    QString html
        = tr("<h3>%1: %2</h3>")
              .arg(OutsideText::html(row.data(ConsoleRole::Key).toString()),
                  OutsideText::html(row.siblingAtColumn(RoutesModel::OwnerColumn).data().toString()));
    html += tr(
        "<p>The router's routes for this destination, in the order it uses them: the first one carries the "
        "traffic.</p><ol>");
    const QAbstractItemModel *m = row.model();
    QList<QModelIndex> children;
    for (int i = 0; i < m->rowCount(row); ++i)
        children << m->index(i, 0, row);
    const auto order = [](const QModelIndex &i) {
        const int p = i.data(RoutesModel::PositionRole).toInt();
        return p < 0 ? INT_MAX : p; // the missing ones after those on the router
    };
    std::stable_sort(children.begin(), children.end(),
        [&](const QModelIndex &a, const QModelIndex &b) { return order(a) < order(b); });
    QStringList deviceOrders;
    for (int d = RoutesModel::FirstDeviceColumn; d <= RoutesModel::SecondDeviceColumn; ++d) {
        const QString header = m->headerData(d, Qt::Horizontal).toString();
        const QString first = row.siblingAtColumn(d).data().toString();
        if (!header.isEmpty())
            deviceOrders << tr("<li>%1: %2</li>")
                                .arg(header.toHtmlEscaped(),
                                    first.isEmpty() ? tr("holds none of them") : first.toHtmlEscaped());
    }
    for (const QModelIndex &c : std::as_const(children)) {
        const int roles = c.data(RoutesModel::RolesRole).toInt();
        const bool wins = roles & RouteAudit::Effective;
        html += QStringLiteral("<li>%1via <b>%2</b> — %3; nexthop: %4%5</li>")
                    .arg(c.data(RoutesModel::PositionRole).toInt() < 0 ? tr("(not on the router: needed) ")
                                                                       : QString(),
                        c.siblingAtColumn(RoutesModel::NexthopColumn).data().toString().toHtmlEscaped(),
                        c.siblingAtColumn(RoutesModel::RolesColumn).data().toString().toHtmlEscaped(),
                        OutsideText::html(c.siblingAtColumn(RoutesModel::OwnerColumn).data().toString()),
                        wins ? tr(" <b>← carries the traffic</b>") : QString());
    }
    html += QStringLiteral("</ol>");
    if (!deviceOrders.isEmpty())
        html += tr("<p>On the router's devices (their first route for the destination carries its traffic "
                   "there, whatever Neutron says):</p><ul>%1</ul>")
                    .arg(deviceOrders.join(QString()));
    return html;
}
