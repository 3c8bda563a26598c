#include "models/filterquery.h"

namespace {

// The words of `text`, split at spaces outside "double quotes"; quotes removed.
QStringList tokens(const QString &text)
{
    QStringList out;
    QString current;
    bool quoted = false;
    bool any = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            any = true;
        } else if (c.isSpace() && !quoted) {
            if (any || !current.isEmpty())
                out << current;
            current.clear();
            any = false;
        } else {
            current += c;
        }
    }
    if (any || !current.isEmpty())
        out << current;
    return out;
}

bool anyContains(const QStringList &values, const QString &needle)
{
    for (const QString &v : values) {
        if (v.contains(needle, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace

FilterQuery FilterQuery::parse(const QString &text, const QStringList &knownFields)
{
    FilterQuery q;
    QStringList problems;
    for (QString token : tokens(text)) {
        Term t;
        if (token.startsWith(QLatin1Char('-')) && token.size() > 1) {
            t.negated = true;
            token.remove(0, 1);
        }
        const qsizetype colon = token.indexOf(QLatin1Char(':'));
        // "field:value"; a colon further in (an IPv6 address, a finding id "kind:subject") stays a word
        // unless the part before it is a field name.
        if (colon > 0) {
            const QString name = token.left(colon).toLower();
            QStringList candidates;
            for (const QString &f : knownFields) {
                if (f == name) {
                    candidates = QStringList { f };
                    break;
                }
                if (f.startsWith(name))
                    candidates << f;
            }
            if (candidates.size() == 1) {
                t.field = candidates.first();
                t.value = token.mid(colon + 1);
            } else if (knownFields.isEmpty() || !name.contains(QLatin1Char('-'))) {
                // Not a field of this table. Finding ids ("route-duplicate:…") are words; a bare unknown name
                // is an error.
                if (!knownFields.isEmpty() && candidates.isEmpty() && !name.front().isDigit())
                    problems << QObject::tr("no field \"%1\" here (fields: %2)")
                                    .arg(name, knownFields.join(QStringLiteral(", ")));
                else if (candidates.size() > 1)
                    problems << QObject::tr("\"%1\" could be %2")
                                    .arg(name, candidates.join(QStringLiteral(" or ")));
                t.value = token;
            } else {
                t.value = token;
            }
        } else {
            t.value = token;
        }
        if (t.value.isEmpty() && t.field.isEmpty())
            continue;
        q.m_terms << t;
    }
    q.m_error = problems.join(QStringLiteral("; "));
    return q;
}

bool FilterQuery::matches(const QVariantMap &fields) const
{
    for (const Term &t : m_terms) {
        bool hit = false;
        if (t.field.isEmpty()) {
            for (auto it = fields.cbegin(); it != fields.cend() && !hit; ++it)
                hit = anyContains(it.value().toStringList(), t.value);
        } else {
            const QStringList values = fields.value(t.field).toStringList();
            // "field:" alone: rows that have any value in the field.
            hit = t.value.isEmpty() ? !values.isEmpty() : anyContains(values, t.value);
        }
        if (hit == t.negated)
            return false;
    }
    return true;
}

bool FilterQuery::matchesText(const QString &text) const
{
    for (const Term &t : m_terms) {
        const bool hit = text.contains(t.value, Qt::CaseInsensitive);
        if (hit == t.negated)
            return false;
    }
    return true;
}
