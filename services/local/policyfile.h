#pragma once

#include "core/permission.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

// The policy files a person names (`--policy [SERVICE=]FILE`, a connection's "Policy files"): a cloud's
// oslo.policy overrides, YAML or JSON (oslo.policy reads both as YAML), each a map of policy name → rule (or
// the old list of lists), judged in place of the defaults for the policies it names (diagnosis.md §8,
// docs/wire-formats.md "A policy file").
namespace PolicyFiles {

// The rules of one file's text. Throws ParseError naming `source` for what is not a map of rules.
PolicyOverride parse(const QString &service, const QString &source, const QByteArray &text);

// One "[SERVICE=]FILE" read: SERVICE a catalog type (compute, network, identity, kubernikus); nullopt with
// `error` ("<file>: <why>") when it cannot be read or is not a policy file.
std::optional<PolicyOverride> load(const QString &spec, QString *error);

// The profile the defaults and `specs` make into `out` (null when `specs` is empty: the defaults); false with
// `error` when one of them cannot be used.
bool profile(const QStringList &specs, std::shared_ptr<const PolicyProfile> *out, QString *error);

} // namespace PolicyFiles
