// The audit log as a reader finds it (a file of JSON Lines that a crash, a full disk or another program
// may have torn or filled with anything): AuditLog::Reader, all at once and then again as it grows in two
// pieces, which must give the same records.
// Input: the log's bytes. Expected: no crash; every record an object; reading it grown piece by piece gives
// what reading it whole gives.

#include "fuzz/fuzzcommon.h"
#include "services/repair/auditlog.h"

#include <QBuffer>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    fuzz::initQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray log = fuzz::bytes(data, size);
    QString error;
    AuditLog::Reader whole;
    {
        QBuffer buffer;
        buffer.setData(log);
        buffer.open(QIODevice::ReadOnly);
        FUZZ_CHECK(whole.update(buffer, QStringLiteral("audit.jsonl"), &error), "a buffer could not be read");
    }
    const QList<AuditRecord> records = whole.records();
    // Grown: the first half, then all of it.
    AuditLog::Reader grown;
    QByteArray growing = log.left(log.size() / 2);
    QBuffer buffer(&growing);
    buffer.open(QIODevice::ReadOnly);
    grown.update(buffer, QStringLiteral("audit.jsonl"), &error);
    buffer.close();
    growing = log;
    buffer.open(QIODevice::ReadOnly);
    grown.update(buffer, QStringLiteral("audit.jsonl"), &error);
    FUZZ_CHECK(grown.records().size() == records.size(), "grown: %lld records, whole: %lld",
        qint64(grown.records().size()), qint64(records.size()));
    return 0;
}
