#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

// The filter syntax of every console table and of the kluster list, like
// k9s' "/": free words match the row's names (id, kind, subject, the objects
// it is about); `field:value` matches one field (`kind:route-duplicate`,
// `severity:critical`, `node:…`, `pool:…`, `nexthop:…`); a leading `-`
// excludes; "double quotes" keep spaces. Every term must hold. Matching is
// case-insensitive and by substring; a field may be abbreviated to any
// unambiguous prefix (`sev:crit`).
class FilterQuery
{
public:
    struct Term
    {
        QString field; // empty: a free word
        QString value;
        bool negated = false;
    };

    FilterQuery() = default;
    // `knownFields`: the fields the table has; others are reported by error().
    static FilterQuery parse(const QString &text, const QStringList &knownFields = {});

    bool isEmpty() const { return m_terms.isEmpty(); }
    const QList<Term> &terms() const { return m_terms; }
    // Why the text is not understood as a whole (an unknown or ambiguous field); empty when it is.
    QString error() const { return m_error; }

    // `fields`: field -> QStringList of the row's values. Free words match the
    // values of every field.
    bool matches(const QVariantMap &fields) const;
    // For rows without fields: every term (field terms too) against the row's text.
    bool matchesText(const QString &text) const;

private:
    QList<Term> m_terms;
    QString m_error;
};
