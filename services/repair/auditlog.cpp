#include "services/repair/auditlog.h"

#include "services/local/localfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QHostInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QUuid>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

QString AuditLog::path()
{
    // One log for the console and the command line: <data>/flightdeck/audit.jsonl.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("flightdeck/audit.jsonl"));
}

namespace {

// Writes all of `bytes` at the end of `fd`; false with errno set.
bool writeAll(int fd, const QByteArray &bytes)
{
    for (qsizetype written = 0; written < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        written += n;
    }
    return true;
}

} // namespace

bool AuditLog::append(AuditRecord record, QString *error)
{
    // Only in a folder of this user's that nobody else may write to, to a file that is no link.
    QString why;
    if (LocalFile::dataFolder(&why).isEmpty()) {
        *error = why;
        return false;
    }
    const QString file = path();
    if (!record.time.isValid())
        record.time = QDateTime::currentDateTimeUtc();
    const int fd = LocalFile::openPrivate(file, O_RDWR | O_APPEND | O_CREAT, &why);
    if (fd < 0) {
        *error = why;
        return false;
    }
    const auto fail = [&](const QString &what, int code) {
        *error = QStringLiteral("%1: %2: %3").arg(file, what, LocalFile::reason(code));
        ::close(fd);
        return false;
    };
    // One writer at a time (the console and every flightdeck-cli): what is rolled back below is ours alone.
    while (::flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR)
            return fail(QStringLiteral("cannot be locked"), errno);
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        return fail(QStringLiteral("cannot be read"), errno);
    const off_t before = st.st_size;
    QByteArray line = record.toJson() + '\n';
    // A line left torn (a crash mid-write) is ended first: this record is then a line of its own, read
    // whole, and the torn one is named alone.
    char last = '\n';
    if (before > 0 && ::pread(fd, &last, 1, before - 1) == 1 && last != '\n')
        line.prepend('\n');
    if (!writeAll(fd, line) || ::fsync(fd) != 0) {
        const int code = errno;
        // Rolled back to the last whole record: half a line would glue the next record onto it.
        if (::ftruncate(fd, before) == 0)
            ::fsync(fd);
        return fail(QStringLiteral("the record could not be written (nothing of it was kept)"), code);
    }
    ::close(fd); // the lock goes with it
    return true;
}

QString AuditLog::begin(AuditRecord record, QString *error)
{
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.phase = AuditRecord::Phase::Started;
    record.requests.reset();
    record.verification = RepairResult::Unknown;
    AuditProcess process { qint64(::getpid()), QHostInfo::localHostName(), QString(), QString() };
    // The process' start (clock ticks since boot) and the boot: a later process given the same id is not
    // this one.
    if (const qint64 started = processStartTicks(::getpid()); started >= 0)
        process.started = QString::number(started);
    process.boot = bootId();
    record.process = process;
    return append(record, error) ? record.id : QString();
}

bool AuditLog::finish(const QString &id, const QList<AuditRequest> &requests, RepairResult verification,
    const QString &message, QString *error, const QStringList &events)
{
    AuditRecord r;
    r.id = id;
    r.phase = AuditRecord::Phase::Finished;
    r.requests = requests;
    r.verification = verification;
    r.message = message;
    r.events = events;
    return append(r, error);
}

QString AuditLog::interruptedMessage()
{
    return QStringLiteral(
        "interrupted before its result was recorded: its requests may have been sent, in part or "
        "whole; check the cloud");
}

// Is the process that wrote a started record still running (on this machine, since the same boot, and the
// same process, not a later one given its id)?
static bool stillRunning(const std::optional<AuditProcess> &process)
{
    if (!process)
        return false;
    const qint64 pid = process->pid;
    if (pid <= 0 || process->host != QHostInfo::localHostName())
        return false;
    if (!process->boot.isEmpty() && process->boot != AuditLog::bootId())
        return false; // the machine started again since
    if (::kill(pid_t(pid), 0) != 0 && errno != EPERM)
        return false;
    return process->started.isEmpty()
        || process->started == QString::number(AuditLog::processStartTicks(pid));
}

qint64 AuditLog::processStartTicks(qint64 pid)
{
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; the start time is the 22nd field, the 20th after the
    // command's closing parenthesis (the command may hold spaces and parentheses itself).
    const std::optional<QByteArray> stat
        = LocalFile::read(QStringLiteral("/proc/%1/stat").arg(pid), 4096, static_cast<QString *>(nullptr));
    if (!stat)
        return -1;
    const qsizetype close = stat->lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = stat->mid(close + 2).split(' ');
    bool ok = false;
    const qint64 ticks = fields.value(19).toLongLong(&ok);
    return ok ? ticks : -1;
}

QString AuditLog::bootId()
{
    static const QString id = [] {
        const std::optional<QByteArray> bytes = LocalFile::read(
            QStringLiteral("/proc/sys/kernel/random/boot_id"), 4096, static_cast<QString *>(nullptr));
        return bytes ? QString::fromLatin1(bytes->trimmed()) : QString();
    }();
    return id;
}

QList<AuditRecord> AuditLog::read(QString *error)
{
    Reader reader;
    reader.update(error);
    return reader.records();
}

bool AuditLog::Reader::update(QString *error)
{
    if (!QFileInfo::exists(path()) && !QFileInfo(path()).isSymLink()) {
        *this = Reader();
        return true;
    }
    // Read as written: in a folder of this user's alone, a file that is no link.
    QString why;
    const QString folder = QFileInfo(path()).absolutePath();
    const int fd
        = LocalFile::isPrivateFolder(folder, &why) ? LocalFile::openPrivate(path(), O_RDONLY, &why) : -1;
    QFile f(path());
    if (fd < 0 || !f.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        if (fd >= 0)
            ::close(fd);
        *error = why.isEmpty() ? QStringLiteral("%1: %2").arg(f.fileName(), f.errorString()) : why;
        return false;
    }
    return update(f, f.fileName(), error);
}

bool AuditLog::Reader::update(QIODevice &f, const QString &name, QString *error)
{
    if (f.size() < m_offset)
        *this = Reader(); // rotated or cleared under us: nothing read before still holds
    if (!f.seek(m_offset)) {
        *error = QStringLiteral("%1: %2").arg(name, f.errorString());
        return false;
    }
    while (!f.atEnd()) {
        // A line at a time, in a buffer of its own size (Qt's readLine(max) sets `max` bytes aside for every
        // line); one past 16 MiB is no record of ours: read past whole, and named.
        constexpr qsizetype MaxLine = qsizetype(1) << 24;
        QByteArray raw;
        qint64 consumed = 0;
        bool whole = false;
        char chunk[16384];
        for (qint64 n = 0; !whole && (n = f.readLine(chunk, sizeof chunk)) > 0;) {
            consumed += n;
            whole = chunk[n - 1] == '\n';
            if (consumed <= MaxLine)
                raw.append(chunk, n);
        }
        const bool tooLong = consumed > MaxLine;
        const QByteArray bytes = raw.trimmed();
        const QJsonDocument doc = tooLong ? QJsonDocument() : QJsonDocument::fromJson(bytes);
        if (!whole && f.atEnd()) {
            // Being written now, or left torn by a crash: reported, and read again next time. Never taken as
            // it is, even when what came so far reads as JSON: the rest of its line may follow.
            if (!bytes.isEmpty())
                *error = QStringLiteral("%1:%2: not a whole JSON record").arg(name).arg(m_line + 1);
            break;
        }
        m_offset += consumed;
        ++m_line;
        if (tooLong) {
            *error = QStringLiteral("%1:%2: a line of %3 bytes, not a record (the limit is %4)")
                         .arg(name)
                         .arg(m_line)
                         .arg(consumed)
                         .arg(MaxLine);
            continue;
        }
        if (bytes.isEmpty())
            continue;
        if (!doc.isObject()) {
            *error = QStringLiteral("%1:%2: not a JSON record").arg(name).arg(m_line);
            continue;
        }
        add(AuditRecord::fromJson(doc.object()));
    }
    return true;
}

void AuditLog::Reader::add(const AuditRecord &r)
{
    if (r.phase == AuditRecord::Phase::Finished && m_open.contains(r.id)) {
        m_records[m_open.take(r.id)].complete(r);
        return;
    }
    if (r.phase == AuditRecord::Phase::Started)
        m_open.insert(r.id, m_records.size());
    m_records.append(r);
}

QList<AuditRecord> AuditLog::Reader::records() const
{
    QList<AuditRecord> records = m_records; // shared, not copied: only the open ones are annotated
    for (auto it = m_open.cbegin(); it != m_open.cend(); ++it) {
        AuditRecord &r = records[it.value()];
        if (stillRunning(r.process)) {
            r.verification = RepairResult::InProgress;
            r.message = QStringLiteral("being sent now");
        } else {
            r.verification = RepairResult::Interrupted;
            r.message = interruptedMessage();
        }
    }
    return records;
}
