#include "views/exportcommands.h"

#include "console/connectionregistry.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "models/auditmodel.h"
#include "services/local/exports.h"
#include "services/local/snapshotwriter.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>

ExportSnapshotCommand::ExportSnapshotCommand(Context context, QWidget *window, QObject *parent)
    : Command(std::move(context), new QAction(tr("Save kluster as &snapshot…")), parent)
    , m_window(window)
{
    action()->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
}

void ExportSnapshotCommand::run()
{
    const CommandContext c = context();
    if (!c.data || !c.data->fetch) {
        emit message(tr("No kluster data to save yet."), 8000);
        return;
    }
    auto *dialog = new QFileDialog(
        m_window, tr("Save %1 as a snapshot folder (a new folder's name)").arg(c.key.toString()));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->selectFile(QStringLiteral("%1-%2").arg(c.data->fetch->state.kluster.name,
        c.data->fetchedAt.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    const auto fetch = c.data->fetch;
    connect(dialog, &QFileDialog::fileSelected, this, [this, fetch](const QString &dir) {
        QString error;
        if (SnapshotWriter::write(dir, *fetch, &error))
            emit message(tr("Snapshot written to %1").arg(dir), 10000);
        else
            emit message(tr("The snapshot could not be written completely: %1").arg(error), 15000);
    });
    open(dialog);
}

ExportReportCommand::ExportReportCommand(
    Context context, HistoryClient *history, QWidget *window, QObject *parent)
    : Command(std::move(context), new QAction(tr("&Export report (HTML, CSV, JSON)…")), parent)
    , m_history(history)
    , m_window(window)
{
    action()->setShortcut(QKeySequence(tr("Ctrl+E")));
}

void ExportReportCommand::run()
{
    const CommandContext c = context();
    if (!c.data || !c.data->fetch) {
        emit message(tr("No kluster data to report yet."), 8000);
        return;
    }
    auto *dialog = new QFileDialog(m_window, tr("Export the report of %1").arg(c.key.toString()));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters(
        { tr("HTML report (*.html)"), tr("Findings as CSV (*.csv)"), tr("Check report as JSON (*.json)") });
    dialog->selectFile(c.data->fetch->state.kluster.name + QStringLiteral("-report.html"));
    const auto fetch = c.data->fetch;
    const auto diagnosis = c.data->diagnosis;
    const KlusterKey key = c.key;
    connect(
        dialog, &QFileDialog::fileSelected, this, [this, key, fetch, diagnosis, dialog](const QString &path) {
            const QString filter = dialog->selectedNameFilter();
            Exports::ReportFormat format = Exports::ReportFormat::Html;
            if (path.endsWith(QLatin1String(".csv"))
                || (filter.contains(QLatin1String("CSV")) && !path.endsWith(QLatin1String(".html"))))
                format = Exports::ReportFormat::FindingsCsv;
            else if (path.endsWith(QLatin1String(".json"))
                || (filter.contains(QLatin1String("JSON")) && !path.endsWith(QLatin1String(".html"))))
                format = Exports::ReportFormat::CheckJson;
            const auto write
                = [this, path, format, fetch, diagnosis](const IncidentReport::History *history) {
                      QString error;
                      const bool written
                          = Exports::writeReport(path, format, fetch->state, *diagnosis, &error, history);
                      emit message(written ? tr("Report written to %1").arg(path)
                                           : tr("The report could not be written: %1").arg(error),
                          10000);
                  };
            if (format != Exports::ReportFormat::Html) {
                write(nullptr);
                return;
            }
            // The HTML report adds the findings' timelines and what changed, read on the history's thread.
            QStringList ids;
            for (const Finding &f : diagnosis->findings)
                ids << f.id();
            m_history->reportHistory(
                key, ids, this, [write](const IncidentReport::History &history) { write(&history); });
        });
    open(dialog);
}

ExportAuditCommand::ExportAuditCommand(const QAbstractItemModel *shown, QWidget *window, QObject *parent)
    : Command([] { return CommandContext(); }, new QAction(tr("Export the audit &log…")), parent)
    , m_shown(shown)
    , m_window(window)
{ }

void ExportAuditCommand::run()
{
    auto *dialog = new QFileDialog(m_window, tr("Export the audit log"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters({ tr("JSON Lines (*.jsonl)"), tr("CSV (*.csv)") });
    dialog->selectFile(QStringLiteral("flightdeck-audit.jsonl"));
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        // The rows as filtered in the view: the records whole, or the columns shown as CSV.
        const QAbstractItemModel *view = m_shown;
        QString error;
        bool written = false;
        if (path.endsWith(QLatin1String(".csv"))) {
            QStringList header;
            for (int c = 0; c < view->columnCount(); ++c)
                header << view->headerData(c, Qt::Horizontal).toString();
            QList<QStringList> rows;
            for (int row = 0; row < view->rowCount(); ++row) {
                QStringList cells;
                for (int c = 0; c < view->columnCount(); ++c)
                    cells << view->index(row, c).data().toString();
                rows << cells;
            }
            written = Exports::writeCsv(path, header, rows, &error);
        } else {
            QList<QJsonObject> records;
            for (int row = 0; row < view->rowCount(); ++row)
                records << view->index(row, 0).data(AuditModel::RecordRole).toJsonObject();
            written = Exports::writeJsonLines(path, records, &error);
        }
        emit message(
            written ? tr("Audit log exported to %1").arg(path) : tr("Not exported: %1").arg(error), 10000);
    });
    open(dialog);
}

OpenSnapshotCommand::OpenSnapshotCommand(ConnectionRegistry *registry, QWidget *window, QObject *parent)
    : Command([] { return CommandContext(); }, new QAction(tr("&Open snapshot…")), parent)
    , m_registry(registry)
    , m_window(window)
{
    action()->setShortcut(QKeySequence(tr("Ctrl+O")));
}

void OpenSnapshotCommand::run()
{
    auto *dialog = new QFileDialog(m_window, tr("Open a snapshot folder (read-only)"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &dir) {
        ConnectionSpec spec;
        spec.name = tr("snapshot %1").arg(QFileInfo(dir).fileName());
        spec.snapshotPath = dir;
        spec.readOnly = true;
        m_registry->add(spec, false);
    });
    open(dialog);
}
