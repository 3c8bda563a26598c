#include "views/findingspage.h"

#include "core/diagnosis.h"
#include "models/filtermodel.h"
#include "models/findingsmodel.h"
#include "views/repairtext.h"
#include "views/severitydecorator.h"

#include <QComboBox>
#include <QHeaderView>
#include <QTreeView>

FindingsPage::FindingsPage(FindingsModel *model, QWidget *parent)
    : KlusterTablePage(tr("Findings"), model, FindingsModel::filterFields(), parent)
    , m_severity(new QComboBox(this))
    , m_model(model)
{
    m_severity->addItems({ tr("All severities"), tr("Critical only"), tr("Critical and warning") });
    m_severity->setAccessibleName(tr("Show severities"));
    m_severity->setToolTip(tr("Which severities the table shows"));
    connect(m_severity, &QComboBox::currentIndexChanged, this, [this](int i) {
        filter()->setMinimumSeverity(i == 0 ? std::nullopt
                : i == 1                    ? std::optional(Severity::Critical)
                                            : std::optional(Severity::Warning));
    });
    addToolWidget(m_severity);
    QTreeView *findings = view();
    findings->sortByColumn(FindingsModel::SeverityColumn, Qt::AscendingOrder);
    findings->setColumnWidth(FindingsModel::SeverityColumn, 90);
    findings->setColumnWidth(FindingsModel::KindColumn, 175);
    findings->setColumnWidth(FindingsModel::SubjectColumn, 150);
    findings->setColumnWidth(FindingsModel::SinceColumn, 115); // "over 1 h 15 min" whole
    findings->setColumnWidth(FindingsModel::RepairColumn, 64);
    findings->setColumnWidth(FindingsModel::AcknowledgedColumn, 150);
    findings->header()->moveSection(findings->header()->visualIndex(FindingsModel::RepairColumn),
        findings->header()->visualIndex(FindingsModel::MessageColumn));
    findings->header()->moveSection(findings->header()->visualIndex(FindingsModel::AcknowledgedColumn),
        findings->header()->visualIndex(FindingsModel::MessageColumn));
    decorator()->setQuietRole(FindingsModel::AcknowledgedRole);
    // Shown while someone handles a finding: on a laptop, the message keeps the width otherwise.
    findings->setColumnHidden(FindingsModel::AcknowledgedColumn, !model->anyAcknowledged());
    connect(model, &FindingsModel::acknowledgedChanged, this,
        [findings](bool any) { findings->setColumnHidden(FindingsModel::AcknowledgedColumn, !any); });
}

QString FindingsPage::placeholder() const
{
    return tr(
        "<p>Select a finding to see its evidence and its repair. F8 and Shift+F8 step through the findings; "
        "Ctrl+R repairs the selected ones; Ctrl+Shift+A acknowledges them (you are handling them: they stop "
        "notifying and sink below the others of their severity).</p>");
}

QString FindingsPage::detailsHtml(const QModelIndexList &rows) const
{
    if (rows.isEmpty())
        return placeholder();
    if (!diagnosis())
        return QString();
    QString html;
    int shown = 0;
    for (const QModelIndex &row : rows) {
        if (shown == 5) {
            html += tr("<p>… and %1 more selected.</p>").arg(rows.size() - shown);
            break;
        }
        ++shown;
        const QString id = row.data(ConsoleRole::Key).toString();
        if (const Finding *f = diagnosis()->find(id)) {
            html += RepairText::findingHtml(*f, withPlan());
            if (const Acknowledgement *a = m_model->acknowledgement(id))
                html
                    += tr("<p><i>Acknowledged %1 (Ctrl+Shift+U withdraws it). It notifies again and rises to "
                          "its rank when it changes or the time runs out.</i></p>")
                           .arg(a->text(FindingsModel::acknowledgementTime(
                                            a->until, QDateTime::currentDateTimeUtc()))
                                    .toHtmlEscaped());
        }
    }
    if (!withPlan())
        html += tr("<p><i>This connection is read-only: repairs are hidden.</i></p>");
    return html;
}
