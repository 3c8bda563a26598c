#include "views/teamcommands.h"

#include "console/alertwatch.h"
#include "console/consolesession.h"
#include "console/handoff.h"
#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "console/teamrepairs.h"
#include "services/connection.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>

namespace {

QAction *makeAction(const QString &text, const QKeySequence &key, const QString &tip)
{
    auto *a = new QAction(text);
    a->setShortcut(key);
    a->setToolTip(tip);
    a->setShortcutContext(Qt::WindowShortcut);
    return a;
}

// The incident or finding the selection names, when it names exactly one.
QString selectedItem(const CommandContext &c)
{
    if (c.selectedIncidents.size() == 1)
        return c.selectedIncidents.first();
    if (c.selectedIncidents.isEmpty() && c.selectedFindings.size() == 1)
        return c.selectedFindings.first();
    return QString();
}

} // namespace

CopyLinkCommand::CopyLinkCommand(Context context, ConsoleSession *session, QObject *parent)
    : Command(std::move(context),
        makeAction(tr("Copy &link"), QKeySequence(tr("Ctrl+Shift+L")),
            tr("Copy a flightdeck:// link to the kluster, or to the finding or incident selected "
               "(Ctrl+Shift+L)")),
        parent)
    , m_session(session)
{ }

QString CopyLinkCommand::link() const
{
    const CommandContext c = context();
    if (c.key.kluster.isEmpty())
        return QString();
    return m_session->linkOf(c.key, selectedItem(c)).toString();
}

void CopyLinkCommand::update()
{
    const CommandContext c = context();
    action()->setEnabled(!c.key.kluster.isEmpty());
    // One name, whatever is selected (the shortcut sheet and the palette list it as it is named when they
    // open); what it copies now is in its status tip.
    const QString item = selectedItem(c);
    action()->setStatusTip(item.isEmpty()     ? tr("Copy the kluster's flightdeck:// link")
            : c.selectedIncidents.size() == 1 ? tr("Copy the selected incident's flightdeck:// link")
                                              : tr("Copy the selected finding's flightdeck:// link"));
}

void CopyLinkCommand::run()
{
    const QString text = link();
    if (text.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(text);
    emit message(tr("Copied %1").arg(text), 6000);
}

CopyMarkdownCommand::CopyMarkdownCommand(Context context, ConsoleSession *session, QObject *parent)
    : Command(std::move(context),
        makeAction(tr("Copy as &Markdown"), QKeySequence(tr("Ctrl+Shift+C")),
            tr("Copy the kluster (or the incident selected) as Markdown for a ticket or a chat thread: what "
               "is wrong, since when, the alerts, who repaired what, what is left (Ctrl+Shift+C)")),
        parent)
    , m_session(session)
{ }

QString CopyMarkdownCommand::markdown() const
{
    const CommandContext c = context();
    if (c.key.kluster.isEmpty())
        return QString();
    Handoff::Facts f;
    f.key = c.key;
    f.data = c.data;
    f.now = QDateTime::currentDateTimeUtc();
    f.incident = c.selectedIncidents.size() == 1 ? c.selectedIncidents.first() : QString();
    f.link = m_session->linkOf(c.key, f.incident).toString();
    if (c.data && c.data->diagnosis)
        f.alerts = m_session->alerts()->alertsOf(c.key, *c.data);
    f.repairs = m_session->team()->recent(c.key, f.now);
    if (const FindingsSince *since = m_session->history()->findingsSince(c.key)) {
        f.since = since->findings;
        f.acknowledged = since->acknowledged;
    }
    return Handoff::markdown(f);
}

void CopyMarkdownCommand::update()
{
    const CommandContext c = context();
    action()->setEnabled(!c.key.kluster.isEmpty());
    action()->setText(c.selectedIncidents.size() == 1 ? tr("Copy the incident as &Markdown")
                                                      : tr("Copy the kluster as &Markdown"));
}

void CopyMarkdownCommand::run()
{
    const QString text = markdown();
    if (text.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(text);
    emit message(tr("Copied %1 as Markdown (%2 lines)")
                     .arg(context().key.toString())
                     .arg(text.count(QLatin1Char('\n'))),
        6000);
}

ProtectKlusterCommand::ProtectKlusterCommand(Context context, ConsoleSession *session, QObject *parent)
    : Command(std::move(context),
        makeAction(tr("Pro&tected kluster"), QKeySequence(),
            tr("Every repair of a protected kluster asks for its name typed; it is marked in the kluster "
               "list")),
        parent)
    , m_session(session)
{
    action()->setCheckable(true);
}

void ProtectKlusterCommand::update()
{
    const CommandContext c = context();
    const bool byConnection = c.connection && c.connection->spec().protectedRepairs;
    action()->setEnabled(!c.key.kluster.isEmpty() && !byConnection);
    action()->setChecked(!c.key.kluster.isEmpty() && m_session->isProtected(c.key));
    action()->setToolTip(byConnection
            ? tr("Its connection is protected: every kluster of it asks for its name "
                 "(File → Connections)")
            : tr("Every repair of a protected kluster asks for its name typed; it is "
                 "marked in the kluster list"));
}

void ProtectKlusterCommand::run()
{
    const CommandContext c = context();
    if (c.key.kluster.isEmpty())
        return;
    const bool on = !m_session->isProtected(c.key);
    m_session->setKlusterProtected(c.key, on);
    action()->setChecked(on);
    emit message(on ? tr("%1 is protected: every repair asks for its name typed").arg(c.key.toString())
                    : tr("%1 is no longer protected").arg(c.key.toString()),
        6000);
}
