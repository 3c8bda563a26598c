#pragma once

#include <QHash>
#include <QLoggingCategory>
#include <QObject>
#include <QString>

Q_DECLARE_LOGGING_CATEGORY(lcSecrets)

struct SecretResult
{
    bool ok = false; // the operation succeeded (read: a secret was found)
    bool found = false;
    QString secret; // read only
    QString error; // why not, in words
    bool inMemoryOnly = false; // the keychain is unavailable: the secret lives for this process only
};
Q_DECLARE_METATYPE(SecretResult)

// The handle of one keychain job: emits `finished` once, then deletes itself.
class SecretCall : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretCall)

public:
    explicit SecretCall(QObject *parent = nullptr)
        : QObject(parent)
    { }
    void finish(const SecretResult &result);

signals:
    void finished(const SecretResult &result);

private:
    bool m_done = false;
};

// Secrets (passwords, application credential secrets) in the system
// keychain through QtKeychain: service "flightdeck", keys naming the kind,
// cloud and user (CloudConfig::secretKey). Every job has a timeout. Without a
// keychain, secrets live in this process's memory only, and `inMemoryOnly`
// says so: never a plaintext fallback.
class SecretStore : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretStore)

public:
    static constexpr const char *Service = "flightdeck";

    explicit SecretStore(QObject *parent = nullptr, int timeoutMs = 10000);

    SecretCall *read(const QString &key);
    SecretCall *write(const QString &key, const QString &secret);
    SecretCall *remove(const QString &key);

    QString memoryOnlyReason() const { return m_memoryReason; }

private:
    enum class Op
    {
        Read,
        Write,
        Remove
    };
    SecretCall *run(Op op, const QString &key, const QString &secret);
    SecretResult fromMemory(Op op, const QString &key, const QString &secret);
    void switchToMemory(const QString &reason);

    int m_timeoutMs;
    bool m_memoryOnly = false;
    QString m_memoryReason;
    QHash<QString, QString> m_memory;
};
