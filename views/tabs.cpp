#include "views/tabs.h"

#include "models/consolemodels.h"
#include "models/klustersmodel.h"
#include "views/auditpage.h"
#include "views/changespage.h"
#include "views/findingspage.h"
#include "views/fleetpage.h"
#include "views/nodespage.h"
#include "views/overviewpage.h"
#include "views/routespage.h"
#include "views/securitypage.h"

#include <QCoreApplication>

namespace Tabs {

const QList<TabInfo> &all()
{
    using Captions = ConsoleText::Captions;
    using Kind = RowCopies::RowKind;
    using M = ConsoleModels;
    static const QList<TabInfo> tabs = {
        { Tab::Overview, "overview", QT_TRANSLATE_NOOP("Tabs", "Overview"),
            [](M &, QWidget *parent) -> QWidget * { return new OverviewPage(parent); }, true },
        { Tab::Findings, "findings", QT_TRANSLATE_NOOP("Tabs", "Findings"),
            [](M &m, QWidget *parent) -> QWidget * { return new FindingsPage(m.findings(), parent); }, false,
            Kind::Finding, &Captions::findings },
        { Tab::Nodes, "nodes", QT_TRANSLATE_NOOP("Tabs", "Nodes"),
            [](M &m, QWidget *parent) -> QWidget * { return new NodesPage(m.nodes(), parent); }, false,
            Kind::Node, &Captions::nodes },
        { Tab::Routes, "routes", QT_TRANSLATE_NOOP("Tabs", "Routes"),
            [](M &m, QWidget *parent) -> QWidget * { return new RoutesPage(m.routes(), parent); }, false,
            Kind::Route, &Captions::routes },
        { Tab::Security, "security", QT_TRANSLATE_NOOP("Tabs", "Security group"),
            [](M &m, QWidget *parent) -> QWidget * { return new SecurityPage(m.security(), parent); }, false,
            Kind::Security, &Captions::security },
        { Tab::Audit, "audit", QT_TRANSLATE_NOOP("Tabs", "Audit log"),
            [](M &m, QWidget *parent) -> QWidget * { return new AuditPage(m.audit(), parent); } },
        { Tab::Fleet, "fleet", QT_TRANSLATE_NOOP("Tabs", "Fleet"),
            [](M &m, QWidget *parent) -> QWidget * { return new FleetPage(m.klusters(), parent); } },
        { Tab::Changes, "changes", QT_TRANSLATE_NOOP("Tabs", "Changes"),
            [](M &, QWidget *parent) -> QWidget * { return new ChangesPage(parent); } },
    };
    return tabs;
}

const TabInfo &info(Tab tab)
{
    return all().at(int(tab));
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
