#pragma once

#include "core/diagnosis.h"
#include "core/incidentreport.h"
#include "core/klusterstate.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// The files the console exports. Each is written whole or not at all
// (QSaveFile): a file already there is replaced only once the new one is
// complete, so a full disk or a crash never leaves half a report. Each
// function returns false with `error` naming the file and why.
namespace Exports {

enum class ReportFormat
{
    Html, // the incident report, a self-contained page
    FindingsCsv, // the findings, one per line
    CheckJson, // the check report, as `flightdeck-cli check --json` prints it
};
// `history` (the HTML report only): the findings' timelines and the changes since the last good state.
bool writeReport(const QString &path, ReportFormat format, const KlusterState &state,
    const Diagnosis &diagnosis, QString *error, const IncidentReport::History *history = nullptr);
// A table as CSV (RFC 4180): the header line, then a line per row.
bool writeCsv(const QString &path, const QStringList &header, const QList<QStringList> &rows, QString *error);
// One compact JSON object per line.
bool writeJsonLines(const QString &path, const QList<QJsonObject> &records, QString *error);
// `data` as the file's whole content.
bool writeFile(const QString &path, const QByteArray &data, QString *error);

} // namespace Exports
