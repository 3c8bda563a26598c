#include "views/repairdialog.h"

#include "core/printable.h"
#include "core/repairgate.h"
#include "models/findingsmodel.h"
#include "views/repairsilencebox.h"
#include "views/repairtext.h"
#include "views/severitystyle.h"
#include "views/teamrepairspanel.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QStyle>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

namespace {

// Bold while it has the keyboard's focus: which button Space or Enter presses is never a guess.
class FocusMark : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) {
            auto *w = static_cast<QWidget *>(watched);
            QFont f = w->font();
            f.setBold(event->type() == QEvent::FocusIn);
            w->setFont(f);
        }
        return false;
    }
};

} // namespace

RepairDialog::RepairDialog(Connection *connection, const QString &kluster,
    const std::shared_ptr<const KlusterFetch> &shown, const std::shared_ptr<const Diagnosis> &diagnosis,
    const QStringList &findingIds, QWidget *parent)
    : QDialog(parent)
    , m_connection(connection)
    , m_kluster(kluster)
    , m_shown(shown)
    , m_diagnosis(diagnosis)
    , m_plan(new QTextBrowser(this))
    , m_verdict(new QLabel(this))
    , m_typeLabel(new QLabel(this))
    , m_confirmation(new QLineEdit(this))
    , m_override(new QCheckBox(this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_resultIcon(new QLabel(this))
    , m_results(new QTextBrowser(this))
    , m_buttons(new QDialogButtonBox(this))
{
    setObjectName(QStringLiteral("RepairDialog"));
    setWindowTitle(tr("Repair in kluster %1").arg(OutsideText::line(kluster, 80)));
    const QRect available
        = parent && parent->screen() ? parent->screen()->availableGeometry() : QRect(0, 0, 1024, 768);
    resize(qMin(820, available.width() - 40), qMin(640, available.height() - 60));

    // What will be sent, what is refused, and why: the repair gate decides, the dialog shows it.
    QList<const Finding *> chosen;
    for (const QString &id : findingIds) {
        if (const Finding *f = diagnosis->find(id))
            chosen << f;
    }
    const RepairGate gate(chosen, diagnosis->budget);
    m_sendable = gate.sendable();
    m_steps = gate.steps();
    QString html;
    // Several route findings: one change of the router, its list before and after, then each finding.
    if (const std::optional<RepairPlan> &change = gate.routeChange()) {
        const QStringList ids = gate.routeChangeFindings();
        html += tr("<h3>One change of the router for %1 findings</h3>"
                   "<p>%2 are repaired together: sent as one change and verified once.</p>"
                   "<p><b>What will be done:</b> %3</p>")
                    .arg(ids.size())
                    .arg(ids.join(QStringLiteral(", ")).toHtmlEscaped(), change->title.toHtmlEscaped())
            + RepairText::routeChangeHtml(gate.routeChangeLines()) + tr("<p><b>The exact requests:</b></p>")
            + RepairText::planHtml(*change);
    }
    QStringList refused;
    QStringList refusedByBudget;
    for (const RepairGate::Decision &d : gate.decisions()) {
        const QString id = d.finding->id();
        html += RepairText::headerHtml(*d.finding);
        if (!d.plan) {
            html += RepairText::evidenceHtml(*d.finding);
            refused << tr("%1: it has no repair of its own").arg(id);
            continue;
        }
        if (d.combined)
            html += tr("<p><b>What will be done:</b> part of the one change of the router above (%1)</p>")
                        .arg(d.plan->title.toHtmlEscaped())
                + RepairText::evidenceHtml(*d.finding);
        else
            html += tr("<p><b>What will be done:</b> %1</p>").arg(d.plan->title.toHtmlEscaped())
                + RepairText::planHtml(*d.plan) + RepairText::evidenceHtml(*d.finding);
        if (d.verdict == RepairGate::Verdict::Refused && d.byBudget)
            refusedByBudget << tr("%1: %2 (remediation budget)").arg(id, refusalName(d.reason));
        else if (d.verdict == RepairGate::Verdict::Refused)
            refused << QStringLiteral("%1: %2 (%3)").arg(id, refusalName(d.reason), d.detail);
    }
    refused << refusedByBudget;
    const RemediationBudget &budget = diagnosis->budget;
    QString verdict;
    const auto zone = std::find_if(gate.decisions().cbegin(), gate.decisions().cend(),
        [](const RepairGate::Decision &d) { return d.reason == Refusal::ZoneDisruption; });
    if (zone != gate.decisions().cend()) {
        verdict = tr("Deletion refused (ZoneDisruption): %1. One instance alone may be deleted with the "
                     "override.")
                      .arg(zone->detail);
    } else if (gate.deletions() == 0) {
        verdict = tr("Nothing is deleted: the remediation budget does not apply.");
    } else if (gate.deletionsAllowed()) {
        verdict = tr("Remediation budget: deleting %1 is allowed. %2 of %3 expected nodes are unhealthy; "
                     "deletions stop once more than %4 are.")
                      .arg(gate.deletions() == 1 ? tr("this one") : tr("these %1").arg(gate.deletions()))
                      .arg(budget.unhealthy)
                      .arg(budget.expected)
                      .arg(budget.maxUnhealthy);
    } else {
        verdict = tr("Remediation budget refuses deletions (%1): %2")
                      .arg(refusalName(budget.reason), budget.detail);
        if (gate.refusedInBulk())
            verdict += tr(" A deletion in a batch is never allowed past the budget; "
                          "repair one instance or node alone to override.");
    }
    if (!refused.isEmpty())
        verdict += QStringLiteral("\n") + tr("Not sent: %1").arg(refused.join(QStringLiteral("; ")));
    m_planHtml = html;
    m_plan->setHtml(html);
    m_plan->setAccessibleName(tr("What is wrong and the planned requests"));
    m_verdict->setText(verdict);
    m_verdict->setWordWrap(true);
    m_verdict->setAccessibleName(tr("Remediation budget verdict"));

    m_override->setText(zone != gate.decisions().cend()
            ? tr("Delete this one instance although its zone is down")
            : tr("Override the remediation budget for this one deletion"));
    m_override->setVisible(gate.needsOverride());
    m_override->setAccessibleName(m_override->text());

    // Deleting instances asks for more than one click: type the name.
    const QStringList deleteNames = gate.deletedNames();
    m_typeToConfirm = gate.typeToConfirm(kluster);
    bool deletesNode = false;
    for (const RepairGate::Decision &d : gate.decisions())
        deletesNode = deletesNode || (d.plan && d.plan->action == RepairPlan::Action::DeleteNode);
    m_typeLabel->setText(deleteNames.size() == 1
            ? (deletesNode ? tr("This deletes the Kubernetes node <b>%1</b> (its instance is gone); its pod "
                                "network is freed. Type its name to confirm:")
                           : tr("This deletes instance <b>%1</b>; Kubernikus creates a replacement. Type its "
                                "name to confirm:"))
                  .arg(m_typeToConfirm.toHtmlEscaped())
            : tr("This deletes %1 instances and nodes (%2). Type the kluster's name <b>%3</b> to confirm:")
                  .arg(deleteNames.size())
                  .arg(deleteNames.join(QStringLiteral(", ")).toHtmlEscaped(), kluster.toHtmlEscaped()));
    m_typeLabel->setWordWrap(true);
    m_typeLabel->setVisible(!m_typeToConfirm.isEmpty());
    m_confirmation->setVisible(!m_typeToConfirm.isEmpty());
    m_confirmation->setAccessibleName(tr("Type to confirm the deletion"));
    m_confirmation->setPlaceholderText(tr("type %1").arg(m_typeToConfirm));

    m_progress->setVisible(false);
    m_progress->setAccessibleName(tr("Repair progress"));
    m_status->setWordWrap(true);
    m_results->setVisible(false);
    m_results->setAccessibleName(tr("Repair results"));
    m_results->setMaximumHeight(170);

    QString action;
    if (m_sendable.size() == 1) {
        const Finding *f = diagnosis->find(m_sendable.first());
        const std::optional<RepairPlan> plan = f->repair();
        action = plan->deletesInstance() ? tr("Delete instance %1").arg(plan->instanceName)
            : plan->action == RepairPlan::Action::DeleteNode ? tr("Delete node %1").arg(plan->nodeName)
                                                             : plan->title;
    } else if (m_steps.size() == 1 && gate.routeChange()) {
        action = tr("Change the router (%1 findings)").arg(m_sendable.size());
    } else {
        action
            = m_sendable.isEmpty() ? tr("Nothing can be sent") : tr("Send %1 repairs").arg(m_sendable.size());
    }
    // Alt+ the action's first letter confirms from the keyboard (Cancel keeps Alt+C and Escape).
    QString label = QString(action).replace(QLatin1Char('&'), QStringLiteral("&&"));
    for (int i = 0; i < label.size(); ++i) {
        if (label.at(i).isLetter() && label.at(i).toLower() != QLatin1Char('c')) {
            label.insert(i, QLatin1Char('&'));
            break;
        }
    }
    m_confirm = m_buttons->addButton(label, QDialogButtonBox::AcceptRole);
    m_confirm->setAccessibleName(action);
    m_confirm->setObjectName(QStringLiteral("confirm"));
    m_cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    m_retry = m_buttons->addButton(tr("&Retry…"), QDialogButtonBox::ActionRole);
    m_retry->setObjectName(QStringLiteral("retry"));
    m_retry->setAutoDefault(false);
    m_retry->setVisible(false);
    connect(m_retry, &QPushButton::clicked, this, [this] {
        if (!m_retryable.isEmpty())
            emit retryRequested(m_retryable);
    });
    m_cancel->setDefault(true);
    m_cancel->setAutoDefault(true);
    m_confirm->setAutoDefault(false);
    // Deleting asks for the name first: the box has the focus, so the person types it straight away.
    if (!m_typeToConfirm.isEmpty())
        m_confirmation->setFocus();
    else
        m_cancel->setFocus();
    connect(m_confirm, &QPushButton::clicked, this, &RepairDialog::start);
    // One send key in every repair dialog, whatever its action is called: Ctrl+Enter (its mnemonic besides).
    m_confirm->setToolTip(tr("%1 (Ctrl+Enter)").arg(action));
    for (const QKeySequence &key :
        { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) })
        connect(new QShortcut(key, this), &QShortcut::activated, this, [this] {
            if (m_confirm->isEnabled() && m_confirm->isVisible())
                m_confirm->click();
        });
    connect(m_cancel, &QPushButton::clicked, this, &RepairDialog::reject);
    connect(m_confirmation, &QLineEdit::textChanged, this, &RepairDialog::updateConfirm);
    connect(m_override, &QCheckBox::toggled, this, &RepairDialog::updateConfirm);

    auto *layout = new QVBoxLayout(this);
    const qint64 age = qMax<qint64>(0, shown->state.capturedAt.secsTo(QDateTime::currentDateTimeUtc()));
    auto *title = m_title
        = new QLabel(tr("<b>Review the repair</b> in kluster <b>%1</b> (cloud %2), planned from the data "
                        "fetched %3 (%4 ago). "
                        "Nothing is sent until you confirm; every request is recorded in the audit log.")
                         .arg(kluster.toHtmlEscaped(), connection->name().toHtmlEscaped(),
                             shown->state.capturedAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")),
                             age < 60 ? tr("%1 s").arg(age) : formatDuration(age)),
            this);
    title->setTextFormat(Qt::RichText); // its names escaped
    title->setWordWrap(true);
    layout->addWidget(title);
    m_teammates = new TeamRepairsPanel(this);
    m_teammates->setAccessibleName(tr("Teammates' repairs of this kluster"));
    m_teammates->setObjectName(QStringLiteral("teammates"));
    layout->addWidget(m_teammates);
    m_since = new QLabel(this);
    m_since->setTextFormat(Qt::PlainText);
    m_since->setWordWrap(true);
    m_since->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_since->setVisible(false);
    layout->addWidget(m_since);
    layout->addWidget(m_plan, 1);
    layout->addWidget(m_verdict);
    layout->addWidget(m_override);
    layout->addWidget(m_typeLabel);
    layout->addWidget(m_confirmation);
    layout->addWidget(m_progress);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_resultIcon, 0, Qt::AlignTop);
    statusRow->addWidget(m_status, 1);
    m_resultIcon->setVisible(false);
    // Rich text of its own words; whatever a cloud, an Event or an alert said is escaped into it
    // (OutsideText::html), never taken for markup.
    m_status->setTextFormat(Qt::RichText);
    m_status->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);
    m_typeLabel->setTextFormat(Qt::RichText);
    layout->addLayout(statusRow);
    m_incidentLabel = new QLabel(this);
    m_incidentLabel->setWordWrap(true);
    m_incidentLabel->setTextFormat(Qt::PlainText);
    m_incidentLabel->setAccessibleName(tr("The incident's findings after the repair"));
    m_incidentLabel->setVisible(false);
    layout->addWidget(m_incidentLabel);
    layout->addWidget(m_results);
    layout->addWidget(m_buttons);
    // Enter in the name box neither confirms nor cancels: a deletion is confirmed with its button (or Alt+its
    // letter).
    m_confirmation->installEventFilter(this);
    auto *mark = new FocusMark(this);
    for (QPushButton *b : { m_confirm, m_cancel }) {
        QFont bold = b->font();
        bold.setBold(true);
        b->setMinimumWidth(QFontMetrics(bold).horizontalAdvance(b->text()) + b->sizeHint().width()
            - b->fontMetrics().horizontalAdvance(b->text()) + 4); // no jump when it turns bold
        b->installEventFilter(mark);
    }
    // Tab walks what a person acts on: the name to type, the override, the buttons, then the plan to read.
    m_plan->setTabChangesFocus(true);
    m_results->setTabChangesFocus(true);
    QWidget::setTabOrder(m_confirmation, m_override);
    QWidget::setTabOrder(m_override, m_confirm);
    QWidget::setTabOrder(m_confirm, m_cancel);
    QWidget::setTabOrder(m_cancel, m_plan);
    QWidget::setTabOrder(m_plan, m_results);
    updateConfirm();
}

void RepairDialog::updateConfirm()
{
    if (m_running || m_done) {
        m_confirm->setEnabled(false);
        return;
    }
    bool ok = !m_sendable.isEmpty() && m_blocked.isEmpty();
    if (!m_typeToConfirm.isEmpty())
        ok = ok && m_confirmation->text().trimmed() == m_typeToConfirm;
    if (m_override->isVisible())
        ok = ok && m_override->isChecked();
    m_confirm->setEnabled(ok);
}

void RepairDialog::setTeammates(const QStringList &lines, bool inProgress)
{
    m_teammates->showWarning(lines, inProgress);
}

QString RepairDialog::teammatesText() const
{
    return m_teammates->shown();
}

void RepairDialog::setProtected()
{
    const bool deletes = !m_typeToConfirm.isEmpty();
    m_typeToConfirm = m_kluster;
    m_typeLabel->setText(
        tr("<b>%1</b> is a protected kluster: every repair asks for its name. %2Type <b>%1</b> "
           "to confirm:")
            .arg(m_kluster.toHtmlEscaped(),
                deletes ? tr("This repair deletes what is named above. ") : QString()));
    m_typeLabel->setVisible(true);
    m_confirmation->setVisible(true);
    m_confirmation->setAccessibleName(tr("Type the protected kluster's name to confirm"));
    m_confirmation->setPlaceholderText(tr("type %1").arg(m_kluster));
    m_confirmation->setFocus();
    updateConfirm();
}

void RepairDialog::setSilences(RepairSilenceBox *box)
{
    m_silenceBox = box;
    box->setParent(this);
    auto *layout = static_cast<QVBoxLayout *>(this->layout());
    layout->insertWidget(layout->indexOf(m_typeLabel), box);
    QWidget::setTabOrder(m_override, box->checkBox());
    QWidget::setTabOrder(box->checkBox(), m_confirm);
}

void RepairDialog::setStale(const QString &why)
{
    if (m_done)
        offerRetry(nullptr, tr("the kluster could not be read again (%1): refresh (F5) first").arg(why));
    if (m_running || m_done)
        return;
    m_blocked
        = tr("The data shown is stale (%1). Close this dialog, refresh (F5) and repair from fresh data.")
              .arg(why);
    m_status->setText(OutsideText::html(m_blocked, 2000));
    updateConfirm();
}

void RepairDialog::offerRetry(const Diagnosis *fresh, const QString &why)
{
    if (m_unfixed.isEmpty())
        return;
    m_retryable.clear();
    if (fresh) {
        for (const QString &id : std::as_const(m_unfixed)) {
            const Finding *f = fresh->find(id);
            if (f && f->repair())
                m_retryable << id;
        }
    }
    m_retry->setVisible(true);
    m_confirm->setVisible(false); // what it sent is done; a retry is a new preview
    m_retry->setEnabled(!m_retryable.isEmpty());
    m_retry->setToolTip(!fresh ? tr("Not yet: %1").arg(why)
            : m_retryable.isEmpty()
            ? tr("Nothing to retry: the kluster, read again, no longer has these findings (or no repair for "
                 "them)")
            : tr("Preview and confirm the repair of %1 again, planned from the data just read")
                  .arg(m_retryable.join(QStringLiteral(", "))));
    if (fresh && m_retryable.isEmpty())
        m_status->setText(m_status->text() + tr(" Read again since: nothing left to retry."));
}

void RepairDialog::setIncidents(const QStringList &incidentIds)
{
    m_incidents.clear();
    QString html;
    for (const Incident &i : m_diagnosis->incidents) {
        if (!incidentIds.contains(i.id()))
            continue;
        m_incidents << i;
        const std::optional<RepairPlan> plan = i.repair();
        html += RepairText::incidentMembersHtml(i, *m_diagnosis, true)
            + (plan ? tr("<p><b>One repair for the cause:</b> %1. It is sent as the findings marked above, "
                         "each verified gone%2.</p>")
                          .arg(plan->title.toHtmlEscaped(),
                              i.repairFindings().size() < i.members.size()
                                  ? tr("; the others are its symptoms, read again afterwards")
                                  : QString())
                    : tr("<p><b>%1</b></p>").arg(FindingsModel::noRepairReason(i.rule).toHtmlEscaped()));
    }
    if (m_incidents.isEmpty())
        return;
    setWindowTitle(m_incidents.size() == 1
            ? tr("Repair incident %1 in kluster %2").arg(m_incidents.first().id(), m_kluster)
            : tr("Repair %1 incidents in kluster %2").arg(m_incidents.size()).arg(m_kluster));
    m_plan->setHtml(html + QStringLiteral("<hr>") + m_planHtml);
}

void RepairDialog::dataRefreshed(const Diagnosis &fresh)
{
    if (m_done && !m_incidents.isEmpty()) {
        // Verified as the repair verifies each finding: the incidents' findings read again, gone or not.
        QStringList open;
        int members = 0;
        for (const Incident &i : std::as_const(m_incidents)) {
            members += int(i.members.size());
            for (const QString &id : i.members) {
                if (fresh.find(id))
                    open << id;
            }
        }
        m_incidentResult = open.isEmpty()
            ? tr("The incident's findings now: all %1 gone.").arg(members)
            : tr("The incident's findings now: %1 of %2 gone; still open: %3 (each with its own repair in "
                 "Findings).")
                  .arg(members - open.size())
                  .arg(members)
                  .arg(open.join(QStringLiteral(", ")));
        m_incidentLabel->setText(m_incidentResult);
        m_incidentLabel->setVisible(true);
    }
    if (m_done)
        offerRetry(&fresh, QString());
    if (m_running || m_done)
        return;
    QStringList changed;
    for (const QString &id : std::as_const(m_sendable)) {
        const Finding *now = fresh.find(id);
        const Finding *then = m_diagnosis->find(id);
        const std::optional<RepairPlan> a = now ? now->repair() : std::nullopt;
        const std::optional<RepairPlan> b = then ? then->repair() : std::nullopt;
        if (!now || !a || !b || a->toJson() != b->toJson())
            changed << id;
    }
    if (changed.isEmpty())
        return;
    m_blocked = tr("The kluster was refreshed meanwhile, and %1 is no longer what this dialog shows (gone, "
                   "or a different plan). "
                   "Close it and repair again from the fresh data.")
                    .arg(changed.join(QStringLiteral(", ")));
    m_status->setText(OutsideText::html(m_blocked, 2000));
    updateConfirm();
}

void RepairDialog::start()
{
    if (!m_confirm->isEnabled() || !m_connection)
        return;
    m_running = true;
    updateConfirm();
    m_confirmation->setEnabled(false);
    m_override->setEnabled(false);
    m_progress->setVisible(true);
    m_progress->setRange(0, int(m_sendable.size()));
    m_progress->setValue(0);
    m_status->setText(tr("Sending…"));
    m_title->setText(
        tr("<b>Sending the repair</b> in kluster <b>%1</b>: every request is recorded in the audit log.")
            .arg(m_kluster.toHtmlEscaped()));
    m_results->setVisible(true);
    m_cancel->setText(tr("Stop"));
    m_cancel->setToolTip(
        tr("Stops before the next repair; a request already sent completes and is verified"));
    connect(m_connection.data(), &Connection::repairProgress, this,
        [this](const QString &id, const QString &message) {
            m_status->setText(
                QStringLiteral("%1: %2").arg(OutsideText::html(id), OutsideText::html(message, 600)));
        });
    connect(m_connection.data(), &Connection::repairStepFinished, this, &RepairDialog::showStep);
    connect(m_connection.data(), &Connection::repairFinished, this, [this] {
        if (!m_running)
            return;
        m_running = false;
        m_done = true;
        disconnect(m_connection.data(), nullptr, this, nullptr);
        m_progress->setVisible(false);
        const int total = int(m_sendable.size());
        const std::optional<Severity> severity = m_fixed == total ? std::nullopt
            : m_fixed == 0                                        ? std::optional(Severity::Critical)
                                                                  : std::optional(Severity::Warning);
        m_resultIcon->setPixmap(SeverityStyle::icon(severity).pixmap(32, 32));
        m_resultIcon->setVisible(true);
        m_status->setText(!severity ? tr("<b>Fixed:</b> %1 of %2 repaired and verified. The views are being "
                                         "refreshed; the audit log has every request.")
                                          .arg(m_fixed)
                                          .arg(total)
                : severity == Severity::Critical
                ? (total == 1 ? tr("<b>Failed:</b> the repair did not fix its finding; the reason is below. "
                                   "The audit log has every request that was sent.")
                              : tr("<b>Failed:</b> none of the %1 repairs fixed its finding; the reasons are "
                                   "below. The audit log has every request that was sent.")
                                    .arg(total))
                : tr("<b>Partly done:</b> %1 of %2 fixed and verified; the others are below, with their "
                     "reasons.")
                      .arg(m_fixed)
                      .arg(total));
        setWindowTitle((!severity                               ? tr("Repaired")
                               : severity == Severity::Critical ? tr("Repair failed")
                                                                : tr("Repair partly done"))
            + tr(" — kluster %1").arg(m_kluster));
        m_title->setText(
            tr("<b>The repair was sent</b> in kluster <b>%1</b>: every request is recorded in the "
               "audit log.")
                .arg(m_kluster.toHtmlEscaped()));
        m_cancel->setText(tr("Close"));
        m_cancel->setToolTip(QString());
        m_cancel->setEnabled(true);
        offerRetry(nullptr, tr("the kluster is being read again"));
        // The silences made for it: expired once everything was verified fixed, kept otherwise.
        if (m_silenceBox)
            m_silenceBox->finish(m_fixed == total, [this](const QString &said) {
                m_status->setText(m_status->text() + QStringLiteral("<br>") + OutsideText::html(said, 600));
            });
        emit repairsFinished(m_fixed, int(m_sendable.size()));
    });
    const bool override = m_override->isVisible() && m_override->isChecked();
    if (!m_silenceBox) {
        m_connection->repair(m_kluster, m_shown, m_sendable, override);
        return;
    }
    // The silences first (each recorded); one that cannot be made never holds the repair back.
    m_silenceBox->create([this, override](const QString &said) {
        if (!said.isEmpty())
            m_status->setText(tr("Sending… %1").arg(OutsideText::html(said, 600)));
        if (m_connection)
            m_connection->repair(m_kluster, m_shown, m_sendable, override);
    });
}

void RepairDialog::showStep(const QString &findingId, const RepairExecutor::Outcome &outcome)
{
    using R = RepairExecutor::Outcome::Result;
    ++m_finished;
    m_progress->setValue(m_finished);
    if (outcome.result == R::Fixed)
        ++m_fixed;
    else
        m_unfixed << findingId;
    const QString mark = outcome.result == R::Fixed ? QStringLiteral("✔")
        : outcome.result == R::StillThere           ? QStringLiteral("●")
                                                    : QStringLiteral("✖");
    const QString words = outcome.result == R::Fixed ? tr("fixed (verified)")
        : outcome.result == R::StillThere            ? tr("sent, but the finding is still there")
        : outcome.result == R::Changed
        ? tr("not sent: the router changed meanwhile; refresh and repair again")
        : outcome.result == R::Refused ? tr("refused")
                                       : tr("failed");
    QString line = QStringLiteral("%1 %2: %3. %4").arg(mark, findingId, words, outcome.message);
    for (const AuditRequest &r : outcome.requests)
        line += QStringLiteral("\n    %1 → %2 %3").arg(r.summary()).arg(r.status).arg(r.outcome);
    if (!outcome.auditError.isEmpty())
        line += tr(" The audit record could not be written: %1").arg(outcome.auditError);
    m_resultLines << line;
    QString html;
    for (const QString &l : std::as_const(m_resultLines))
        html += QStringLiteral("<p style=\"white-space: pre-wrap\">%1</p>")
                    .arg(OutsideText::lines(l).toHtmlEscaped());
    m_results->setHtml(html);
}

bool RepairDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_confirmation && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            m_status->setText(
                m_confirm->isEnabled() ? tr(
                    "Press the button \"%1\" (or Alt and its underlined letter) to delete; Escape cancels.")
                                             .arg(m_confirm->text().remove(QLatin1Char('&')))
                                       : tr("Type the name exactly as shown above to enable the button."));
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

QJsonArray RepairDialog::plannedRequests() const
{
    QJsonArray requests;
    for (const RepairGate::Step &step : m_steps) {
        for (const PlannedRequest &r : step.plan.requests)
            requests.append(r.toJson());
    }
    return requests;
}

QString RepairDialog::statusText() const
{
    return m_status->text();
}

QString RepairDialog::resultsText() const
{
    return m_resultLines.join(QLatin1Char('\n'));
}

void RepairDialog::reject()
{
    if (m_running && m_connection) {
        m_connection->cancelRepair();
        m_status->setText(tr("Stopping after the request in flight…"));
        m_cancel->setEnabled(false);
        return;
    }
    QDialog::reject();
}

void RepairDialog::setSince(const QStringList &lines)
{
    m_since->setText(lines.isEmpty() ? QString() : tr("Open: %1.").arg(lines.join(QStringLiteral("; "))));
    m_since->setVisible(!lines.isEmpty());
}

QString RepairDialog::sinceText() const
{
    return m_since->text();
}
