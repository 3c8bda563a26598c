#include "views/auditpage.h"

#include "core/printable.h"
#include "models/auditmodel.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
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
        const QJsonObject r = row.data(AuditModel::RecordRole).toJsonObject();
        html += tr("<h3>%1 — %2</h3>")
                    .arg(r.value(QStringLiteral("finding")).toString().toHtmlEscaped(),
                        r.value(QStringLiteral("verification")).toString().toHtmlEscaped());
        html += tr("<p>%1 by %2@%3 (cloud %4), kluster %5: %6</p>")
                    .arg(r.value(QStringLiteral("time")).toString(),
                        r.value(QStringLiteral("user")).toString().toHtmlEscaped(),
                        r.value(QStringLiteral("project")).toString().toHtmlEscaped(),
                        r.value(QStringLiteral("cloud")).toString().toHtmlEscaped(),
                        r.value(QStringLiteral("kluster")).toString().toHtmlEscaped(),
                        r.value(QStringLiteral("repair")).toString().toHtmlEscaped());
        html += QStringLiteral("<p>%1</p><pre>")
                    .arg(r.value(QStringLiteral("message")).toString().toHtmlEscaped());
        if (!r.contains(QStringLiteral("requests"))) {
            // Interrupted (or in progress): what was about to be sent; whether it reached the cloud is
            // unknown.
            for (const QJsonValue v : r.value(QStringLiteral("planned")).toArray()) {
                const QJsonObject q = v.toObject();
                html += tr("%1 %2 %3 → unknown: check the cloud\n")
                            .arg(q.value(QStringLiteral("method")).toString(),
                                q.value(QStringLiteral("service")).toString(),
                                q.value(QStringLiteral("path")).toString().toHtmlEscaped());
            }
        }
        for (const QJsonValue v : r.value(QStringLiteral("requests")).toArray()) {
            const QJsonObject q = v.toObject();
            html += QStringLiteral("%1 %2 %3 → %4 %5\n")
                        .arg(q.value(QStringLiteral("method")).toString(),
                            q.value(QStringLiteral("service")).toString(),
                            q.value(QStringLiteral("path")).toString().toHtmlEscaped())
                        .arg(q.value(QStringLiteral("status")).toInt())
                        .arg(q.value(QStringLiteral("outcome")).toString().toHtmlEscaped());
        }
        html += QStringLiteral("</pre>");
    }
    return html;
}
