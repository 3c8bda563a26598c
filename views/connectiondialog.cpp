#include "views/connectiondialog.h"

#include "services/local/cloudconfig.h"
#include "services/local/kubeconfig.h"
#include "services/local/policyfile.h"
#include "views/severitystyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

ConnectionDialog::ConnectionDialog(
    const QStringList &takenNames, const std::optional<ConnectionSpec> &existing, QWidget *parent)
    : QDialog(parent)
    , m_taken(takenNames)
    , m_edit(existing.has_value())
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
    , m_readOnly(new QCheckBox(tr("&Read-only: hide every repair"), this))
    , m_protected(new QCheckBox(tr("Protected: ask for the kluster's name before e&very repair"), this))
    , m_activeDevices(new QLineEdit(this))
    , m_policyFiles(new QLineEdit(this))
    , m_alertmanagerUrl(new QLineEdit(this))
    , m_alertmanagerAuth(new QComboBox(this))
    , m_alertmanagerUser(new QLineEdit(this))
    , m_alertmanagerSecret(new QLineEdit(this))
    , m_alertmanagerCa(new QLineEdit(this))
    , m_klusterLabels(new QLineEdit(this))
    , m_prometheusUrl(new QLineEdit(this))
    , m_prometheusAuth(new QComboBox(this))
    , m_prometheusUser(new QLineEdit(this))
    , m_prometheusSecret(new QLineEdit(this))
    , m_prometheusCa(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_test(new QPushButton(tr("&Test"), this))
{
    setObjectName(QStringLiteral("ConnectionDialog"));
    setWindowTitle(m_edit ? tr("Edit connection %1").arg(existing->name) : tr("Add a connection"));
    QString error;
    const QStringList clouds = CloudConfigLoader::cloudNames(&error);
    QStringList problems; // why a cloud or context may be missing from the lists
    if (!error.isEmpty())
        problems << tr("clouds.yaml: %1").arg(error);
    for (const QString &c : clouds)
        m_source->addItem(
            c == QLatin1String("envvars") ? tr("OS_* environment variables") : tr("clouds.yaml: %1").arg(c),
            c);
    m_source->addItem(tr("Another cloud (enter it below)"), QString());
    m_prometheusIndex = m_source->count();
    m_source->addItem(tr("The team's Prometheus: the fleet its exporters give (read-only)"), QString());
    m_source->setAccessibleName(tr("Cloud"));

    m_authType->addItem(tr("Password"), QStringLiteral("password"));
    m_authType->addItem(tr("Application credential"), QStringLiteral("v3applicationcredential"));
    m_authType->setAccessibleName(tr("Authentication"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_authUrl->setPlaceholderText(QStringLiteral("https://identity.example.com/v3"));

    auto *custom = new QFormLayout(m_custom);
    custom->setContentsMargins(0, 0, 0, 0);
    custom->addRow(tr("Aut&hentication:"), m_authType);
    custom->addRow(tr("Auth &URL:"), m_authUrl);
    custom->addRow(tr("User or credential &id:"), m_user);
    custom->addRow(tr("User &domain:"), m_userDomain);
    custom->addRow(tr("&Project:"), m_project);
    custom->addRow(tr("Pro&ject domain:"), m_projectDomain);
    custom->addRow(tr("Re&gion:"), m_region);
    custom->addRow(tr("E&xtra CA file:"), m_caFile);

    m_kubeContext->addItem(tr("The credentials Kubernikus hands out (default)"), QString());
    QString kubeError;
    if (const std::optional<Kubeconfig> kube = Kubeconfig::load({}, &kubeError)) {
        for (const QString &c : kube->contexts())
            m_kubeContext->addItem(tr("kubeconfig context %1").arg(c), c);
    } else if (!kubeError.isEmpty()) {
        // Only worth saying when there is a kubeconfig to speak of (a fresh desktop has none).
        const QStringList files = Kubeconfig::defaultFiles();
        if (std::any_of(files.cbegin(), files.cend(), [](const QString &f) { return QFileInfo::exists(f); }))
            problems << tr("kubeconfig: %1").arg(kubeError);
    }
    m_kubeContext->setAccessibleName(tr("Where nodes are read from"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setObjectName(QStringLiteral("message"));

    m_prometheusUrl->setPlaceholderText(QStringLiteral("https://prometheus.example.com:9090"));
    m_prometheusUrl->setToolTip(
        tr("The Prometheus that scrapes the flightdeck-cli serve exporters: every kluster "
           "they export is listed, its counts and worst cause as they read it"));
    for (const auto auth :
        { AlertmanagerTarget::Auth::None, AlertmanagerTarget::Auth::Basic, AlertmanagerTarget::Auth::Bearer })
        m_prometheusAuth->addItem(alertmanagerAuthName(auth), alertmanagerAuthName(auth));
    m_prometheusAuth->setAccessibleName(tr("Prometheus authentication"));
    m_prometheusSecret->setEchoMode(QLineEdit::Password);
    m_prometheusSecret->setPlaceholderText(tr("password or token: kept in the keychain"));
    m_prometheusCa->setPlaceholderText(tr("none: the system's CAs"));
    auto *form = new QFormLayout;
    m_form = form;
    form->addRow(tr("C&loud:"), m_source);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(m_custom);
    form->addRow(tr("Prometheus &URL:"), m_prometheusUrl);
    form->addRow(tr("Prometheus cre&dentials:"), m_prometheusAuth);
    form->addRow(tr("Prometheus us&er:"), m_prometheusUser);
    form->addRow(tr("Prometheus to&ken or password:"), m_prometheusSecret);
    form->addRow(tr("Prometheus CA &file:"), m_prometheusCa);
    for (QLineEdit *e : { m_prometheusUrl, m_prometheusUser, m_prometheusSecret, m_prometheusCa }) {
        if (auto *l = qobject_cast<QLabel *>(form->labelForField(e)))
            e->setAccessibleName(l->text().remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        connect(e, &QLineEdit::textEdited, this, &ConnectionDialog::formChanged);
    }
    connect(m_prometheusAuth, &QComboBox::activated, this, &ConnectionDialog::formChanged);
    form->addRow(tr("Pass&word or secret:"), m_secret);
    form->addRow(tr("N&odes from:"), m_kubeContext);
    form->addRow(m_readOnly);
    m_protected->setToolTip(tr("For production: every repair of this connection's klusters is confirmed by "
                               "typing the kluster's name; its klusters are marked (protected) in the list"));
    form->addRow(m_protected);
    m_activeDevices->setPlaceholderText(tr("not known (10.44.0.35, …)"));
    m_activeDevices->setAccessibleName(tr("ACTIVE router devices"));
    m_activeDevices->setToolTip(
        tr("The router devices (their hosts, as the ASR driver names them) your team knows to be ACTIVE; the "
           "other of each pair is its STANDBY. The driver does not say which is which: without this, a "
           "device's missing route is judged as on the one that forwards."));
    form->addRow(tr("ACTIVE router devices:"), m_activeDevices);
    m_policyFiles->setPlaceholderText(tr("the clouds' defaults (network=/etc/neutron/policy.yaml; …)"));
    m_policyFiles->setAccessibleName(tr("Policy files"));
    m_policyFiles->setToolTip(tr(
        "The cloud's own oslo.policy files (YAML or JSON), separated by \";\", each limited to one service "
        "with network= or compute=: what these credentials may do is judged with their rules where they "
        "change the defaults, before a repair is offered"));
    form->addRow(tr("Polic&y files:"), m_policyFiles);
    m_alertmanagerUrl->setPlaceholderText(tr("none (http://alertmanager.example.com:9093)"));
    m_alertmanagerUrl->setToolTip(tr("Show the klusters' alerts of this Alertmanager beside their findings"));
    for (const auto auth :
        { AlertmanagerTarget::Auth::None, AlertmanagerTarget::Auth::Basic, AlertmanagerTarget::Auth::Bearer })
        m_alertmanagerAuth->addItem(alertmanagerAuthName(auth), alertmanagerAuthName(auth));
    m_alertmanagerAuth->setAccessibleName(tr("Alertmanager authentication"));
    m_alertmanagerSecret->setEchoMode(QLineEdit::Password);
    m_alertmanagerSecret->setPlaceholderText(tr("password or token: kept in the keychain"));
    m_klusterLabels->setText(Alerts::defaultKlusterLabels().join(QStringLiteral(", ")));
    m_klusterLabels->setToolTip(
        tr("The alert labels that name a kluster, the first one an alert has counts"));
    form->addRow(tr("Alert&manager URL:"), m_alertmanagerUrl);
    form->addRow(tr("Alertmanager &credentials:"), m_alertmanagerAuth);
    form->addRow(tr("Alertmanager us&er:"), m_alertmanagerUser);
    form->addRow(tr("Alertmanager to&ken or password:"), m_alertmanagerSecret);
    form->addRow(tr("Alertmanager CA &file:"), m_alertmanagerCa);
    form->addRow(tr("Kluster la&bels in alerts:"), m_klusterLabels);
    m_cloudOnly = { m_secret, m_kubeContext, m_protected, m_activeDevices, m_policyFiles, m_alertmanagerUrl };
    // The Alertmanager's settings once it has a URL: a newcomer's form stays short.
    const auto showAlertmanager = [this, form] {
        const bool named = !m_alertmanagerUrl->text().trimmed().isEmpty() && !isPrometheus();
        for (QWidget *w : { static_cast<QWidget *>(m_alertmanagerAuth),
                 static_cast<QWidget *>(m_alertmanagerUser), static_cast<QWidget *>(m_alertmanagerSecret),
                 static_cast<QWidget *>(m_alertmanagerCa), static_cast<QWidget *>(m_klusterLabels) })
            form->setRowVisible(w, named);
        adjustSize();
    };
    connect(m_alertmanagerUrl, &QLineEdit::textChanged, this, showAlertmanager);
    // A Prometheus has none of a cloud's rows, and is read-only.
    connect(m_source, &QComboBox::currentIndexChanged, this, [this, form, showAlertmanager] {
        const bool prometheus = isPrometheus();
        for (QWidget *w : std::as_const(m_cloudOnly))
            form->setRowVisible(w, !prometheus);
        if (prometheus)
            m_readOnly->setChecked(true);
        m_readOnly->setEnabled(!prometheus);
        showAlertmanager();
    });
    for (QLineEdit *e : { m_name, m_authUrl, m_user, m_userDomain, m_project, m_projectDomain, m_region,
             m_caFile, m_secret, m_alertmanagerUrl, m_alertmanagerUser, m_alertmanagerSecret,
             m_alertmanagerCa, m_klusterLabels }) {
        QWidget *label = form->labelForField(e) ? form->labelForField(e) : custom->labelForField(e);
        if (auto *l = qobject_cast<QLabel *>(label))
            e->setAccessibleName(l->text().remove(QLatin1Char('&')).remove(QLatin1Char(':')));
    }
    auto *hint = new QLabel(
        tr("Clouds come from clouds.yaml and secure.yaml in the usual places, read in place. A secret "
           "entered here is kept in the system keychain, never in a file; leave it empty when "
           "secure.yaml or OS_PASSWORD has it."),
        this);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_save = buttons->button(QDialogButtonBox::Ok);
    m_saveText = m_edit ? tr("&Save") : tr("&Add connection");
    m_save->setText(m_saveText);
    m_save->setDefault(true); // Enter tests, then adds (the desktop's button order puts Cancel first)
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    m_test->setToolTip(tr("Sign in and list the klusters now, before saving"));
    m_test->setAutoDefault(false);
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::runTest);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectionDialog::reject);
    connect(m_source, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateForm);
    for (QLineEdit *e :
        { m_name, m_authUrl, m_user, m_userDomain, m_project, m_projectDomain, m_region, m_caFile, m_secret,
            m_alertmanagerUrl, m_alertmanagerUser, m_alertmanagerSecret, m_alertmanagerCa, m_klusterLabels })
        connect(e, &QLineEdit::textEdited, this, &ConnectionDialog::formChanged);
    for (QComboBox *c : { m_source, m_authType, m_kubeContext, m_alertmanagerAuth })
        connect(c, &QComboBox::activated, this, &ConnectionDialog::formChanged);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    if (!problems.isEmpty())
        m_error->setText(problems.join(QLatin1Char('\n')));

    if (m_edit) {
        const ConnectionSpec &s = *existing;
        m_name->setText(s.name);
        m_name->setReadOnly(true);
        m_name->setToolTip(tr("A connection keeps its name; remove it and add it again to rename it"));
        const int at = m_source->findData(s.cloud);
        m_source->setCurrentIndex(s.isPrometheus() ? m_prometheusIndex
                : at >= 0                          ? at
                                                   : m_prometheusIndex - 1);
        if (s.isPrometheus()) {
            m_prometheusUrl->setText(s.prometheus.displayUrl());
            m_prometheusAuth->setCurrentIndex(
                qMax(0, m_prometheusAuth->findData(alertmanagerAuthName(s.prometheus.auth))));
            m_prometheusUser->setText(s.prometheus.username);
            m_prometheusCa->setText(s.prometheus.caFile);
            m_prometheusSecret->setPlaceholderText(tr("unchanged (type to replace the one in the keychain)"));
        }
        if (s.cloud.isEmpty() && s.config) {
            const CloudConfig &c = *s.config;
            m_authType->setCurrentIndex(c.isApplicationCredential() ? 1 : 0);
            m_authUrl->setText(c.authUrl);
            m_user->setText(c.isApplicationCredential() ? c.applicationCredentialId : c.username);
            m_userDomain->setText(c.userDomainName);
            m_project->setText(c.projectName);
            m_projectDomain->setText(c.projectDomainName);
            m_region->setText(c.regionName);
            m_caFile->setText(c.caCertFile);
        }
        const int context = m_kubeContext->findData(s.kubeContext);
        if (context >= 0)
            m_kubeContext->setCurrentIndex(context);
        m_readOnly->setChecked(s.readOnly);
        m_protected->setChecked(s.protectedRepairs);
        m_activeDevices->setText(s.options.activeDevices.join(QStringLiteral(", ")));
        m_policyFiles->setText(s.policyFiles.join(QStringLiteral("; ")));
        if (s.alertmanager.isSet()) {
            m_alertmanagerUrl->setText(s.alertmanager.displayUrl());
            m_alertmanagerAuth->setCurrentIndex(
                qMax(0, m_alertmanagerAuth->findData(alertmanagerAuthName(s.alertmanager.auth))));
            m_alertmanagerUser->setText(s.alertmanager.username);
            m_alertmanagerCa->setText(s.alertmanager.caFile);
            m_klusterLabels->setText(s.alertmanager.klusterLabels.join(QStringLiteral(", ")));
            m_alertmanagerSecret->setPlaceholderText(
                tr("unchanged (type to replace the one in the keychain)"));
        }
        m_secret->setPlaceholderText(tr("unchanged (type to replace the one in the keychain)"));
    }
    showAlertmanager();
    updateForm();
}

void ConnectionDialog::setTester(Tester tester)
{
    m_tester = std::move(tester);
}

bool ConnectionDialog::isPrometheus() const
{
    return m_source->currentIndex() == m_prometheusIndex;
}

void ConnectionDialog::updateForm()
{
    const QString cloud = m_source->currentData().toString();
    m_custom->setVisible(cloud.isEmpty() && !isPrometheus());
    for (QWidget *w : { static_cast<QWidget *>(m_prometheusUrl), static_cast<QWidget *>(m_prometheusAuth),
             static_cast<QWidget *>(m_prometheusUser), static_cast<QWidget *>(m_prometheusSecret),
             static_cast<QWidget *>(m_prometheusCa) })
        m_form->setRowVisible(w, isPrometheus());
    if (!cloud.isEmpty() && !m_edit)
        m_name->setText(cloud);
    else if (isPrometheus() && !m_edit && m_name->text().isEmpty())
        m_name->setText(QStringLiteral("prometheus"));
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
    if (isPrometheus()) {
        PrometheusTarget &p = s.prometheus;
        p.url = QUrl(m_prometheusUrl->text().trimmed());
        p.auth = alertmanagerAuthFromName(m_prometheusAuth->currentData().toString())
                     .value_or(AlertmanagerTarget::Auth::None);
        p.username = m_prometheusUser->text().trimmed();
        p.secret = m_prometheusSecret->text();
        p.caFile = m_prometheusCa->text().trimmed();
        s.readOnly = true;
        s.watchNodes = false;
        return s;
    }
    s.cloud = m_source->currentData().toString();
    s.readOnly = m_readOnly->isChecked();
    s.protectedRepairs = m_protected->isChecked();
    for (const QString &host :
        m_activeDevices->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
        s.options.activeDevices << host;
    s.kubeContext = m_kubeContext->currentData().toString();
    for (const QString &file : m_policyFiles->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (!file.trimmed().isEmpty())
            s.policyFiles << file.trimmed();
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
    if (!m_alertmanagerUrl->text().trimmed().isEmpty()) {
        AlertmanagerTarget &a = s.alertmanager;
        a.url = QUrl(m_alertmanagerUrl->text().trimmed());
        a.auth = alertmanagerAuthFromName(m_alertmanagerAuth->currentData().toString())
                     .value_or(AlertmanagerTarget::Auth::None);
        a.username = m_alertmanagerUser->text().trimmed();
        a.secret = m_alertmanagerSecret->text();
        a.caFile = m_alertmanagerCa->text().trimmed();
        QStringList labels;
        for (const QString &l : m_klusterLabels->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!l.trimmed().isEmpty())
                labels << l.trimmed();
        if (!labels.isEmpty())
            a.klusterLabels = labels;
    }
    return s;
}

QString ConnectionDialog::problem() const
{
    const ConnectionSpec s = spec();
    if (s.name.isEmpty())
        return tr("Give the connection a name.");
    if (s.name.contains(QLatin1Char('/')))
        return tr("A connection's name cannot contain \"/\".");
    if (!m_edit && m_taken.contains(s.name))
        return tr("There is already a connection named %1: edit or remove it in File → Connections….")
            .arg(s.name);
    QString why;
    if (isPrometheus()) {
        if (!PrometheusTarget::readUrl(m_prometheusUrl->text().trimmed(), &why))
            return tr("Prometheus URL: %1").arg(why);
        if (s.prometheus.auth == AlertmanagerTarget::Auth::Basic && s.prometheus.username.isEmpty())
            return tr("Give the Prometheus' user for basic authentication.");
        PrometheusTarget files = s.prometheus;
        if (!files.readFiles(&why))
            return tr("Prometheus CA file: %1").arg(why);
        return QString();
    }
    if (!s.config) {
        QString error;
        CloudConfigLoader::load(s.cloud, &error);
        return error;
    }
    if (s.cloud.isEmpty() && !s.config->authUrl.startsWith(QLatin1String("http")))
        return tr("Give the Keystone auth URL (https://…/v3).");
    if (s.cloud.isEmpty()
        && (s.config->isApplicationCredential() ? s.config->applicationCredentialId : s.config->username)
               .isEmpty())
        return tr("Give the user name or the application credential id.");
    std::shared_ptr<const PolicyProfile> policy;
    if (!PolicyFiles::profile(s.policyFiles, &policy, &why))
        return tr("Policy file %1").arg(why);
    if (const QString url = m_alertmanagerUrl->text().trimmed(); !url.isEmpty()) {
        if (!AlertmanagerTarget::readUrl(url, &why))
            return tr("Alertmanager URL: %1").arg(why);
        if (s.alertmanager.auth == AlertmanagerTarget::Auth::Basic && s.alertmanager.username.isEmpty())
            return tr("Give the Alertmanager's user for basic authentication.");
        AlertmanagerTarget files = s.alertmanager;
        if (!files.readFiles(&why))
            return tr("Alertmanager CA file: %1").arg(why);
    }
    return QString();
}

void ConnectionDialog::showProblem(const QString &why)
{
    QPalette pal = m_error->palette();
    pal.setColor(QPalette::WindowText, SeverityStyle::alarmText(palette()));
    m_error->setPalette(pal);
    m_error->setText(why);
}

void ConnectionDialog::formChanged()
{
    ++m_testGeneration; // a test under way no longer speaks for the form
    m_tested = Tested::No;
    m_saveAfterTest = false;
    m_save->setText(m_saveText);
    m_test->setDefault(false);
    m_save->setDefault(true);
}

void ConnectionDialog::offerDemo()
{
    auto *buttons = findChild<QDialogButtonBox *>();
    if (!buttons)
        return;
    auto *demo = new QPushButton(tr("Try the d&emo cloud"), this);
    demo->setAutoDefault(false);
    demo->setToolTip(
        tr("Close this and open the built-in simulated cloud: every failure Flightdeck knows, to "
           "try it safely (also File → Open the demo cloud)"));
    buttons->addButton(demo, QDialogButtonBox::ResetRole);
    connect(demo, &QPushButton::clicked, this, [this] {
        emit demoRequested();
        reject();
    });
}

void ConnectionDialog::runTest()
{
    const QString why = problem();
    if (!why.isEmpty()) {
        m_saveAfterTest = false;
        showProblem(why);
        return;
    }
    if (!m_tester)
        return;
    const int generation = ++m_testGeneration;
    m_error->setPalette(palette());
    m_error->setText(tr("Testing: signing in to %1 and listing its klusters…").arg(spec().name));
    // (Not disabled while it runs: a disabled button would pass the focus, and Enter, to Cancel.)
    m_tester(spec(), this, [this, generation](bool ok, const QString &what) {
        if (generation != m_testGeneration)
            return;
        QPalette p = m_error->palette();
        p.setColor(QPalette::WindowText,
            ok ? palette().color(QPalette::WindowText) : SeverityStyle::alarmText(palette()));
        m_error->setPalette(p);
        m_tested = ok ? Tested::Passed : Tested::Failed;
        const bool save = std::exchange(m_saveAfterTest, false);
        if (!ok) {
            // Enter tests again; keeping it as it is takes the button itself (or Alt and its letter).
            m_save->setText(m_edit ? tr("&Save anyway") : tr("&Add anyway"));
            m_save->setDefault(false);
            m_test->setDefault(true);
            m_error->setText(tr("✖ %1").arg(what)
                + (save ? tr("\nNot saved: correct it and press Enter to test again, or \"%1\" to keep it as "
                             "it is.")
                              .arg(m_save->text().remove(QLatin1Char('&')))
                        : QString()));
        } else {
            m_error->setText(tr("✔ %1").arg(what));
            m_save->setText(m_saveText);
            m_test->setDefault(false);
            m_save->setDefault(true); // tested: Enter saves
        }
        emit tested(ok, what);
        if (ok && save)
            QDialog::accept();
    });
}

void ConnectionDialog::accept()
{
    const QString why = problem();
    if (!why.isEmpty()) {
        showProblem(why);
        return;
    }
    // Tested first: a wrong password is said here, not after the dialog has gone.
    if (m_tester && m_tested == Tested::No) {
        m_saveAfterTest = true;
        runTest();
        return;
    }
    QDialog::accept();
}
