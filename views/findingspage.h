#pragma once

#include "views/klustertablepage.h"

class FindingsModel;
class QComboBox;

// Findings: what is wrong with the kluster shown, worst first; which severities to show; the message has the
// rest of the width, and the detail pane the whole story of each selected finding (evidence, plan).
class FindingsPage : public KlusterTablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsPage)

public:
    explicit FindingsPage(FindingsModel *model, QWidget *parent = nullptr);

protected:
    QString detailsHtml(const QModelIndexList &rows) const override;
    QString placeholder() const override;

private:
    QComboBox *m_severity;
    FindingsModel *m_model;
};
