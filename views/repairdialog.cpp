#include "views/repairdialog.h"

#include "console/consoletext.h"
#include "core/printable.h"
#include "core/repairgate.h"
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
#include <QTextDocument>
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

RepairDialog::RepairDialog(
    Connection *connection, std::shared_ptr<const RepairProposal> proposal, QWidget *parent)
    : QDialog(parent)
    , m_connection(connection)
    , m_kluster(proposal->kluster())
    , m_proposal(std::move(proposal))
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
    const QRect available
        = parent && parent->screen() ? parent->screen()->availableGeometry() : QRect(0, 0, 1024, 768);
    resize(qMin(820, available.width() - 40), qMin(640, available.height() - 60));
    m_plan->setAccessibleName(tr("What is wrong and the planned requests"));
    m_verdict->setWordWrap(true);
    m_verdict->setAccessibleName(tr("Remediation budget verdict"));
    m_typeLabel->setWordWrap(true);
    m_progress->setVisible(false);
    m_progress->setAccessibleName(tr("Repair progress"));
    m_status->setWordWrap(true);
    m_results->setVisible(false);
    m_results->setAccessibleName(tr("Repair results"));
    m_results->setMaximumHeight(170);

    m_confirm = m_buttons->addButton(QString(), QDialogButtonBox::AcceptRole);
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
    connect(m_confirm, &QPushButton::clicked, this, &RepairDialog::start);
    // One send key in every repair dialog, whatever its action is called: Ctrl+Enter (its mnemonic besides).
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
    auto *title = m_title = new QLabel(this);
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
    for (QPushButton *b : { m_cancel }) {
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
    showProposal(m_proposal);
}

void RepairDialog::showProposal(const std::shared_ptr<const RepairProposal> &proposal)
{
    m_proposal = proposal;
    const RepairProposal &p = *proposal;
    m_sendable = p.sendable();
    m_steps = p.steps();
    m_typeToConfirm = p.typeToConfirm();
    const KlusterState &state = p.fetch()->state;
    const qint64 age = qMax<qint64>(0, state.capturedAt.secsTo(QDateTime::currentDateTimeUtc()));
    m_title->setText(
        tr("<b>Review the repair</b> in kluster <b>%1</b> (cloud %2), planned from the data "
           "fetched %3 (%4 ago). "
           "Nothing is sent until you confirm; every request is recorded in the audit log.")
            .arg(m_kluster.toHtmlEscaped(), m_connection ? m_connection->name().toHtmlEscaped() : QString(),
                state.capturedAt.toUTC().toString(QStringLiteral("HH:mm:ss 'UTC'")),
                age < 60 ? tr("%1 s").arg(age) : formatDuration(age)));

    // What will be sent, what is refused, and why: the plan decides, the dialog shows it.
    m_incidents = p.incidents();
    setWindowTitle(m_incidents.isEmpty() ? tr("Repair in kluster %1").arg(OutsideText::line(m_kluster, 80))
            : m_incidents.size() == 1
            ? tr("Repair incident %1 in kluster %2").arg(m_incidents.first().id(), m_kluster)
            : tr("Repair %1 incidents in kluster %2").arg(m_incidents.size()).arg(m_kluster));
    m_plan->setHtml(RepairText::proposalHtml(p));
    m_resultIcon->setVisible(false);

    QString verdict = p.budgetVerdict();
    const QStringList refused = p.refusals(QString());
    if (!refused.isEmpty())
        verdict += QStringLiteral("\n") + tr("Not sent: %1").arg(refused.join(QStringLiteral("; ")));
    m_verdict->setText(verdict);

    const RepairPlan *teardown = p.teardown();
    m_override->setText(teardown
            ? tr("Tear the devices of router %1 down although a protected kluster is on it")
                  .arg(teardown->routerName)
            : p.overrideReason() == Refusal::AutomationPending
            ? tr("Repair it now instead of waiting for Kubernikus' automation (AutomationPending)")
            : p.refusedByZone() ? tr("Delete this one instance although its zone is down")
                                : tr("Override the remediation budget for this one deletion"));
    m_override->setChecked(false);
    m_override->setEnabled(true);
    m_override->setVisible(p.needsOverride());
    m_override->setAccessibleName(m_override->text());

    // Deleting asks for more than one click: type the name; a protected kluster asks for its own name.
    m_typeLabel->setText(RepairText::typeToConfirmHtml(p));
    m_confirmation->setAccessibleName(teardown ? tr("Type the router's name to confirm")
            : p.choice().protectedKluster      ? tr("Type the protected kluster's name to confirm")
                                               : tr("Type to confirm the deletion"));
    m_typeLabel->setVisible(!m_typeToConfirm.isEmpty());
    m_confirmation->setVisible(!m_typeToConfirm.isEmpty());
    m_confirmation->setEnabled(true);
    m_confirmation->clear(); // a new plan is confirmed anew
    m_confirmation->setPlaceholderText(tr("type %1").arg(m_typeToConfirm));

    // Alt+ the action's first letter confirms from the keyboard (Cancel keeps Alt+C and Escape).
    const QString action = p.action();
    QString label = QString(action).replace(QLatin1Char('&'), QStringLiteral("&&"));
    for (int i = 0; i < label.size(); ++i) {
        if (label.at(i).isLetter() && label.at(i).toLower() != QLatin1Char('c')) {
            label.insert(i, QLatin1Char('&'));
            break;
        }
    }
    m_confirm->setText(label);
    m_confirm->setAccessibleName(action);
    m_confirm->setToolTip(tr("%1 (Ctrl+Enter)").arg(action));
    QFont bold = m_confirm->font();
    bold.setBold(true);
    m_confirm->setMinimumWidth(QFontMetrics(bold).horizontalAdvance(m_confirm->text())
        + m_confirm->sizeHint().width() - m_confirm->fontMetrics().horizontalAdvance(m_confirm->text())
        + 4); // no jump when it turns bold
    // Deleting asks for the name first: the box has the focus, so the person types it straight away.
    if (!m_typeToConfirm.isEmpty())
        m_confirmation->setFocus();
    else
        m_cancel->setFocus();
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
    if (m_proposal->needsOverride())
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

void RepairDialog::dataRefreshed(
    const std::shared_ptr<const KlusterFetch> &fetch, const std::shared_ptr<const Diagnosis> &diagnosis)
{
    const Diagnosis &fresh = *diagnosis;
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
    // The same choice, planned from the data just read: where it differs, the new plan is the one shown.
    auto replanned
        = std::make_shared<const RepairProposal>(m_kluster, fetch, diagnosis, m_proposal->choice());
    const QStringList differences = m_proposal->differences(*replanned);
    if (differences.isEmpty())
        return;
    showProposal(replanned);
    m_status->setText(OutsideText::html(
        tr("The kluster was read again and the plan changed (%1). The plan above is the new one: review it "
           "and confirm again.")
            .arg(differences.join(QStringLiteral("; "))),
        2000));
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
    connect(m_connection.data(), &Connection::repairReplanned, this,
        [this](const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences) {
            if (m_running && fresh->kluster() == m_kluster) {
                m_replannedTo = fresh;
                m_replannedWhy = differences;
            }
        });
    connect(m_connection.data(), &Connection::repairFinished, this, [this] {
        if (!m_running)
            return;
        m_running = false;
        disconnect(m_connection.data(), nullptr, this, nullptr);
        if (m_replannedTo) {
            showReplanned();
            return;
        }
        m_done = true;
        m_progress->setVisible(false);
        const int total = int(m_sendable.size());
        const ConsoleText::RepairEnd end = ConsoleText::repairEnd(m_kluster, m_fixed, total, m_anySent);
        m_resultIcon->setPixmap(SeverityStyle::icon(end.severity).pixmap(32, 32));
        m_resultIcon->setVisible(true);
        m_status->setText(end.status);
        setWindowTitle(end.windowTitle);
        m_title->setText(end.heading);
        m_cancel->setText(tr("Close"));
        m_cancel->setToolTip(QString());
        m_cancel->setEnabled(true);
        offerRetry(nullptr, tr("the kluster is being read again"));
        // The silences made for it: expired once everything was verified fixed (or nothing was sent), kept
        // otherwise.
        if (m_silenceBox)
            m_silenceBox->finish(m_fixed == total || !m_anySent, [this](const QString &said) {
                m_status->setText(m_status->text() + QStringLiteral("<br>") + OutsideText::html(said, 600));
            });
        emit repairsFinished(m_fixed, int(m_sendable.size()));
    });
    const bool override = m_proposal->needsOverride() && m_override->isChecked();
    if (!m_silenceBox) {
        m_connection->repair(m_proposal, override);
        return;
    }
    // The silences first (each recorded); one that cannot be made never holds the repair back.
    m_silenceBox->create([this, override](const QString &said) {
        if (!said.isEmpty())
            m_status->setText(tr("Sending… %1").arg(OutsideText::html(said, 600)));
        if (!m_connection)
            return;
        m_connection->repair(m_proposal, override);
        if (m_stopRequested) // Stop was pressed while the silences were made: nothing is sent
            m_connection->cancelRepair();
    });
}

void RepairDialog::showReplanned()
{
    // Nothing was sent: the new plan is shown as one never confirmed; what the run said of the old goes.
    const std::shared_ptr<const RepairProposal> fresh = std::exchange(m_replannedTo, nullptr);
    const QStringList why = std::exchange(m_replannedWhy, {});
    m_finished = 0;
    m_fixed = 0;
    m_anySent = false;
    m_stopRequested = false;
    m_unfixed.clear();
    m_resultLines.clear();
    m_results->clear();
    m_results->setVisible(false);
    m_progress->setVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(QString());
    m_cancel->setEnabled(true);
    if (m_silenceBox) { // made for the plan that was not sent: expired; the new plan is sent without them
        m_silenceBox->finish(true, [](const QString &) {});
        m_silenceBox->hide();
        m_silenceBox = nullptr;
    }
    showProposal(fresh);
    m_resultIcon->setPixmap(SeverityStyle::icon(Severity::Warning).pixmap(32, 32));
    m_resultIcon->setVisible(true);
    m_status->setText(OutsideText::html(
        (m_sendable.isEmpty()
                ? tr("Nothing was sent: read again just before sending, the kluster gives another plan (%1), "
                     "and it leaves nothing to send.")
                : tr("Nothing was sent: read again just before sending, the kluster gives another plan (%1). "
                     "The "
                     "plan above is the new one: review it and confirm again."))
            .arg(why.join(QStringLiteral("; "))),
        2000));
    emit replanned();
}

void RepairDialog::showStep(const QString &findingId, const RepairExecutor::Outcome &outcome)
{
    using R = RepairExecutor::Outcome::Result;
    if (m_replannedTo)
        return; // nothing was sent: the new plan is shown instead
    m_anySent = m_anySent || !outcome.requests.isEmpty();
    ++m_finished;
    m_progress->setValue(m_finished);
    if (outcome.result == R::Fixed)
        ++m_fixed;
    else
        m_unfixed << findingId;
    m_resultLines << ConsoleText::repairOutcomeLine(findingId, outcome);
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
        m_stopRequested = true;
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

QString RepairDialog::typeToConfirmText() const
{
    QTextDocument doc;
    doc.setHtml(m_typeLabel->text());
    return doc.toPlainText();
}
