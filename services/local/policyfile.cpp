#include "services/local/policyfile.h"

#include "core/json/jsonreader.h"
#include "services/local/localfile.h"

#include <QRegularExpression>
#include <yaml-cpp/yaml.h>

namespace {

// The old list-of-lists form (oslo.policy's _parse_list_rule): the outer list `or`, each inner one `and`, an
// empty one always, a list of empty lists never.
QString listRule(const QString &source, const QString &name, const YAML::Node &list)
{
    if (list.size() == 0)
        return QStringLiteral("@");
    QStringList alternatives;
    for (const YAML::Node &inner : list) {
        QStringList all;
        const auto checkOf = [&](const YAML::Node &check) {
            if (!check.IsScalar())
                throw ParseError(source, name, QStringLiteral("a check of the list form is not a string"));
            const QString text = QString::fromStdString(check.Scalar()).trimmed();
            // One check of the list form is one token, whatever it holds.
            all << (text.isEmpty() || text.contains(QRegularExpression(QStringLiteral("[\\s()]")))
                    ? QStringLiteral("!")
                    : text);
        };
        if (inner.IsScalar())
            checkOf(inner);
        else if (inner.IsSequence())
            for (const YAML::Node &check : inner)
                checkOf(check);
        else
            throw ParseError(source, name, QStringLiteral("the list form holds neither a list nor a string"));
        if (!all.isEmpty())
            alternatives << QStringLiteral("(") + all.join(QStringLiteral(" and ")) + QStringLiteral(")");
    }
    return alternatives.isEmpty() ? QStringLiteral("!") : alternatives.join(QStringLiteral(" or "));
}

} // namespace

PolicyOverride PolicyFiles::parse(const QString &service, const QString &source, const QByteArray &text)
{
    PolicyOverride file;
    file.service = service;
    file.source = source;
    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::Exception &e) {
        throw ParseError(source, QString(), QString::fromStdString(e.what()));
    }
    if (root.IsNull())
        return file; // an empty file changes nothing (oslo.policy: no rules)
    if (!root.IsMap())
        throw ParseError(source, QString(),
            QStringLiteral("not a policy file: a map of policy names to rules is expected"));
    for (const auto &entry : root) {
        if (!entry.first.IsScalar())
            throw ParseError(source, QString(), QStringLiteral("a policy's name is not a string"));
        const QString name = QString::fromStdString(entry.first.Scalar());
        const YAML::Node &value = entry.second;
        QString rule;
        if (value.IsNull())
            rule = QString();
        else if (value.IsScalar())
            rule = QString::fromStdString(value.Scalar());
        else if (value.IsSequence())
            rule = listRule(source, name, value);
        else
            throw ParseError(source, name, QStringLiteral("the rule is neither a string nor a list"));
        file.rules.insert(name, PolicyRule::parse(rule));
    }
    return file;
}

std::optional<PolicyOverride> PolicyFiles::load(const QString &spec, QString *error)
{
    static const QStringList services { QStringLiteral("compute"), QStringLiteral("network"),
        QStringLiteral("identity"), QStringLiteral("kubernikus") };
    QString service;
    QString path = spec;
    const qsizetype equals = spec.indexOf(QLatin1Char('='));
    if (equals > 0 && services.contains(spec.left(equals))) {
        service = spec.left(equals);
        path = spec.mid(equals + 1);
    }
    if (path.isEmpty()) {
        *error = QStringLiteral("%1: no file named").arg(spec);
        return std::nullopt;
    }
    const std::optional<QByteArray> text = LocalFile::read(path, LocalFile::ConfigLimit, error);
    if (!text)
        return std::nullopt;
    try {
        return parse(service, path, *text);
    } catch (const ParseError &e) {
        *error = e.toString();
        return std::nullopt;
    }
}

bool PolicyFiles::profile(const QStringList &specs, std::shared_ptr<const PolicyProfile> *out, QString *error)
{
    out->reset();
    QList<PolicyOverride> overrides;
    for (const QString &spec : specs) {
        std::optional<PolicyOverride> file = load(spec, error);
        if (!file)
            return false;
        overrides.append(std::move(*file));
    }
    if (!overrides.isEmpty())
        *out = std::make_shared<const PolicyProfile>(PolicyProfile::withOverrides(std::move(overrides)));
    return true;
}
