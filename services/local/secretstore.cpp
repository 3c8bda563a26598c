#include "services/local/secretstore.h"

#include <QPointer>
#include <QTimer>
#include <qt6keychain/keychain.h>

Q_LOGGING_CATEGORY(lcSecrets, "flightdeck.secrets", QtWarningMsg)

void SecretCall::finish(const SecretResult &result)
{
    if (m_done)
        return;
    m_done = true;
    emit finished(result);
    deleteLater();
}

SecretStore::SecretStore(QObject *parent, int timeoutMs)
    : QObject(parent)
    , m_timeoutMs(timeoutMs)
{
    qRegisterMetaType<SecretResult>();
}

SecretCall *SecretStore::read(const QString &key)
{
    return run(Op::Read, key, QString());
}

SecretCall *SecretStore::write(const QString &key, const QString &secret)
{
    return run(Op::Write, key, secret);
}

SecretCall *SecretStore::remove(const QString &key)
{
    return run(Op::Remove, key, QString());
}

void SecretStore::switchToMemory(const QString &reason)
{
    if (m_memoryOnly)
        return;
    m_memoryOnly = true;
    m_memoryReason = reason;
    qCWarning(lcSecrets).noquote() << "no keychain:" << reason << "- secrets live for this process only";
}

SecretResult SecretStore::fromMemory(Op op, const QString &key, const QString &secret)
{
    SecretResult r;
    r.inMemoryOnly = true;
    switch (op) {
    case Op::Read:
        r.found = m_memory.contains(key);
        r.ok = r.found;
        r.secret = m_memory.value(key);
        if (!r.found)
            r.error = QStringLiteral("not stored (the keychain is unavailable: %1)").arg(m_memoryReason);
        break;
    case Op::Write:
        m_memory.insert(key, secret);
        r.ok = true;
        break;
    case Op::Remove:
        m_memory.remove(key);
        r.ok = true;
        break;
    }
    return r;
}

SecretCall *SecretStore::run(Op op, const QString &key, const QString &secret)
{
    auto *call = new SecretCall(this);
    if (m_memoryOnly) {
        const SecretResult r = fromMemory(op, key, secret);
        QTimer::singleShot(0, call, [call, r] { call->finish(r); });
        return call;
    }
    QKeychain::Job *job = nullptr;
    switch (op) {
    case Op::Read:
        job = new QKeychain::ReadPasswordJob(QString::fromLatin1(Service));
        break;
    case Op::Write: {
        auto *w = new QKeychain::WritePasswordJob(QString::fromLatin1(Service));
        w->setTextData(secret);
        job = w;
        break;
    }
    case Op::Remove:
        job = new QKeychain::DeletePasswordJob(QString::fromLatin1(Service));
        break;
    }
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never a plaintext file
    job->setKey(key);
    auto *timer = new QTimer(call);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, call, [this, call, op, key, secret] {
        // The keychain did not answer: a locked or hung Secret Service.
        switchToMemory(QStringLiteral("the keychain did not answer within %1 s").arg(m_timeoutMs / 1000.0));
        call->finish(fromMemory(op, key, secret));
    });
    timer->start(m_timeoutMs);
    QPointer<SecretCall> guard(call);
    connect(job, &QKeychain::Job::finished, this, [this, guard, op, key, secret](QKeychain::Job *j) {
        if (!guard)
            return;
        SecretResult r;
        switch (j->error()) {
        case QKeychain::NoError:
            r.ok = true;
            if (op == Op::Read) {
                r.found = true;
                r.secret = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
            }
            break;
        case QKeychain::EntryNotFound:
            r.ok = op == Op::Remove;
            r.error = QStringLiteral("not in the keychain");
            break;
        case QKeychain::NoBackendAvailable:
        case QKeychain::NotImplemented:
            switchToMemory(j->errorString());
            r = fromMemory(op, key, secret);
            break;
        default:
            if (j->errorString().contains(QLatin1String("connect"), Qt::CaseInsensitive)
                || j->errorString().contains(QLatin1String("D-Bus"), Qt::CaseInsensitive)
                || j->errorString().contains(QLatin1String("dbus"), Qt::CaseInsensitive)) {
                // No Secret Service to talk to: as good as no keychain at all.
                switchToMemory(j->errorString());
                r = fromMemory(op, key, secret);
            } else {
                r.error = QStringLiteral("keychain: %1").arg(j->errorString());
            }
            break;
        }
        guard->finish(r);
    });
    job->start();
    return call;
}
