#include "views/klustertablepage.h"

#include "core/diagnosis.h"
#include "core/printable.h"
#include "models/consolerole.h"
#include "views/repairtext.h"

KlusterTablePage::KlusterTablePage(
    const QString &name, QAbstractItemModel *model, const QStringList &filterFields, QWidget *parent)
    : TablePage(name, model, filterFields, parent)
{
    setDetailsProvider([this](const QModelIndexList &rows) { return printableLines(detailsHtml(rows)); });
}

void KlusterTablePage::setShown(const std::shared_ptr<const Diagnosis> &diagnosis, bool withPlan)
{
    m_diagnosis = diagnosis;
    m_withPlan = withPlan;
    updateDetails();
}

QString KlusterTablePage::placeholder() const
{
    return tr("<p>Select a row to see the findings about it, their evidence and repair. F8 and Shift+F8 step "
              "through the rows with a finding; Ctrl+R repairs them.</p>");
}

QString KlusterTablePage::rowHtml(const QModelIndex &row) const
{
    // The row's own facts, every column, then the findings about it.
    QStringList facts;
    const QAbstractItemModel *m = row.model();
    for (int c = 0; c < m->columnCount(row.parent()); ++c) {
        const QString v = row.siblingAtColumn(c).data().toString();
        if (!v.isEmpty())
            facts << QStringLiteral("%1: <b>%2</b>")
                         .arg(m->headerData(c, Qt::Horizontal).toString().toHtmlEscaped(), v.toHtmlEscaped());
    }
    return QStringLiteral("<p>%1</p>").arg(facts.join(QStringLiteral(" · ")));
}

QString KlusterTablePage::findingsHtml(const QModelIndex &row) const
{
    QString out;
    for (const QString &id : row.data(ConsoleRole::Findings).toStringList()) {
        if (const Finding *f = m_diagnosis->find(id))
            out += RepairText::findingHtml(*f, m_withPlan);
    }
    return out;
}

QString KlusterTablePage::detailsHtml(const QModelIndexList &rows) const
{
    if (rows.isEmpty())
        return placeholder();
    if (!m_diagnosis)
        return QString();
    QString html;
    int shown = 0;
    QStringList seen;
    for (const QModelIndex &row : rows) {
        if (shown == 5) {
            html += tr("<p>… and %1 more selected.</p>").arg(rows.size() - shown);
            break;
        }
        ++shown;
        html += rowHtml(row);
        const QStringList ids = row.data(ConsoleRole::Findings).toStringList();
        bool any = false;
        for (const QString &id : ids)
            any = any || !seen.contains(id);
        if (ids.isEmpty())
            html += tr("<p><i>No finding about this row.</i></p>");
        else if (any)
            html += findingsHtml(row);
        seen << ids;
    }
    if (!m_withPlan)
        html += tr("<p><i>This connection is read-only: repairs are hidden.</i></p>");
    return html;
}
