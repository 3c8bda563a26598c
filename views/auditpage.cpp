#include "views/auditpage.h"

#include "core/printable.h"
#include "models/auditmodel.h"

#include <QHeaderView>
#include <QTreeView>

AuditPage::AuditPage(AuditModel *model, QWidget *parent)
    : TablePage(tr("Audit log"), model, AuditModel::filterFields(), parent)
    , m_model(model)
{
    QTreeView *audit = view();
    audit->sortByColumn(AuditModel::TimeColumn, Qt::DescendingOrder);
    audit->setColumnWidth(AuditModel::TimeColumn, 165);
    audit->setColumnWidth(AuditModel::WhoColumn, 150);
    audit->setColumnWidth(AuditModel::KlusterColumn, 80);
    audit->setColumnWidth(AuditModel::FindingColumn, 230);
    audit->setColumnWidth(AuditModel::RepairColumn, 200);
    // The result is what matters most after the finding: next to it.
    audit->header()->moveSection(audit->header()->visualIndex(AuditModel::ResultColumn),
        audit->header()->visualIndex(AuditModel::RepairColumn));
    setCaption(tr("Every repair sent from this machine (console and command line), newest first: %1")
                   .arg(AuditLog::path()));
    setRepairable(0, true);
    // Names and words from the cloud with every control character shown as an escape.
    setDetailsProvider([this](const QModelIndexList &rows) { return printableLines(detailsHtml(rows)); });
}

bool AuditPage::reload(QString *error)
{
    const bool ok = m_reader.update(error);
    m_model->setRecords(m_reader.records());
    return ok;
}

QString AuditPage::detailsHtml(const QModelIndexList &rows) const
{
    if (rows.isEmpty())
        return tr("<p>Select a record to see each request it sent and its answer.</p>");
    QString html;
    for (const QModelIndex &row : rows.mid(0, 3)) {
        const AuditRecord r = row.data(AuditModel::RecordRole).value<AuditRecord>();
        html += tr("<h3>%1 — %2</h3>")
                    .arg(r.finding().toHtmlEscaped(), RepairResults::name(r.verification).toHtmlEscaped());
        html += tr("<p>%1 by %2@%3 (cloud %4), kluster %5: %6</p>")
                    .arg(r.time.toUTC().toString(Qt::ISODateWithMs), r.user.toHtmlEscaped(),
                        r.project.toHtmlEscaped(), r.cloud.toHtmlEscaped(), r.kluster.toHtmlEscaped(),
                        r.repair.toHtmlEscaped());
        html += QStringLiteral("<p>%1</p><pre>").arg(r.message.toHtmlEscaped());
        if (!r.requests) {
            // Interrupted (or in progress): what was about to be sent; whether it reached the cloud is
            // unknown.
            for (const PlannedRequest &q : r.planned)
                html += tr("%1 → unknown: check the cloud\n").arg(q.summary().toHtmlEscaped());
        }
        for (const AuditRequest &q : r.requests.value_or(QList<AuditRequest>()))
            html += QStringLiteral("%1 → %2 %3\n")
                        .arg(q.summary().toHtmlEscaped())
                        .arg(q.status)
                        .arg(q.outcome.toHtmlEscaped());
        html += QStringLiteral("</pre>");
    }
    return html;
}
