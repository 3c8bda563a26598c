#include "views/connectioncommands.h"

#include "console/connectionregistry.h"
#include "views/command.h"
#include "views/connectiondialog.h"
#include "views/connectionsdialog.h"

#include <QAction>

ConnectionCommands::ConnectionCommands(ConnectionRegistry *registry, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_window(window)
    , m_add(new QAction(tr("&Add connection…"), this))
    , m_manage(new QAction(tr("&Connections…"), this))
{
    m_add->setShortcut(QKeySequence(tr("Ctrl+Shift+N")));
    connect(m_add, &QAction::triggered, this, [this] { add(); });
    m_manage->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    m_manage->setToolTip(tr("List, add, edit, test and remove connections"));
    connect(m_manage, &QAction::triggered, this, &ConnectionCommands::manage);
}

void ConnectionCommands::open(QDialog *dialog)
{
    presentDialog(dialog);
    emit dialogOpened(dialog);
}

void ConnectionCommands::add(QWidget *parent, bool offerDemo)
{
    auto *dialog = new ConnectionDialog(m_registry->namesTaken(), std::nullopt, parent ? parent : m_window);
    if (offerDemo) {
        dialog->offerDemo();
        connect(dialog, &ConnectionDialog::demoRequested, this, &ConnectionCommands::demoRequested);
    }
    dialog->setTester([this](const ConnectionSpec &spec, QObject *context,
                          const ConnectionDialog::TestDone &done) { m_registry->test(spec, context, done); });
    connect(dialog, &QDialog::accepted, this,
        [this, dialog] { m_registry->addEntered(dialog->spec(), dialog->secret()); });
    open(dialog);
}

void ConnectionCommands::edit(const QString &name, QWidget *parent)
{
    Connection *c = m_registry->connection(name);
    if (!c || c->spec().isSnapshot())
        return;
    auto *dialog = new ConnectionDialog({}, m_registry->editableSpec(name), parent ? parent : m_window);
    dialog->setTester([this](const ConnectionSpec &spec, QObject *context,
                          const ConnectionDialog::TestDone &done) { m_registry->test(spec, context, done); });
    connect(dialog, &QDialog::accepted, this, [this, dialog, name] {
        m_registry->replace(name, dialog->spec(), dialog->secret());
        emit message(tr("Connection %1 saved; listing its klusters again").arg(name), 10000);
    });
    open(dialog);
}

void ConnectionCommands::manage()
{
    auto *dialog = new ConnectionsDialog(m_registry, m_window);
    connect(dialog, &ConnectionsDialog::addRequested, this, [this, dialog] { add(dialog); });
    connect(dialog, &ConnectionsDialog::editRequested, this,
        [this, dialog](const QString &name) { edit(name, dialog); });
    open(dialog);
}
