#include "views/helpdialogs.h"

#include "services/monitoring/runbooks.h"
#include "services/repair/auditlog.h"
#include "services/settings.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSysInfo>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace HelpDialogs {

namespace {

void collect(QMenu *menu, const QString &path, QTreeWidget *list)
{
    for (QAction *a : menu->actions()) {
        if (a->menu()) {
            collect(a->menu(), path + QStringLiteral(" → ") + a->text().remove(QLatin1Char('&')), list);
            continue;
        }
        if (a->isSeparator() || a->shortcuts().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        new QTreeWidgetItem(
            list, { keys.join(QStringLiteral(", ")), a->text().remove(QLatin1Char('&')), path });
    }
}

} // namespace

QDialog *shortcuts(QMainWindow *window)
{
    auto *dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("ShortcutsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Keyboard shortcuts"));
    auto *list = new QTreeWidget(dialog);
    list->setColumnCount(3);
    list->setHeaderLabels({ QObject::tr("Keys"), QObject::tr("Does"), QObject::tr("Where") });
    list->setRootIsDecorated(false);
    list->setAccessibleName(QObject::tr("Keyboard shortcuts"));
    for (QAction *top : window->menuBar()->actions()) {
        if (top->menu())
            collect(top->menu(), top->text().remove(QLatin1Char('&')), list);
    }
    const QList<QStringList> views {
        { QObject::tr("Ctrl+K, then type"),
            QObject::tr("Go to the kluster list and filter it; Enter opens the kluster's views"),
            QObject::tr("Klusters") },
        { QObject::tr("Ctrl+F or /, type, Enter"),
            QObject::tr("Filter the view, then go to the first match, selected"),
            QObject::tr("Every table") },
        { QObject::tr("kind:… severity:… node:… pool:… nexthop:… -word"),
            QObject::tr("The filter's fields; a leading - excludes"), QObject::tr("Every table") },
        { QObject::tr("Escape"), QObject::tr("Clear the filter"),
            QObject::tr("Filter boxes, the kluster list") },
        { QObject::tr("Backspace"), QObject::tr("Edit the filter"), QObject::tr("The kluster list") },
        { QObject::tr("Tab"), QObject::tr("Into the table: the row under the cursor is selected"),
            QObject::tr("Every table") },
        { QObject::tr("Ctrl+C, context menu → Copy"),
            QObject::tr(
                "Copy the selected rows as text; or a row's name, addresses, ids and the openstack or "
                "kubectl command that shows it"),
            QObject::tr("Findings, Nodes, Routes, Security group") },
        { QObject::tr("Double-click, context menu"), QObject::tr("Repair the row's findings"),
            QObject::tr("Findings, Nodes, Routes, Security group") },
        { QObject::tr("Shift+Up/Down, Ctrl+click"),
            QObject::tr("Select several rows; Ctrl+R repairs their findings together, the route changes as "
                        "one change of the router"),
            QObject::tr("Findings, Nodes, Routes, Security group") },
        { QObject::tr("Ctrl+R on an incident, F8"),
            QObject::tr("Its one repair, naming each of its findings (a route change: the router before and "
                        "after); F8 steps through the incidents and the findings in none"),
            QObject::tr("Findings grouped by incident (Ctrl+G)") },
        { QObject::tr("Alt+R"),
            QObject::tr("Retry a repair that did not fix everything: planned again from the data read since, "
                        "previewed and confirmed anew"),
            QObject::tr("The repair dialog, after a failure") },
        { QObject::tr("Up/Down, Enter"),
            QObject::tr("Choose a kluster, a view or an action by a few letters"),
            QObject::tr("The : palette") },
        { QObject::tr("Alt+letter"),
            QObject::tr("Open a menu (File, View, Kluster, Help) or press a dialog's button"),
            QObject::tr("Everywhere") },
    };
    for (const QStringList &row : views)
        new QTreeWidgetItem(list, row);
    list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    list->header()->setStretchLastSection(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(list);
    layout->addWidget(buttons);
    dialog->resize(860, 540);
    return dialog;
}

QDialog *about(QMainWindow *window)
{
    auto *dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("AboutDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("About Flightdeck"));
    auto *icon = new QLabel(dialog);
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    const QString text = QObject::tr("<h2>Flightdeck %1</h2>"
                                     "<p>The operations console for Kubernikus klusters: every kluster's "
                                     "health at a glance, the route audit, and "
                                     "guided, verified, audited repairs.</p>"
                                     "<p><b>Build:</b> Qt %2 (running on Qt %3), %4, %5 build, %6</p>"
                                     "<p><b>Audit log:</b> <a href=\"file://%7\">%7</a><br>"
                                     "<b>Settings:</b> %8<br>"
                                     "<b>Command line twin:</b> <tt>flightdeck-cli check | snapshot | repair "
                                     "| audit</tt> (see <tt>flightdeck-cli --help</tt>)</p>")
                             .arg(QApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR),
                                 QString::fromLatin1(qVersion()),
#if defined(__clang__)
                                 QStringLiteral("clang " __clang_version__),
#elif defined(__GNUC__)
                                 QStringLiteral("GCC " __VERSION__),
#else
                                 QStringLiteral("unknown compiler"),
#endif
#ifdef NDEBUG
                                 QObject::tr("release"),
#else
                                 QObject::tr("debug"),
#endif
                                 QSysInfo::prettyProductName().toHtmlEscaped(),
                                 AuditLog::path().toHtmlEscaped(), Settings::fileName().toHtmlEscaped());
    auto *label = new QLabel(text, dialog);
    label->setTextFormat(Qt::RichText); // its paths escaped above
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setOpenExternalLinks(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(icon, 0, Qt::AlignHCenter);
    layout->addWidget(label);
    layout->addWidget(buttons);
    dialog->resize(560, 360);
    return dialog;
}

QDialog *runbook(QWidget *parent, const QString &name)
{
    const std::optional<QByteArray> text = Runbooks::markdown(name);
    if (!text)
        return nullptr;
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("RunbookDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Runbook: %1").arg(name));
    auto *browser = new QTextBrowser(dialog);
    browser->setAccessibleName(QObject::tr("Runbook %1").arg(name));
    browser->setOpenExternalLinks(true);
    browser->setMarkdown(QString::fromUtf8(*text));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(browser);
    layout->addWidget(buttons);
    dialog->resize(780, 640);
    return dialog;
}

} // namespace HelpDialogs
