#include "views/nodespage.h"

#include "models/nodesmodel.h"

#include <QTreeView>

NodesPage::NodesPage(NodesModel *model, QWidget *parent)
    : KlusterTablePage(tr("Nodes"), model, NodesModel::filterFields(), parent)
{
    QTreeView *nodes = view();
    nodes->sortByColumn(NodesModel::NameColumn, Qt::AscendingOrder);
    nodes->setColumnWidth(NodesModel::NameColumn, 190);
    nodes->setColumnWidth(NodesModel::FindingsColumn, 190);
    nodes->setColumnWidth(NodesModel::StatusColumn, 90);
    nodes->setColumnWidth(NodesModel::RegisteredColumn, 80);
    nodes->setColumnWidth(NodesModel::ReadyColumn, 64);
    nodes->setColumnWidth(NodesModel::SecurityGroupColumn, 66);
    nodes->setColumnWidth(NodesModel::AddressColumn, 100);
    nodes->setColumnWidth(NodesModel::PodCidrColumn, 120);
    nodes->setColumnWidth(NodesModel::PoolColumn, 70);
}
