#pragma once

#include "services/connection.h"

#include <QDialog>
#include <functional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QWidget;

// Adds or edits a connection: one of the clouds found in clouds.yaml or the
// OS_* variables, or a cloud given here; optionally the kubeconfig context to
// read nodes from; read-only or not. "Test" signs in and lists the klusters
// before anything is saved, and shows the server's own answer. The password
// or application credential secret goes to the keychain, never to a file.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionDialog)

public:
    // Reports a test's outcome: ok, and what happened in words.
    using TestDone = std::function<void(bool ok, const QString &what)>;
    using Tester = std::function<void(const ConnectionSpec &spec, QObject *context, TestDone done)>;

    // `existing`: the connection to edit (its name cannot change); none: a new one.
    explicit ConnectionDialog(const QStringList &takenNames,
        const std::optional<ConnectionSpec> &existing = std::nullopt, QWidget *parent = nullptr);

    void setTester(Tester tester);
    // The connection as entered (its config carries the secret for this run only).
    ConnectionSpec spec() const;
    QString secret() const;
    bool isEdit() const { return m_edit; }

    QLineEdit *nameBox() const { return m_name; }
    QLineEdit *secretBox() const { return m_secret; }
    QLineEdit *authUrlBox() const { return m_authUrl; }
    QLineEdit *userBox() const { return m_user; }
    QLineEdit *projectBox() const { return m_project; }
    QPushButton *testButton() const { return m_test; }
    QLabel *messageLabel() const { return m_error; }
    QPushButton *saveButton() const { return m_save; }
    QLineEdit *alertmanagerBox() const { return m_alertmanagerUrl; }
    QComboBox *sourceBox() const { return m_source; }
    QLineEdit *prometheusBox() const { return m_prometheusUrl; }
    // The source chosen is the team's Prometheus (a fleet read from its exporters), not a cloud.
    bool isPrometheus() const;

    // Enter or the save button: with a tester, the connection is tested first and saved only when it signs
    // in and lists its klusters; a failed test says why and turns the button into "… anyway" (a cloud that
    // is down now may still be worth keeping). Any change to the form takes that back.
    void accept() override;

    // On a first launch: a button that closes it and opens the built-in simulated cloud instead
    // (demoRequested), so that the one way to try Flightdeck without a cloud is in front of the newcomer.
    void offerDemo();

signals:
    void tested(bool ok, const QString &what);
    void demoRequested();

private:
    void updateForm();
    QString problem() const; // what keeps the form from being saved or tested; empty when nothing
    void runTest();
    void formChanged(); // a passed or failed test no longer speaks for the form
    void showProblem(const QString &why);

    QStringList m_taken;
    bool m_edit = false;
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
    QCheckBox *m_protected;
    QLineEdit *m_activeDevices;
    QLineEdit *m_policyFiles;
    // The Alertmanager beside the findings (docs/alertmanager.md): empty URL, none.
    QLineEdit *m_alertmanagerUrl;
    QComboBox *m_alertmanagerAuth;
    QLineEdit *m_alertmanagerUser;
    QLineEdit *m_alertmanagerSecret;
    QLineEdit *m_alertmanagerCa;
    QLineEdit *m_klusterLabels;
    // The team's Prometheus instead of a cloud (docs/monitoring.md): the last source, its own fields.
    int m_prometheusIndex = -1;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_prometheusUrl;
    QComboBox *m_prometheusAuth;
    QLineEdit *m_prometheusUser;
    QLineEdit *m_prometheusSecret;
    QLineEdit *m_prometheusCa;
    QList<QWidget *> m_cloudOnly; // the rows a Prometheus connection has no use for
    QLabel *m_error;
    QPushButton *m_test;
    QPushButton *m_save = nullptr;
    QString m_saveText; // the save button's own words
    enum class Tested
    {
        No,
        Passed,
        Failed,
    };
    Tested m_tested = Tested::No; // the last test of the form as it is now
    bool m_saveAfterTest = false; // the test under way was asked for by Enter or the save button
    Tester m_tester;
    int m_testGeneration = 0;
};
