#pragma once

#include "core/json/jsonreader.h"
#include "core/klusterstate.h"
#include "core/source.h"

#include <QByteArray>
#include <QString>
#include <optional>

// Reads a snapshot folder (snapshot-format.md) into a KlusterState. Every
// file holds the unmodified body of one API call. A missing required file, a
// file that is not JSON, or a required field that is missing or mistyped
// throws ParseError naming the file and the JSON path: nothing is guessed.
class SnapshotReader
{
public:
    static KlusterState read(const QString &directory);
    // One file's bytes, if it is a regular file no larger than a body may be (InputLimits); else why not.
    static std::optional<QByteArray> readBody(const QString &path, Error *error);

    // The files of a snapshot: capture.json and the sources' (Sources::required, Sources::optional).
    static const QStringList &requiredFiles();
    static const QStringList &optionalFiles();
};
