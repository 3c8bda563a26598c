#include "app/cli/terminal.h"

#include "core/printable.h"

#include <QFile>
#include <cerrno>
#include <cstdio>
#include <unistd.h>

namespace {

class TerminalDevice : public QIODevice
{
public:
    explicit TerminalDevice(int fd)
        : m_fd(fd)
    {
        open(QIODevice::WriteOnly | QIODevice::Unbuffered);
    }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override
    {
        // A stream hands over whole text (QTextStream encodes its buffer at once): a character is never
        // split between two calls.
        const QByteArray safe = printableLines(QString::fromUtf8(data, size)).toUtf8();
        for (qint64 written = 0; written < safe.size();) {
            const ssize_t n = ::write(m_fd, safe.constData() + written, size_t(safe.size() - written));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return -1;
            written += n;
        }
        return size;
    }

private:
    int m_fd;
};

} // namespace

namespace Terminal {

QIODevice *out()
{
    static TerminalDevice device(STDOUT_FILENO);
    return &device;
}

QIODevice *err()
{
    static TerminalDevice device(STDERR_FILENO);
    return &device;
}

} // namespace Terminal

bool Terminal::writeReport(const QByteArray &report, bool json)
{
    QFile raw;
    QIODevice *device = out();
    if (json) {
        raw.open(stdout, QIODevice::WriteOnly);
        device = &raw;
    }
    if (!device->isOpen() || device->write(report) != report.size())
        return false;
    return !raw.isOpen() || raw.flush();
}
