#pragma once

#include "views/tablepage.h"

#include <memory>

struct Diagnosis;

// A view of one kluster's table (findings, nodes, routes, security group): what its detail pane says of the
// selected rows, from the diagnosis of the kluster shown. By default a row's facts (every column), then the
// findings about it with their evidence and (unless read-only) their repair; a page says more where it knows
// more. Every name and message from the cloud in it is shown with its control characters escaped: what is
// copied from the details never drives a terminal.
class KlusterTablePage : public TablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KlusterTablePage)

public:
    KlusterTablePage(const QString &name, QAbstractItemModel *model, const QStringList &filterFields,
        QWidget *parent = nullptr);

    // The kluster shown: the details read its findings; `withPlan`: repairs are offered (not read-only).
    void setShown(const std::shared_ptr<const Diagnosis> &diagnosis, bool withPlan);
    const Diagnosis *diagnosis() const { return m_diagnosis.get(); }
    bool withPlan() const { return m_withPlan; }

protected:
    // The detail pane's HTML for the selected rows (source indexes, in view order).
    virtual QString detailsHtml(const QModelIndexList &rows) const;
    // One row's own part: its facts, every column.
    virtual QString rowHtml(const QModelIndex &row) const;
    // The findings a row is about, each with its evidence and plan.
    QString findingsHtml(const QModelIndex &row) const;
    virtual QString placeholder() const; // what the pane says with nothing selected

private:
    std::shared_ptr<const Diagnosis> m_diagnosis;
    bool m_withPlan = false;
};
