#include "core/klusterfetch.h"

#include <algorithm>

QString SourceError::toString() const
{
    QString text = error.toString();
    if (!source.isEmpty())
        text = source + QStringLiteral(": ") + text;
    if (!assumed.isEmpty())
        text += QStringLiteral(" (assuming %1)").arg(assumed);
    return text;
}

QString SourceError::joined(const QList<SourceError> &errors)
{
    QStringList lines;
    for (const SourceError &e : errors)
        lines << e.toString();
    return lines.join(QStringLiteral("; "));
}

bool SourceError::retryCanHelp(const QList<SourceError> &errors)
{
    return std::any_of(
        errors.cbegin(), errors.cend(), [](const SourceError &e) { return e.error.retryCanHelp(); });
}
