#include "services/local/localfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace LocalFile {

QString reason(int code)
{
    QString text = QString::fromLocal8Bit(std::strerror(code));
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    if (const char *name = strerrorname_np(code))
        return QStringLiteral("%1 (%2)").arg(text, QString::fromLatin1(name));
#endif
    return text;
}

namespace {

QByteArray native(const QString &path)
{
    return QFile::encodeName(path);
}

// Closes the descriptor when it goes.
struct Descriptor
{
    int fd = -1;
    ~Descriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
    int take() { return std::exchange(fd, -1); }
};

} // namespace

std::optional<QByteArray> read(const QString &path, qint64 limit, Error *error)
{
    const auto fail = [&path, error](Error::Kind kind, const QString &why) {
        *error = Error::inSource(kind, path, why);
        return std::nullopt;
    };
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever.
    Descriptor file;
    do
        file.fd = ::open(native(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    while (file.fd < 0 && errno == EINTR);
    if (file.fd < 0)
        return fail(Error::Kind::Io, QStringLiteral("cannot be read: ") + reason(errno));
    struct stat st
    {
    };
    if (::fstat(file.fd, &st) != 0)
        return fail(Error::Kind::Io, QStringLiteral("cannot be read: ") + reason(errno));
    if (!S_ISREG(st.st_mode))
        return fail(Error::Kind::Io,
            QStringLiteral("not a regular file (a folder, a pipe or a device): only files are read"));
    const auto tooLarge = [limit]() {
        return QStringLiteral("larger than the %1 a file may be here")
            .arg(limit >= (qint64(1) << 20) ? QStringLiteral("%1 MiB").arg(limit >> 20)
                                            : QStringLiteral("%1 bytes").arg(limit));
    };
    if (st.st_size > limit)
        return fail(Error::Kind::TooLarge, tooLarge());
    // Reads of a regular file do not wait; a file that grew meanwhile is still read no further than the
    // bound allows.
    ::fcntl(file.fd, F_SETFL, ::fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
    QByteArray bytes;
    bytes.resize(qsizetype(qMin<qint64>(qMax<qint64>(st.st_size, 0), limit) + 1));
    qint64 total = 0;
    for (;;) {
        if (total == bytes.size()) {
            if (total > limit)
                return fail(Error::Kind::TooLarge, tooLarge());
            bytes.resize(qsizetype(qMin<qint64>(qint64(bytes.size()) * 2, limit + 1)));
        }
        const ssize_t n = ::read(file.fd, bytes.data() + total, size_t(bytes.size() - total));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(Error::Kind::Io, QStringLiteral("cannot be read: ") + reason(errno));
        if (n == 0)
            break;
        total += n;
    }
    if (total > limit)
        return fail(Error::Kind::TooLarge, tooLarge());
    bytes.truncate(qsizetype(total));
    return bytes;
}

std::optional<QByteArray> read(const QString &path, qint64 limit, QString *error)
{
    Error e;
    std::optional<QByteArray> bytes = read(path, limit, &e);
    if (!bytes && error)
        *error = e.toString();
    return bytes;
}

bool isPrivateFolder(const QString &folder, QString *why)
{
    struct stat st
    {
    };
    if (::lstat(native(folder).constData(), &st) != 0) {
        *why = QStringLiteral("%1: %2").arg(folder, reason(errno));
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        *why = QStringLiteral("%1 is a link: Flightdeck keeps its files only in a folder of its own, not "
                              "where a link leads")
                   .arg(folder);
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        *why = QStringLiteral("%1 is not a folder").arg(folder);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        *why = QStringLiteral("%1 belongs to another user (uid %2): Flightdeck keeps its files only in a "
                              "folder of this user's")
                   .arg(folder)
                   .arg(st.st_uid);
        return false;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        *why = QStringLiteral("%1 may be written by %2 (mode %3): another user could plant a link there; "
                              "make it this user's alone (chmod go-w)")
                   .arg(folder,
                       (st.st_mode & S_IWOTH) ? QStringLiteral("everybody") : QStringLiteral("its group"))
                   .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'));
        return false;
    }
    return true;
}

bool makePrivateFolder(const QString &folder, QString *why)
{
    const QByteArray name = native(folder);
    struct stat st
    {
    };
    const int found = ::lstat(name.constData(), &st);
    if (found == 0 && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
        *why = QStringLiteral("%1: cannot create the folder: a file of that name is there").arg(folder);
        return false;
    }
    if (found != 0 && errno == ENOENT) {
        const QString parent = QFileInfo(folder).absolutePath();
        if (!QDir().mkpath(parent)) {
            *why = QStringLiteral("%1: cannot create the folder").arg(parent);
            return false;
        }
        if (::mkdir(name.constData(), 0700) != 0 && errno != EEXIST) {
            *why = QStringLiteral("%1: cannot create the folder: %2").arg(folder, reason(errno));
            return false;
        }
    }
    return isPrivateFolder(folder, why);
}

QString dataFolder(QString *why)
{
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
                               .filePath(QStringLiteral("flightdeck"));
    return makePrivateFolder(folder, why) ? folder : QString();
}

int openPrivate(const QString &path, int flags, QString *why)
{
    Descriptor file;
    do
        file.fd = ::open(native(path).constData(), flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
    while (file.fd < 0 && errno == EINTR);
    if (file.fd < 0) {
        *why = errno == ELOOP
            ? QStringLiteral("%1 is a link: not followed (a file of Flightdeck's is never a link)").arg(path)
            : QStringLiteral("%1: %2").arg(path, reason(errno));
        return -1;
    }
    struct stat st
    {
    };
    if (::fstat(file.fd, &st) != 0) {
        *why = QStringLiteral("%1: %2").arg(path, reason(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = QStringLiteral("%1 is not a regular file").arg(path);
        return -1;
    }
    if (st.st_uid != ::geteuid()) {
        *why = QStringLiteral("%1 belongs to another user (uid %2): not written").arg(path).arg(st.st_uid);
        return -1;
    }
    if ((st.st_mode & 077) != 0 && ::fchmod(file.fd, 0600) != 0) {
        *why = QStringLiteral("%1: cannot make it private: %2").arg(path, reason(errno));
        return -1;
    }
    return file.take();
}

bool checkPrivateFile(const QString &path, QString *why)
{
    struct stat st
    {
    };
    const QByteArray name = native(path);
    if (::lstat(name.constData(), &st) != 0)
        return errno == ENOENT || (*why = QStringLiteral("%1: %2").arg(path, reason(errno)), false);
    if (S_ISLNK(st.st_mode)) {
        *why
            = QStringLiteral("%1 is a link: not followed (a file of Flightdeck's is never a link)").arg(path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = QStringLiteral("%1 is not a regular file").arg(path);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        *why = QStringLiteral("%1 belongs to another user (uid %2): not written").arg(path).arg(st.st_uid);
        return false;
    }
    // By its name: in a folder nobody else may write to, the name cannot be turned into a link meanwhile.
    if ((st.st_mode & 077) != 0 && ::chmod(name.constData(), 0600) != 0) {
        *why = QStringLiteral("%1: cannot make it private: %2").arg(path, reason(errno));
        return false;
    }
    return true;
}

bool isWritableName(const QString &path, QString *why)
{
    struct stat st
    {
    };
    if (::lstat(native(path).constData(), &st) != 0)
        return errno == ENOENT || (*why = QStringLiteral("%1: %2").arg(path, reason(errno)), false);
    if (S_ISLNK(st.st_mode)) {
        *why = QStringLiteral("%1 is a link: not written through (remove it, or choose another folder)")
                   .arg(path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = QStringLiteral("%1 is not a regular file").arg(path);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        *why = QStringLiteral("%1 belongs to another user (uid %2): not written").arg(path).arg(st.st_uid);
        return false;
    }
    return true;
}

} // namespace LocalFile
