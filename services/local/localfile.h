#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QString>
#include <optional>

// Files on this machine, read and written the one careful way.
//
// Reading what a person or the cloud names (a snapshot's bodies, a kubeconfig and the certificates, keys
// and token files it points to, clouds.yaml and secure.yaml, a CA bundle): regular files only (a link to
// one is followed), opened without waiting (a FIFO or a device is refused before a byte is read, so a
// deadline is never needed to end the read), and at most a bound read (a link to /dev/zero, a file that
// grows meanwhile).
//
// Writing Flightdeck's own files (the audit log, the history): in its data folder, which must be a folder of
// this user's that nobody else may write to (a shared or world-writable folder would let another user plant
// a link to a file of theirs, or read what it holds); each file opened without following links, this user's,
// kept readable by this user only.
namespace LocalFile {

// The most a credential or configuration file may hold (a kubeconfig, a certificate, clouds.yaml).
constexpr qint64 ConfigLimit = qint64(16) << 20;

// The file's bytes, or nullopt with `error` (Error::inSource: the path, and why: "not a regular file",
// larger than `limit`, the system's reason).
std::optional<QByteArray> read(const QString &path, qint64 limit, Error *error);
// The same, for one-line messages: "<path>: <why>".
std::optional<QByteArray> read(const QString &path, qint64 limit, QString *error);

// The system's reason for errno `code`, with its name: "No space left on device (ENOSPC)".
QString reason(int code);

// Whether `folder` may hold this user's private files: it exists, is a folder (not a link to one), belongs
// to this user, and neither its group nor others may write to it. False with `why`.
bool isPrivateFolder(const QString &folder, QString *why);
// Makes `folder` (mode 0700, its parents as usual) where it is missing, then checks it as above.
bool makePrivateFolder(const QString &folder, QString *why);

// Flightdeck's data folder (<data>/flightdeck, e.g. ~/.local/share/flightdeck), made where it is missing
// and checked; empty with `why` when it is not private.
QString dataFolder(QString *why);

// Opens a file in a private folder with `flags` (O_RDONLY, O_WRONLY | O_APPEND | O_CREAT, …) without
// following a link, checks that it is a regular file of this user's, and makes it readable by this user
// only (on the open file, never through its name). The descriptor (close it), or -1 with `why`.
int openPrivate(const QString &path, int flags, QString *why);

// Checks a file in a private folder that another library opens itself (SQLite): a regular file (not a link)
// of this user's, made readable by this user only. Without opening it: closing a descriptor of a file
// drops every lock this process holds on it (POSIX), SQLite's included. True when it is not there yet.
bool checkPrivateFile(const QString &path, QString *why);

// Whether `path` may be written as a file of this user's: nothing is there, or a regular file (not a
// link) of this user's. False with `why`.
bool isWritableName(const QString &path, QString *why);

} // namespace LocalFile
