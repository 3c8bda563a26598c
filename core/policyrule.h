#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

struct TokenIdentity;

// One rule of an oslo.policy file, the language every OpenStack service's policy is written in
// ("role:member and project_id:%(project_id)s", "rule:admin_only or role:network_admin"), parsed as
// oslo.policy's _parser does (tokens split at whitespace, parentheses peeled off a token's ends, `not`
// before `and` before `or`, `@` always, `!` never, an empty rule always) and judged before a request is sent,
// three-valued: what cannot be known from the token alone (whose the resource is, a field of it) is unknown,
// never guessed (docs/wire-formats.md, "A policy file").
class PolicyRule
{
public:
    enum class Truth
    {
        False,
        True,
        Unknown,
    };

    // Never throws: a rule oslo.policy cannot parse is one that denies (oslo.policy's FalseCheck), and says
    // so (parsed() false, error()).
    static PolicyRule parse(const QString &text);

    QString text() const { return m_text; }
    bool parsed() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

    // What `rule:name` refers to (the same file's rule, else a default one), or null: oslo.policy fails
    // closed on a rule it does not have, but the service's own defaults are not known here, so unknown.
    using Resolve = std::function<const PolicyRule *(const QString &name)>;
    // The rule judged for `identity`; each check that could not be judged from the token alone appended to
    // `undecided` ("user_id:%(user_id)s").
    Truth judge(const TokenIdentity &identity, const Resolve &resolve, QStringList *undecided) const;

    struct Node; // one of its parse tree's (policyrule.cpp)

private:
    Truth judgeNode(int at, const TokenIdentity &identity, const Resolve &resolve, QStringList *undecided,
        int depth) const;

    QString m_text;
    QString m_error;
    std::shared_ptr<const QList<Node>> m_nodes; // the root last; empty when not parsed
};
