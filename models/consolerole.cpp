#include "models/consolerole.h"

#include <algorithm>

namespace ConsoleRole {

QVariant severityData(std::optional<::Severity> severity)
{
    return severity ? QVariant::fromValue(*severity) : QVariant();
}

std::optional<::Severity> severityOf(const QModelIndex &index)
{
    const QVariant v = index.siblingAtColumn(0).data(Severity);
    if (!v.isValid())
        return std::nullopt;
    return v.value<::Severity>();
}

QStringList severityField(std::optional<::Severity> severity)
{
    return severity ? QStringList { severityName(*severity) } : QStringList();
}

std::optional<::Severity> worse(std::optional<::Severity> a, std::optional<::Severity> b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::min(*a, *b); // Critical is the lowest
}

} // namespace ConsoleRole

QString ConsoleRole::counted(qsizetype n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}
