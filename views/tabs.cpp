#include "views/tabs.h"

#include <QCoreApplication>

namespace Tabs {

const QList<TabInfo> &all()
{
    static const QList<TabInfo> tabs = {
        { Tab::Overview, "overview", QT_TRANSLATE_NOOP("Tabs", "Overview") },
        { Tab::Findings, "findings", QT_TRANSLATE_NOOP("Tabs", "Findings") },
        { Tab::Nodes, "nodes", QT_TRANSLATE_NOOP("Tabs", "Nodes") },
        { Tab::Routes, "routes", QT_TRANSLATE_NOOP("Tabs", "Routes") },
        { Tab::Security, "security", QT_TRANSLATE_NOOP("Tabs", "Security group") },
        { Tab::Audit, "audit", QT_TRANSLATE_NOOP("Tabs", "Audit log") },
        { Tab::Fleet, "fleet", QT_TRANSLATE_NOOP("Tabs", "Fleet") },
        { Tab::Changes, "changes", QT_TRANSLATE_NOOP("Tabs", "Changes") },
    };
    return tabs;
}

QString title(Tab tab)
{
    return QCoreApplication::translate("Tabs", all().at(int(tab)).title);
}

QString name(Tab tab)
{
    return QString::fromLatin1(all().at(int(tab)).name);
}

QKeySequence shortcut(Tab tab)
{
    return QKeySequence(QStringLiteral("Ctrl+%1").arg(int(tab) + 1));
}

std::optional<Tab> fromName(const QString &name)
{
    for (const TabInfo &t : all()) {
        if (name == QLatin1String(t.name))
            return t.tab;
    }
    return std::nullopt;
}

QStringList names()
{
    QStringList list;
    for (const TabInfo &t : all())
        list << QString::fromLatin1(t.name);
    return list;
}

} // namespace Tabs
