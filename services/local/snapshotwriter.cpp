#include "services/local/snapshotwriter.h"

#include "core/apiparser.h"
#include "services/local/exports.h"
#include "services/local/localfile.h"
#include "services/local/snapshotreader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

static bool writeFiles(const QString &directory, const KlusterFetch &fetch, QString *error)
{
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("%1: cannot create the folder").arg(directory);
        return false;
    }
    // Only into a folder of this user's that nobody else may write to: in one prepared by another user, a
    // file could be a link to one of this user's, and writing it would overwrite that.
    if (!LocalFile::isPrivateFolder(QFileInfo(directory).absoluteFilePath(), error))
        return false;
    const QDir dir(directory);
    // Each file replaced whole, or not at all; never through a link.
    auto writeFile = [&dir, error](const QString &name, const QByteArray &bytes) {
        return LocalFile::isWritableName(dir.filePath(name), error)
            && Exports::writeFile(dir.filePath(name), bytes, error);
    };
    const KlusterState &s = fetch.state;
    QJsonObject capture { { QStringLiteral("capturedAt"), ApiParser::formatTimestamp(s.capturedAt) },
        { QStringLiteral("cloud"), s.cloud }, { QStringLiteral("tool"), s.tool } };
    if (s.maxRoutes)
        capture.insert(QStringLiteral("maxRoutes"), *s.maxRoutes);
    if (!s.region.isEmpty())
        capture.insert(QStringLiteral("region"), s.region);
    if (!writeFile(captureFile(), QJsonDocument(capture).toJson()))
        return false;
    for (Source source : Sources::all()) {
        if (fetch.bodies.contains(source) && !writeFile(Sources::file(source), fetch.body(source)))
            return false;
    }
    // An optional file of an earlier snapshot in the same folder would not belong to this one.
    for (Source source : Sources::optional()) {
        if (!fetch.bodies.contains(source))
            QFile::remove(dir.filePath(Sources::file(source)));
    }
    return true;
}

bool SnapshotWriter::write(const QString &directory, const KlusterFetch &fetch, QString *error)
{
    QStringList missing;
    for (Source source : Sources::required()) {
        if (!fetch.bodies.contains(source))
            missing << Sources::file(source);
    }
    if (missing.isEmpty())
        return writeFiles(directory, fetch, error);
    // Incomplete: the folder asked for is not touched (an earlier snapshot in
    // it stays whole); what could be fetched goes beside it, marked as such.
    QString dirName = directory;
    while (dirName.endsWith(QLatin1Char('/')))
        dirName.chop(1);
    const QString partial = dirName + QStringLiteral(".incomplete");
    QDir(partial).removeRecursively();
    QString writeError;
    const bool written = writeFiles(partial, fetch, &writeError);
    *error = QStringLiteral("incomplete: %1 could not be fetched (%2); %3 was not written%4")
                 .arg(missing.join(QStringLiteral(", ")), SourceError::joined(fetch.errors), directory,
                     written ? QStringLiteral("; what could be fetched is in ") + partial
                             : QStringLiteral("; ") + writeError);
    return false;
}
