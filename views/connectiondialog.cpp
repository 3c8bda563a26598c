#include "connectiondialog.h"

#include "cloudconfig.h"
#include "kubeconfig.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

ConnectionDialog::ConnectionDialog(const QStringList &takenNames, QWidget *parent)
    : QDialog(parent)
    , m_taken(takenNames)
    , m_source(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_custom(new QWidget(this))
    , m_authType(new QComboBox(this))
    , m_authUrl(new QLineEdit(this))
    , m_user(new QLineEdit(this))
    , m_userDomain(new QLineEdit(QStringLiteral("Default"), this))
    , m_project(new QLineEdit(this))
    , m_projectDomain(new QLineEdit(QStringLiteral("Default"), this))
    , m_region(new QLineEdit(this))
    , m_caFile(new QLineEdit(this))
    , m_secret(new QLineEdit(this))
    , m_kubeContext(new QComboBox(this))
    , m_readOnly(new QCheckBox(tr("Read-only: hide every repair"), this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Add a connection"));
    QString error;
    const QStringList clouds = CloudConfigLoader::cloudNames(&error);
    QStringList problems;  // why a cloud or context may be missing from the lists
    if (!error.isEmpty())
        problems << tr("clouds.yaml: %1").arg(error);
    for (const QString &c : clouds)
        m_source->addItem(c == QLatin1String("envvars") ? tr("OS_* environment variables") : tr("clouds.yaml: %1").arg(c), c);
    m_source->addItem(tr("Another cloud (enter it below)"), QString());
    m_source->setAccessibleName(tr("Cloud"));

    m_authType->addItem(tr("Password"), QStringLiteral("password"));
    m_authType->addItem(tr("Application credential"), QStringLiteral("v3applicationcredential"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_authUrl->setPlaceholderText(QStringLiteral("https://identity.example.com/v3"));

    auto *custom = new QFormLayout(m_custom);
    custom->setContentsMargins(0, 0, 0, 0);
    custom->addRow(tr("Authentication:"), m_authType);
    custom->addRow(tr("Auth URL:"), m_authUrl);
    custom->addRow(tr("User or credential id:"), m_user);
    custom->addRow(tr("User domain:"), m_userDomain);
    custom->addRow(tr("Project:"), m_project);
    custom->addRow(tr("Project domain:"), m_projectDomain);
    custom->addRow(tr("Region:"), m_region);
    custom->addRow(tr("Extra CA file:"), m_caFile);

    m_kubeContext->addItem(tr("The credentials Kubernikus hands out (default)"), QString());
    QString kubeError;
    if (const std::optional<Kubeconfig> kube = Kubeconfig::load({}, &kubeError)) {
        for (const QString &c : kube->contexts())
            m_kubeContext->addItem(tr("kubeconfig context %1").arg(c), c);
    } else if (!kubeError.isEmpty() && std::any_of(Kubeconfig::defaultFiles().cbegin(), Kubeconfig::defaultFiles().cend(),
                                                   [](const QString &f) { return QFileInfo::exists(f); })) {
        problems << tr("kubeconfig: %1").arg(kubeError);
    }
    m_kubeContext->setAccessibleName(tr("Where nodes are read from"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));

    auto *form = new QFormLayout;
    form->addRow(tr("Cloud:"), m_source);
    form->addRow(tr("Name:"), m_name);
    form->addRow(m_custom);
    form->addRow(tr("Password or secret:"), m_secret);
    form->addRow(tr("Nodes from:"), m_kubeContext);
    form->addRow(m_readOnly);
    for (QLineEdit *e : {m_name, m_authUrl, m_user, m_userDomain, m_project, m_projectDomain, m_region, m_caFile, m_secret})
        e->setAccessibleName(form->labelForField(e) ? static_cast<QLabel *>(form->labelForField(e))->text() : QString());
    auto *hint = new QLabel(tr("Clouds come from clouds.yaml and secure.yaml in the usual places, read in place. A secret "
                               "entered here is kept in the system keychain, never in a file; leave it empty when "
                               "secure.yaml or OS_PASSWORD has it."), this);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add connection"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectionDialog::reject);
    connect(m_source, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateForm);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    if (!problems.isEmpty())
        m_error->setText(problems.join(QLatin1Char('\n')));
    updateForm();
}

void ConnectionDialog::updateForm()
{
    const QString cloud = m_source->currentData().toString();
    m_custom->setVisible(cloud.isEmpty());
    if (!cloud.isEmpty())
        m_name->setText(cloud);
    adjustSize();
}

QString ConnectionDialog::secret() const
{
    return m_secret->text();
}

ConnectionSpec ConnectionDialog::spec() const
{
    ConnectionSpec s;
    s.name = m_name->text().trimmed();
    s.cloud = m_source->currentData().toString();
    s.readOnly = m_readOnly->isChecked();
    s.kubeContext = m_kubeContext->currentData().toString();
    QString error;
    std::optional<CloudConfig> c;
    if (s.cloud.isEmpty()) {
        c = CloudConfig();
        c->name = s.name;
        c->authType = m_authType->currentData().toString();
        c->authUrl = m_authUrl->text().trimmed();
        (c->isApplicationCredential() ? c->applicationCredentialId : c->username) = m_user->text().trimmed();
        c->userDomainName = m_userDomain->text().trimmed();
        c->projectName = m_project->text().trimmed();
        c->projectDomainName = m_projectDomain->text().trimmed();
        c->regionName = m_region->text().trimmed();
        c->caCertFile = m_caFile->text().trimmed();
        c->source = tr("the console");
    } else {
        c = CloudConfigLoader::load(s.cloud, &error);
    }
    if (c && !m_secret->text().isEmpty())
        (c->isApplicationCredential() ? c->applicationCredentialSecret : c->password) = m_secret->text();
    s.config = c;
    return s;
}

void ConnectionDialog::accept()
{
    const ConnectionSpec s = spec();
    QString problem;
    if (s.name.isEmpty())
        problem = tr("Give the connection a name.");
    else if (s.name.contains(QLatin1Char('/')))
        problem = tr("A connection's name cannot contain \"/\".");
    else if (m_taken.contains(s.name))
        problem = tr("There is already a connection named %1.").arg(s.name);
    else if (!s.config) {
        QString error;
        CloudConfigLoader::load(s.cloud, &error);
        problem = error;
    } else if (s.cloud.isEmpty() && !s.config->authUrl.startsWith(QLatin1String("http")))
        problem = tr("Give the Keystone auth URL (https://…/v3).");
    else if (s.cloud.isEmpty() && (s.config->isApplicationCredential() ? s.config->applicationCredentialId : s.config->username).isEmpty())
        problem = tr("Give the user name or the application credential id.");
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        return;
    }
    QDialog::accept();
}
