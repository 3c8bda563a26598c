#pragma once

#include <QString>
#include <yaml-cpp/yaml.h>

// The text of `key` in a YAML map, or empty: when the node is no map (a
// subscript of a scalar or a list throws), the key is absent, or its value is
// not a scalar. For the credential files (clouds.yaml, kubeconfig) only.
inline QString yamlText(const YAML::Node &node, const char *key)
{
    if (!node.IsMap())
        return QString();
    const YAML::Node v = node[key];
    if (!v || !v.IsScalar())
        return QString();
    return QString::fromStdString(v.as<std::string>());
}
