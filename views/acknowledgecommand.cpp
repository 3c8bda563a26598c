#include "views/acknowledgecommand.h"

#include "console/historyclient.h"
#include "console/klusterstore.h"
#include "core/acknowledgement.h"
#include "services/connection.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <pwd.h>
#include <unistd.h>

namespace {

QAction *actionFor(AcknowledgeCommand::Scope scope)
{
    if (scope == AcknowledgeCommand::Scope::Acknowledge) {
        auto *a = new QAction(QObject::tr("Acknowle&dge…"));
        a->setShortcut(QKeySequence(QObject::tr("Ctrl+Shift+A")));
        a->setToolTip(QObject::tr("Say you are handling the selected findings: they stop notifying and sink "
                                  "below the others of their severity until the time you choose runs out or "
                                  "they change (Ctrl+Shift+A)"));
        return a;
    }
    auto *a = new QAction(QObject::tr("Wit&hdraw acknowledgement"));
    a->setShortcut(QKeySequence(QObject::tr("Ctrl+Shift+U")));
    a->setToolTip(QObject::tr("Nobody is handling the selected findings any more (Ctrl+Shift+U)"));
    return a;
}

QString durationText(qint64 seconds)
{
    return seconds < 3600 ? QObject::tr("%n minute(s)", nullptr, int(seconds / 60))
        : seconds < 86400 ? QObject::tr("%n hour(s)", nullptr, int(seconds / 3600))
                          : QObject::tr("%n day(s)", nullptr, int(seconds / 86400));
}

} // namespace

AcknowledgeCommand::AcknowledgeCommand(Scope scope, Context context, KlusterStore *store,
    HistoryClient *history, QWidget *window, QObject *parent)
    : Command(std::move(context), actionFor(scope), parent)
    , m_scope(scope)
    , m_store(store)
    , m_history(history)
    , m_window(window)
{ }

QString AcknowledgeCommand::localUser()
{
    if (const passwd *pw = getpwuid(getuid()); pw && pw->pw_name && *pw->pw_name)
        return QString::fromLocal8Bit(pw->pw_name);
    const QString user = qEnvironmentVariable("USER");
    return user.isEmpty() ? QStringLiteral("uid %1").arg(getuid()) : user;
}

QStringList AcknowledgeCommand::targets() const
{
    const CommandContext c = context();
    if (!c.connection || c.connection->spec().isSnapshot() || !c.data || !c.data->diagnosis || !c.shown
        || !m_history->canAcknowledge(c.key))
        return {};
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList ids;
    for (const QString &id : c.selectedFindings) {
        const Finding *f = c.data->diagnosis->find(id);
        if (!f)
            continue;
        const bool held = m_history->acknowledgement(c.key, *f, now) != nullptr;
        if (held == (m_scope == Scope::Withdraw))
            ids << id;
    }
    return ids;
}

void AcknowledgeCommand::update()
{
    const QStringList ids = targets();
    action()->setEnabled(!ids.isEmpty());
    if (m_scope == Scope::Acknowledge)
        action()->setText(
            ids.size() > 1 ? tr("Acknowle&dge %1 findings…").arg(ids.size()) : tr("Acknowle&dge…"));
}

void AcknowledgeCommand::acknowledge(
    const KlusterKey &key, const QStringList &findings, qint64 seconds, const QString &note)
{
    const KlusterData *data = m_store->data(key);
    if (!data || !data->diagnosis || !m_history->canAcknowledge(key)) {
        emit message(tr("Not acknowledged: %1 has no refresh in the history yet").arg(key.toString()), 8000);
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString by = localUser();
    int done = 0;
    QStringList ids;
    for (const QString &id : findings) { // an incident (a notification's): its findings
        const auto incident = std::find_if(data->diagnosis->incidents.cbegin(),
            data->diagnosis->incidents.cend(), [&id](const Incident &i) { return i.id() == id; });
        ids << (incident != data->diagnosis->incidents.cend() ? incident->members : QStringList { id });
    }
    for (const QString &id : std::as_const(ids)) {
        if (const Finding *f = data->diagnosis->find(id)) {
            m_history->acknowledge(key, Acknowledgement::of(*f, by, note, now, seconds));
            ++done;
        }
    }
    emit message(tr("Acknowledged %n finding(s) of %1 for %2, as %3", nullptr, done)
                     .arg(key.toString(), durationText(seconds), by),
        8000);
}

void AcknowledgeCommand::run()
{
    const QStringList ids = targets();
    if (ids.isEmpty())
        return;
    const KlusterKey key = context().key;
    if (m_scope == Scope::Withdraw) {
        for (const QString &id : ids)
            m_history->unacknowledge(key, id);
        emit message(tr("Withdrew the acknowledgement of %n finding(s)", nullptr, int(ids.size())), 8000);
        return;
    }
    auto *dialog = new QDialog(m_window);
    dialog->setWindowTitle(tr("Acknowledge — Flightdeck"));
    auto *form = new QFormLayout(dialog);
    auto *what = new QLabel(ids.size() == 1
            ? tr("<b>%1</b> on %2").arg(ids.first().toHtmlEscaped(), key.toString().toHtmlEscaped())
            : tr("<b>%1 findings</b> on %2, the first %3")
                  .arg(ids.size())
                  .arg(key.toString().toHtmlEscaped(), ids.first().toHtmlEscaped()),
        dialog);
    what->setTextFormat(Qt::RichText); // its names escaped above
    what->setWordWrap(true);
    form->addRow(what);
    auto *duration = new QComboBox(dialog);
    for (const qint64 s : Acknowledgement::durations())
        duration->addItem(durationText(s), s);
    duration->setCurrentIndex(1); // an hour
    form->addRow(tr("&For:"), duration);
    auto *note = new QLineEdit(dialog);
    note->setPlaceholderText(tr("optional: what you are doing about it"));
    note->setMaxLength(200);
    form->addRow(tr("&Note:"), note);
    auto *explain = new QLabel(tr("As %1. It stops notifying and sinks below the unacknowledged findings of "
                                  "its severity; it comes back when it changes or the time runs out.")
                                   .arg(localUser().toHtmlEscaped()),
        dialog);
    explain->setTextFormat(Qt::RichText);
    explain->setWordWrap(true);
    form->addRow(explain);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Acknowledge"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, key, ids, duration, note] {
        acknowledge(key, ids, duration->currentData().toLongLong(), note->text());
    });
    duration->setFocus();
    open(dialog);
}
