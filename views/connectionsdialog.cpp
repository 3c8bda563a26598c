#include "views/connectionsdialog.h"

#include "console/connectionregistry.h"
#include "views/severitystyle.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

ConnectionsDialog::ConnectionsDialog(ConnectionRegistry *registry, QWidget *parent)
    : QDialog(parent)
    , m_registry(registry)
    , m_list(new QTreeWidget(this))
    , m_add(new QPushButton(tr("&Add…"), this))
    , m_edit(new QPushButton(tr("&Edit…"), this))
    , m_test(new QPushButton(tr("&Test"), this))
    , m_remove(new QPushButton(tr("&Remove…"), this))
    , m_message(new QLabel(this))
{
    setObjectName(QStringLiteral("ConnectionsDialog"));
    setWindowTitle(tr("Connections"));
    m_list->setColumnCount(4);
    m_list->setHeaderLabels({ tr("Name"), tr("Where from"), tr("Status"), tr("Mode") });
    m_list->setRootIsDecorated(false);
    m_list->setAllColumnsShowFocus(true);
    m_list->setAccessibleName(tr("Connections"));
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_list->setColumnWidth(0, 140);
    m_list->setColumnWidth(1, 200);
    m_list->setColumnWidth(3, 90);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText); // a cloud's error, as it said it
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setAccessibleName(tr("Test result"));

    for (QPushButton *b : { m_add, m_edit, m_test, m_remove })
        b->setAutoDefault(false);
    m_add->setToolTip(tr("Add a cloud from clouds.yaml, the OS_* variables, or entered by hand"));
    m_edit->setToolTip(
        tr("Change how the selected connection signs in, its secret, its nodes' kubeconfig, read-only"));
    m_test->setToolTip(tr("Sign in and list the klusters now, and show the server's answer"));
    m_remove->setToolTip(tr("Remove the selected connection, and its secret from the keychain"));
    connect(m_add, &QPushButton::clicked, this, &ConnectionsDialog::addRequested);
    connect(m_edit, &QPushButton::clicked, this, [this] { emit editRequested(selected()); });
    connect(m_test, &QPushButton::clicked, this, &ConnectionsDialog::test);
    connect(m_remove, &QPushButton::clicked, this, &ConnectionsDialog::confirmRemove);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &ConnectionsDialog::updateButtons);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this] { emit editRequested(selected()); });
    connect(m_registry, &ConnectionRegistry::changed, this, &ConnectionsDialog::reload);
    // How each stands, at most four times a second: a round of ten thousand klusters says it after each.
    auto *reloadLater = new QTimer(this);
    reloadLater->setSingleShot(true);
    reloadLater->setInterval(250);
    connect(reloadLater, &QTimer::timeout, this, &ConnectionsDialog::reload);
    connect(m_registry, &ConnectionRegistry::statusChanged, reloadLater, [reloadLater] {
        if (!reloadLater->isActive())
            reloadLater->start();
    });

    auto *side = new QVBoxLayout;
    for (QPushButton *b : { m_add, m_edit, m_test, m_remove })
        side->addWidget(b);
    side->addStretch(1);
    auto *row = new QHBoxLayout;
    row->addWidget(m_list, 1);
    row->addLayout(side);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(760, 340);
    reload();
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    m_list->setFocus();
}

void ConnectionsDialog::reload()
{
    const QString keep = selected();
    m_list->clear();
    for (Connection *c : m_registry->connections()) {
        const ConnectionSpec &s = c->spec();
        QString source = s.isSnapshot() ? tr("snapshot %1").arg(s.snapshotPath)
            : !s.cloud.isEmpty()        ? (s.cloud == QLatin1String("envvars") ? tr("OS_* variables")
                                                                               : tr("clouds.yaml: %1").arg(s.cloud))
            : s.config                  ? s.config->authUrl
                                        : QString();
        if (!s.kubeContext.isEmpty())
            source += tr(" · nodes from context %1").arg(s.kubeContext);
        QString mode = c->isReadOnly() ? tr("read-only") : tr("repairs");
        if (!m_registry->isRemembered(s.name))
            mode += tr(", this run");
        const ConnectionStatus status = m_registry->status(s.name);
        auto *item = new QTreeWidgetItem(m_list, { s.name, source, status.toText(), mode });
        item->setToolTip(2, item->text(2));
        item->setData(0, Qt::UserRole, s.name);
        if (status.state == ConnectionStatus::State::Failed)
            item->setIcon(0, SeverityStyle::icon(Severity::Critical));
        if (s.name == keep)
            m_list->setCurrentItem(item);
    }
    updateButtons();
}

QString ConnectionsDialog::selected() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

bool ConnectionsDialog::selectConnection(const QString &name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(0, Qt::UserRole).toString() == name) {
            m_list->setCurrentItem(m_list->topLevelItem(i));
            return true;
        }
    }
    return false;
}

void ConnectionsDialog::updateButtons()
{
    Connection *c = m_registry->connection(selected());
    m_edit->setEnabled(c && !c->spec().isSnapshot());
    m_test->setEnabled(c && !c->spec().isSnapshot());
    m_remove->setEnabled(c != nullptr);
}

void ConnectionsDialog::test()
{
    const QString name = selected();
    Connection *c = m_registry->connection(name);
    if (!c)
        return;
    m_message->setText(tr("Testing %1: signing in and listing its klusters…").arg(name));
    m_registry->test(c->spec(), this, [this, name](bool ok, const QString &what) {
        m_message->setText(ok ? tr("✔ %1: %2").arg(name, what) : tr("✖ %1: %2").arg(name, what));
        emit tested(name, ok, what);
    });
}

void ConnectionsDialog::confirmRemove()
{
    const QString name = selected();
    Connection *c = m_registry->connection(name);
    if (!c)
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Remove connection %1?").arg(name),
        tr("Remove connection %1? Its klusters leave the sidebar and its secret is deleted from the "
           "keychain. clouds.yaml and kubeconfig files are not touched; the audit log keeps its records.")
            .arg(name),
        QMessageBox::Cancel, this);
    QPushButton *yes = box->addButton(tr("Remove %1").arg(name), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box, yes, name](QAbstractButton *clicked) {
        if (clicked != yes)
            return;
        m_registry->remove(name);
        m_message->setText(tr("Connection %1 removed.").arg(name));
        Q_UNUSED(box);
    });
    box->open();
    emit removeConfirmationOpened(box);
}
