#include "views/securitypage.h"

#include "models/securitymodel.h"

#include <QTreeView>

SecurityPage::SecurityPage(SecurityModel *model, QWidget *parent)
    : KlusterTablePage(tr("Security group"), model, SecurityModel::filterFields(), parent)
{
    QTreeView *security = view();
    security->setColumnWidth(SecurityModel::WhatColumn, 90);
    security->setColumnWidth(SecurityModel::SubjectColumn, 220);
    security->setColumnWidth(SecurityModel::StatusColumn, 120);
}
