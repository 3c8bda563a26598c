#include "core/policyrule.h"

#include "core/permission.h"

#include <QRegularExpression>

struct PolicyRule::Node
{
    enum class Kind
    {
        Always, // "@", an empty rule
        Never, // "!"
        Check, // kind:match
        Not,
        And,
        Or,
    };
    Kind kind = Kind::Always;
    QString check; // the check's text, for Check
    QList<int> children;
};

namespace {

// oslo.policy's tokens: `(`, `)`, `and`, `or`, `not` (any case), a quoted string (which nothing reduces: the
// parse fails), and checks.
struct Token
{
    enum class Kind
    {
        Open,
        Close,
        And,
        Or,
        Not,
        String,
        Check,
    };
    Kind kind;
    QString text;
};

QList<Token> tokenize(const QString &rule)
{
    QList<Token> tokens;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    for (QString tok : rule.split(space, Qt::SkipEmptyParts)) {
        qsizetype open = 0;
        while (open < tok.size() && tok.at(open) == QLatin1Char('('))
            ++open;
        for (qsizetype i = 0; i < open; ++i)
            tokens.append({ Token::Kind::Open, QStringLiteral("(") });
        tok = tok.mid(open);
        if (tok.isEmpty())
            continue;
        qsizetype clean = tok.size();
        while (clean > 0 && tok.at(clean - 1) == QLatin1Char(')'))
            --clean;
        const QString word = tok.left(clean);
        const QString lowered = word.toLower();
        if (lowered == QLatin1String("and"))
            tokens.append({ Token::Kind::And, word });
        else if (lowered == QLatin1String("or"))
            tokens.append({ Token::Kind::Or, word });
        else if (lowered == QLatin1String("not"))
            tokens.append({ Token::Kind::Not, word });
        else if (!word.isEmpty()) {
            // As oslo.policy: a token quoted at both of its ends, its closing parentheses included.
            const bool quoted = tok.size() >= 2
                && ((tok.front() == QLatin1Char('"') && tok.back() == QLatin1Char('"'))
                    || (tok.front() == QLatin1Char('\'') && tok.back() == QLatin1Char('\'')));
            tokens.append({ quoted ? Token::Kind::String : Token::Kind::Check, word });
        }
        for (qsizetype i = clean; i < tok.size(); ++i)
            tokens.append({ Token::Kind::Close, QStringLiteral(")") });
    }
    return tokens;
}

// A recursive descent with oslo.policy's precedence (its greedy reductions make `not` bind tightest, then
// `and`, then `or`); what it cannot reduce to one expression fails, as there.
class Parser
{
public:
    Parser(const QList<Token> &tokens, QList<PolicyRule::Node> *nodes)
        : m_tokens(tokens)
        , m_nodes(nodes)
    { }

    bool parse(QString *error)
    {
        if (!orExpr() || m_at != m_tokens.size()) {
            *error = m_at < m_tokens.size() ? QStringLiteral("cannot be parsed at \"%1\" (token %2)")
                                                  .arg(m_tokens.at(m_at).text)
                                                  .arg(m_at + 1)
                                            : QStringLiteral("ends where an expression is expected");
            return false;
        }
        return true;
    }

private:
    using Kind = Token::Kind;
    using NodeKind = PolicyRule::Node::Kind;

    bool next(Kind kind)
    {
        if (m_at < m_tokens.size() && m_tokens.at(m_at).kind == kind) {
            ++m_at;
            return true;
        }
        return false;
    }
    int add(PolicyRule::Node node)
    {
        m_nodes->append(std::move(node));
        return int(m_nodes->size() - 1);
    }
    // One operator's operands joined in one node.
    bool joined(Kind op, NodeKind kind, bool (Parser::*operand)())
    {
        if (!(this->*operand)())
            return false;
        QList<int> children { int(m_nodes->size() - 1) };
        while (next(op)) {
            if (!(this->*operand)())
                return false;
            children.append(int(m_nodes->size() - 1));
        }
        if (children.size() > 1)
            add({ kind, QString(), children });
        return true;
    }
    bool orExpr() { return joined(Kind::Or, NodeKind::Or, &Parser::andExpr); }
    bool andExpr() { return joined(Kind::And, NodeKind::And, &Parser::unary); }
    bool unary()
    {
        if (++m_depth > MaxDepth)
            return false;
        bool ok = false;
        if (next(Kind::Not)) {
            ok = unary();
            if (ok)
                add({ NodeKind::Not, QString(), { int(m_nodes->size() - 1) } });
        } else if (next(Kind::Open)) {
            ok = orExpr() && next(Kind::Close);
        } else if (m_at < m_tokens.size() && m_tokens.at(m_at).kind == Kind::Check) {
            const QString text = m_tokens.at(m_at++).text;
            if (text == QLatin1String("@"))
                add({ NodeKind::Always, QString(), {} });
            else if (text == QLatin1String("!") || !text.contains(QLatin1Char(':')))
                add({ NodeKind::Never, text, {} }); // oslo.policy: "Failed to understand rule", a FalseCheck
            else
                add({ NodeKind::Check, text, {} });
            ok = true;
        }
        --m_depth;
        return ok;
    }

    static constexpr int MaxDepth = 200;
    const QList<Token> &m_tokens;
    QList<PolicyRule::Node> *m_nodes;
    qsizetype m_at = 0;
    int m_depth = 0;
};

using Truth = PolicyRule::Truth;

Truth truthOf(bool b)
{
    return b ? Truth::True : Truth::False;
}

// A check other than `rule:`, from the token alone where it can be: `role:`, the scope, and the project the
// resource belongs to (Flightdeck acts on the token's own project's resources); the rest undecided.
Truth judgeCheck(const QString &check, const TokenIdentity &identity)
{
    const QString kind = check.section(QLatin1Char(':'), 0, 0);
    const QString match = check.section(QLatin1Char(':'), 1);
    if (kind == QLatin1String("role") && !match.contains(QLatin1String("%("))) {
        // oslo.policy compares role names without case.
        for (const QString &role : identity.roles) {
            if (role.compare(match, Qt::CaseInsensitive) == 0)
                return Truth::True;
        }
        return truthOf(identity.hasRole(match.toLower()));
    }
    static const QStringList ownProject { QStringLiteral("%(project_id)s"), QStringLiteral("%(tenant_id)s"),
        QStringLiteral("%(target.project.id)s") };
    if ((kind == QLatin1String("project_id") || kind == QLatin1String("tenant_id"))
        && ownProject.contains(match))
        return identity.projectId.isEmpty() ? Truth::Unknown : Truth::True;
    if (kind == QLatin1String("system_scope") && match == QLatin1String("all"))
        return truthOf(identity.systemScope);
    // The service sets is_admin from its own context_is_admin rule (role:admin by default).
    if (kind == QLatin1String("is_admin") && match.compare(QLatin1String("True"), Qt::CaseInsensitive) == 0
        && identity.hasRole(QStringLiteral("admin")))
        return Truth::True;
    return Truth::Unknown;
}

} // namespace

PolicyRule PolicyRule::parse(const QString &text)
{
    PolicyRule rule;
    rule.m_text = text;
    auto nodes = std::make_shared<QList<Node>>();
    const QList<Token> tokens = tokenize(text);
    if (tokens.isEmpty()) {
        nodes->append({ Node::Kind::Always, QString(), {} }); // oslo.policy: an empty rule always passes
    } else {
        Parser parser(tokens, nodes.get());
        if (!parser.parse(&rule.m_error)) {
            nodes->clear();
            nodes->append({ Node::Kind::Never, QString(), {} }); // and one it cannot parse never does
        }
    }
    rule.m_nodes = std::move(nodes);
    return rule;
}

PolicyRule::Truth PolicyRule::judge(
    const TokenIdentity &identity, const Resolve &resolve, QStringList *undecided) const
{
    if (!m_nodes || m_nodes->isEmpty())
        return Truth::True;
    return judgeNode(int(m_nodes->size() - 1), identity, resolve, undecided, 0);
}

PolicyRule::Truth PolicyRule::judgeNode(
    int at, const TokenIdentity &identity, const Resolve &resolve, QStringList *undecided, int depth) const
{
    const Node &node = m_nodes->at(at);
    switch (node.kind) {
    case Node::Kind::Always:
        return Truth::True;
    case Node::Kind::Never:
        return Truth::False;
    case Node::Kind::Not: {
        const Truth t = judgeNode(node.children.front(), identity, resolve, undecided, depth);
        return t == Truth::Unknown ? t : truthOf(t == Truth::False);
    }
    case Node::Kind::And:
    case Node::Kind::Or: {
        // Kleene's: a false operand decides `and`, a true one `or`, whatever the unknown ones would be.
        const Truth decides = node.kind == Node::Kind::And ? Truth::False : Truth::True;
        bool unknown = false;
        for (int child : node.children) {
            const Truth t = judgeNode(child, identity, resolve, undecided, depth);
            if (t == decides)
                return t;
            unknown = unknown || t == Truth::Unknown;
        }
        if (unknown)
            return Truth::Unknown;
        return decides == Truth::False ? Truth::True : Truth::False;
    }
    case Node::Kind::Check:
        break;
    }
    if (node.check.startsWith(QLatin1String("rule:"))) {
        const QString name = node.check.mid(5);
        const PolicyRule *referred = resolve ? resolve(name) : nullptr;
        // A rule that refers to itself (oslo.policy recurses until Python stops it) is not judged.
        if (!referred || depth >= 32 || !referred->m_nodes || referred->m_nodes->isEmpty()) {
            if (undecided)
                undecided->append(node.check);
            return Truth::Unknown;
        }
        return referred->judgeNode(
            int(referred->m_nodes->size() - 1), identity, resolve, undecided, depth + 1);
    }
    const Truth t = judgeCheck(node.check, identity);
    if (t == Truth::Unknown && undecided)
        undecided->append(node.check);
    return t;
}
