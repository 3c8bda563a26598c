#include "snapshotwriter.h"

#include "apiparser.h"
#include "snapshotreader.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

bool SnapshotWriter::write(const QString &directory, const KlusterFetch &fetch, QString *error)
{
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(directory);
        return false;
    }
    const QDir dir(directory);
    auto writeFile = [&dir, error](const QString &name, const QByteArray &bytes) {
        QSaveFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
            *error = QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
            return false;
        }
        return true;
    };
    const KlusterState &s = fetch.state;
    QJsonObject capture{{QStringLiteral("capturedAt"), ApiParser::formatTimestamp(s.capturedAt)},
                        {QStringLiteral("cloud"), s.cloud},
                        {QStringLiteral("tool"), s.tool}};
    if (s.maxRoutes)
        capture.insert(QStringLiteral("maxRoutes"), *s.maxRoutes);
    if (!s.region.isEmpty())
        capture.insert(QStringLiteral("region"), s.region);
    if (!writeFile(QStringLiteral("capture.json"), QJsonDocument(capture).toJson()))
        return false;
    for (auto it = fetch.bodies.cbegin(); it != fetch.bodies.cend(); ++it) {
        if (!writeFile(it.key(), it.value()))
            return false;
    }
    QStringList missing;
    for (const QString &name : SnapshotReader::requiredFiles()) {
        if (name != QLatin1String("capture.json") && !fetch.bodies.contains(name))
            missing << name;
    }
    if (!missing.isEmpty()) {
        *error = QStringLiteral("incomplete snapshot in %1: %2 could not be fetched (%3)")
                     .arg(directory, missing.join(QStringLiteral(", ")), fetch.errors.join(QStringLiteral("; ")));
        return false;
    }
    return true;
}
