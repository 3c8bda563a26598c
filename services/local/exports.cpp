#include "services/local/exports.h"

#include "core/checkreport.h"
#include "core/incidentreport.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace Exports {

namespace {

QByteArray csvLine(const QStringList &fields)
{
    QByteArray line;
    for (qsizetype i = 0; i < fields.size(); ++i)
        line += (i ? "," : "") + IncidentReport::csvField(fields.at(i));
    return line + "\r\n";
}

} // namespace

bool writeReport(const QString &path, ReportFormat format, const KlusterState &state,
    const Diagnosis &diagnosis, QString *error, const IncidentReport::History *history)
{
    switch (format) {
    case ReportFormat::FindingsCsv:
        return writeFile(path, IncidentReport::findingsCsv(diagnosis), error);
    case ReportFormat::CheckJson:
        return writeFile(path, CheckReport::toJson(state, diagnosis), error);
    case ReportFormat::Html:
        break;
    }
    return writeFile(path, IncidentReport::toHtml(state, diagnosis, history), error);
}

bool writeCsv(const QString &path, const QStringList &header, const QList<QStringList> &rows, QString *error)
{
    QByteArray data = csvLine(header);
    for (const QStringList &row : rows)
        data += csvLine(row);
    return writeFile(path, data, error);
}

bool writeJsonLines(const QString &path, const QList<QJsonObject> &records, QString *error)
{
    QByteArray data;
    for (const QJsonObject &record : records)
        data += QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    return writeFile(path, data, error);
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Exports
