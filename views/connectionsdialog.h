#pragma once

#include <QDialog>

class ConnectionRegistry;
class QLabel;
class QPushButton;
class QTreeWidget;

// File → Connections…: every connection of the console with how it stands
// (its klusters, or the error that keeps it from listing them); Add, Edit,
// Test (sign in and list the klusters, showing the server's own answer) and
// Remove (confirmed; its keychain entry goes with it).
class ConnectionsDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionsDialog)

public:
    explicit ConnectionsDialog(ConnectionRegistry *registry, QWidget *parent = nullptr);

    QTreeWidget *list() const { return m_list; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *editButton() const { return m_edit; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *removeButton() const { return m_remove; }
    QLabel *messageLabel() const { return m_message; }
    bool selectConnection(const QString &name);

signals:
    // Add… and Edit… (a double click too): asked of whoever opened the dialog (ConnectionCommands), which
    // opens the connection dialog over this one; this dialog calls nothing above it.
    void addRequested();
    void editRequested(const QString &name);
    void tested(const QString &name, bool ok, const QString &what);
    void removeConfirmationOpened(QDialog *box);

private:
    void reload();
    QString selected() const;
    void updateButtons();
    void confirmRemove();
    void test();

    ConnectionRegistry *m_registry;
    QTreeWidget *m_list;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_test;
    QPushButton *m_remove;
    QLabel *m_message;
};
