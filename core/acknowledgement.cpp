#include "core/acknowledgement.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

// What only time changes in evidence: a finding that merely ages is the same finding.
bool ageing(const QString &key)
{
    return key == QLatin1String("ageSeconds") || key == QLatin1String("forSeconds");
}

QJsonValue timeless(const QJsonValue &v)
{
    if (v.isObject()) {
        QJsonObject o;
        const QJsonObject in = v.toObject();
        for (auto it = in.begin(); it != in.end(); ++it) {
            if (!ageing(it.key()))
                o.insert(it.key(), timeless(it.value()));
        }
        return o;
    }
    if (v.isArray()) {
        QJsonArray a;
        const QJsonArray in = v.toArray();
        for (const auto &e : in)
            a.append(timeless(e));
        return a;
    }
    return v;
}

} // namespace

const QList<qint64> &Acknowledgement::durations()
{
    static const QList<qint64> d { 30 * 60, 3600, 4 * 3600, 8 * 3600, 24 * 3600 };
    return d;
}

Acknowledgement Acknowledgement::of(
    const Finding &finding, const QString &by, const QString &note, const QDateTime &at, qint64 seconds)
{
    Acknowledgement a;
    a.finding = finding.id();
    a.by = by;
    a.note = note.simplified();
    a.at = at;
    a.until = at.addSecs(seconds);
    a.severity = finding.severity;
    a.fingerprint = fingerprintOf(finding);
    return a;
}

QByteArray Acknowledgement::fingerprintOf(const Finding &finding)
{
    const QJsonObject evidence = timeless(finding.evidence()).toObject();
    return QCryptographicHash::hash(
        QJsonDocument(evidence).toJson(QJsonDocument::Compact), QCryptographicHash::Sha1)
        .toHex();
}

Acknowledgement::Standing Acknowledgement::standing(const Finding &f, const QDateTime &now) const
{
    if (!until.isValid() || now >= until)
        return Standing::Expired;
    if (f.id() != finding || f.severity != severity || fingerprintOf(f) != fingerprint)
        return Standing::Changed;
    return Standing::Holds;
}

QString Acknowledgement::text(const QString &untilText) const
{
    QString s
        = QStringLiteral("by %1 until %2").arg(by.isEmpty() ? QStringLiteral("someone") : by, untilText);
    if (!note.isEmpty())
        s += QStringLiteral(" · ") + note;
    return s;
}
