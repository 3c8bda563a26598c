#include "core/statechange.h"

#include <array>

namespace {

struct CategoryTraits
{
    ChangeCategory category;
    const char *name;
    const char *heading;
};

constexpr std::array<CategoryTraits, 7> Categories { {
    { ChangeCategory::Instance, "instance", "Instances" },
    { ChangeCategory::Node, "node", "Nodes" },
    { ChangeCategory::Route, "route", "Routes" },
    { ChangeCategory::Rule, "rule", "Security group rules" },
    { ChangeCategory::Membership, "membership", "Security group memberships" },
    { ChangeCategory::Finding, "finding", "Findings" },
    { ChangeCategory::Kluster, "kluster", "The kluster" },
} };

struct KindTraits
{
    ChangeKind kind;
    const char *name;
    StateChanges::Direction direction;
};

using D = StateChanges::Direction;
constexpr std::array<KindTraits, 5> Kinds { {
    { ChangeKind::Added, "added", D::Came },
    { ChangeKind::Changed, "changed", D::Changed },
    { ChangeKind::Opened, "opened", D::Came },
    { ChangeKind::Removed, "removed", D::Went },
    { ChangeKind::Resolved, "resolved", D::Went },
} };

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < Categories.size(); ++i) {
        if (Categories[i].category != ChangeCategory(i))
            return false;
    }
    for (std::size_t i = 0; i < Kinds.size(); ++i) {
        if (Kinds[i].kind != ChangeKind(i))
            return false;
    }
    return true;
}
static_assert(inEnumOrder(), "one entry per category and per kind, in the order of the enums");

} // namespace

const QList<ChangeCategory> &StateChanges::categories()
{
    static const QList<ChangeCategory> list = [] {
        QList<ChangeCategory> all;
        for (const CategoryTraits &t : Categories)
            all << t.category;
        return all;
    }();
    return list;
}

QString StateChanges::name(ChangeCategory category)
{
    return QString::fromLatin1(Categories.at(std::size_t(category)).name);
}

QString StateChanges::heading(ChangeCategory category)
{
    return QString::fromLatin1(Categories.at(std::size_t(category)).heading);
}

QString StateChanges::name(ChangeKind kind)
{
    return QString::fromLatin1(Kinds.at(std::size_t(kind)).name);
}

StateChanges::Direction StateChanges::direction(ChangeKind kind)
{
    return Kinds.at(std::size_t(kind)).direction;
}

QChar StateChanges::mark(ChangeKind kind, MarkStyle style)
{
    switch (direction(kind)) {
    case Direction::Came:
        return QLatin1Char('+');
    case Direction::Went:
        return style == MarkStyle::Ascii ? QChar(QLatin1Char('-')) : QChar(0x2212);
    case Direction::Changed:
        break;
    }
    return QLatin1Char('~');
}
