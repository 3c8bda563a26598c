#include "views/command.h"

#include "console/klusterstore.h"
#include "services/connection.h"

#include <QAction>
#include <QDialog>

bool CommandContext::repairable() const
{
    return connection && !connection->isReadOnly() && data && data->diagnosis && shown;
}

Command::Command(Context context, QAction *action, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
    , m_action(action)
{
    m_action->setParent(this);
    connect(m_action, &QAction::triggered, this, [this] { run(); });
}

void presentDialog(QDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    dialog->raise();
    dialog->activateWindow(); // the keyboard goes to the dialog, whatever the window manager does
}

void Command::open(QDialog *dialog)
{
    presentDialog(dialog);
    emit dialogOpened(dialog);
}
