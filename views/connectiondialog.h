#pragma once

#include "connection.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QWidget;

// Adds a connection: one of the clouds found in clouds.yaml or the OS_*
// variables, or a cloud given here; optionally the kubeconfig context to read
// nodes from; read-only or not. The password or application credential
// secret goes to the keychain, never to a file.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionDialog)

public:
    explicit ConnectionDialog(const QStringList &takenNames, QWidget *parent = nullptr);

    // The connection as entered (its config carries the secret for this run only).
    ConnectionSpec spec() const;
    QString secret() const;

    void accept() override;

private:
    void updateForm();

    QStringList m_taken;
    QComboBox *m_source;
    QLineEdit *m_name;
    QWidget *m_custom;
    QComboBox *m_authType;
    QLineEdit *m_authUrl;
    QLineEdit *m_user;
    QLineEdit *m_userDomain;
    QLineEdit *m_project;
    QLineEdit *m_projectDomain;
    QLineEdit *m_region;
    QLineEdit *m_caFile;
    QLineEdit *m_secret;
    QComboBox *m_kubeContext;
    QCheckBox *m_readOnly;
    QLabel *m_error;
};
