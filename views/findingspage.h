#pragma once

#include "views/klustertablepage.h"

class FindingsModel;
class FindingsTreeModel;
class QAction;
class QComboBox;
struct Finding;

// Findings: what is wrong with the kluster shown, worst first; which severities to show; the message has the
// rest of the width, and the detail pane the whole story of each selected finding (evidence, plan). Grouped
// by incident (Ctrl+G, remembered): a tree, the incidents first with their findings beneath them, then the
// findings in none; F8 then steps through the incidents and the lone findings.
class FindingsPage : public KlusterTablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsPage)

public:
    explicit FindingsPage(FindingsModel *model, QWidget *parent = nullptr);

    // The View menu's switch: grouped by incident, or one flat table.
    QAction *groupAction() const { return m_groupAction; }
    bool isGrouped() const { return m_grouped; }
    void setGrouped(bool grouped);
    FindingsTreeModel *tree() const { return m_tree; }
    // The incidents among the selected rows (grouped), by id, in view order.
    QStringList selectedIncidents() const;
    // Selects findings and incidents by id: grouped, the rows themselves; flat, an incident's findings.
    int selectFindings(const QStringList &ids);

    // What the details add under a finding shown alone (its boot evidence, read on demand): the caller's.
    void setFindingExtras(std::function<QString(const Finding &)> extras) { m_extras = std::move(extras); }
    // A kluster read only through Prometheus: its exporter's report (ExportedText::report) in place of the
    // table; empty: the table again.
    void setExportedReport(const QString &html);

protected:
    QString detailsHtml(const QModelIndexList &rows) const override;
    QString placeholder() const override;

private:
    void expandIncidents(int first, int last);
    // The link to a finding kind's or incident rule's runbook in the details, and the runbook opened.
    static QString runbookLink(const QString &name);
    void openRunbook(const QString &name);

    QComboBox *m_severity;
    FindingsModel *m_model;
    FindingsTreeModel *m_tree;
    QAction *m_groupAction;
    bool m_grouped = false;
    std::function<QString(const Finding &)> m_extras;
    QString m_exportedReport;
};
