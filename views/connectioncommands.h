#pragma once

#include "views/command.h"

class ConnectionRegistry;
class QWidget;

// Connections as a person manages them: Add connection… (Ctrl+Shift+N: the clouds of clouds.yaml and OS_* are
// offered, or a cloud entered by hand, tested before it is added) and Connections… (Ctrl+Shift+M: every
// connection with how it stands; add, edit, test, remove). The dialogs work on the registry.
class ConnectionCommands : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionCommands)

public:
    ConnectionCommands(ConnectionRegistry *registry, QWidget *window, QObject *parent = nullptr);

    QAction *addAction() const { return m_add; }
    QAction *manageAction() const { return m_manage; }
    // The dialogs, on top of `parent` (the window, or the Connections dialog).
    // `offerDemo`: a first launch, where the dialog also offers the built-in simulated cloud.
    void add(QWidget *parent = nullptr, bool offerDemo = false);
    void edit(const QString &name, QWidget *parent = nullptr);
    void manage();

signals:
    void dialogOpened(QDialog *dialog);
    void demoRequested(); // from the dialog of a first launch
    void message(const QString &text, int milliseconds);

private:
    void open(QDialog *dialog);

    ConnectionRegistry *m_registry;
    QWidget *m_window;
    QAction *m_add;
    QAction *m_manage;
};
