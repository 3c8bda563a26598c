#pragma once

#include "views/klustertablepage.h"

class QComboBox;
class RoutesModel;

// Routes: the router's routes grouped by destination (the first of a destination wins), with a scope from
// this kluster's own routes (and those it lacks) to every route on the shared router.
class RoutesPage : public KlusterTablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RoutesPage)

public:
    explicit RoutesPage(RoutesModel *model, QWidget *parent = nullptr);

    QComboBox *scopeChoice() const { return m_scope; }

protected:
    QString rowHtml(const QModelIndex &row) const override;

private:
    enum Scope
    {
        KlusterRoutes,
        ProblemRoutes,
        AllRoutes
    };
    QComboBox *m_scope;
};
