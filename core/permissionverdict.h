#pragma once

#include <QString>

// Whether these credentials may send one request (diagnosis.md §8), judged before it is sent.
enum class Permission
{
    Allowed,
    Denied, // with why: the role or the access rule it needs
    Unknown, // no rule known for it, or the token not read: offered with a note
};

namespace Permissions {
QString name(Permission permission); // "allowed", "denied", "unknown" (the JSON report's words)
}

struct PermissionVerdict
{
    Permission permission = Permission::Unknown;
    QString
        reason; // empty when allowed: "update_router needs the role member … these credentials have reader"

    bool denied() const { return permission == Permission::Denied; }
};
