#include "views/silencealertdialog.h"

#include "core/printable.h"
#include "views/severitystyle.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

SilenceAlertDialog::SilenceAlertDialog(
    AlertmanagerClient *client, const RepairSilences::Context &context, const Alert &alert, QWidget *parent)
    : QDialog(parent)
    , m_silences(new RepairSilences(client, context, this))
    , m_alert(alert)
    , m_user(context.user)
    , m_matchers(new QLabel(this))
    , m_caught(new QLabel(this))
    , m_klusterLabels(client->target().klusterLabels)
    , m_minutes(new QSpinBox(this))
    , m_comment(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
    , m_silence(m_buttons->addButton(tr("&Silence"), QDialogButtonBox::AcceptRole))
{
    setWindowTitle(tr("Silence alert %1 — kluster %2")
                       .arg(OutsideText::line(alert.name(), 80), OutsideText::line(context.kluster, 80)));
    SilenceRequest preview;
    preview.matchers = SilenceRequest::matchersOf(alert, m_klusterLabels);
    preview.alertFingerprint = alert.fingerprint;
    m_matchers->setText(OutsideText::line(preview.matchersText(), 1000));
    m_matchers->setWordWrap(true);
    m_matchers->setTextFormat(Qt::PlainText);
    m_matchers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_matchers->setAccessibleName(tr("The silence's matchers"));
    m_minutes->setRange(5, 7 * 24 * 60);
    m_minutes->setValue(RepairSilences::DefaultMinutes);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setAccessibleName(tr("How long the silence lasts, in minutes"));
    m_comment->setText(alert.findings.isEmpty()
            ? tr("Flightdeck: %1 silenced by hand (no finding explains it)")
                  .arg(OutsideText::line(alert.name(), 80))
            : tr("Flightdeck: %1 silenced by hand (%2)")
                  .arg(OutsideText::line(alert.name(), 80), alert.findings.join(QStringLiteral(", "))));
    m_comment->setAccessibleName(tr("The silence's comment"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // it names the alert: never rich text
    m_caught->setWordWrap(true);
    m_caught->setTextFormat(Qt::PlainText);
    m_caught->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caught->setAccessibleName(tr("Other alerts the silence would catch"));
    m_caught->setText(tr("Asking Alertmanager which other alerts it would silence…"));
    m_silence->setEnabled(false); // until that is known
    m_silence->setAutoDefault(false);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("<b>Silence this alert</b> in Alertmanager (this alert and no other: every label "
           "of it, equal, and the identifying labels it lacks, empty). Nothing is sent until you "
           "confirm; the silence is recorded in the audit log. Flightdeck does not expire it: it "
           "ends when its time is up."),
        this);
    intro->setTextFormat(Qt::RichText);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    form->addRow(tr("Matchers:"), m_matchers);
    form->addRow(tr("Also catches:"), m_caught);
    auto *minutesLabel = new QLabel(tr("&For:"), this);
    minutesLabel->setTextFormat(Qt::PlainText);
    minutesLabel->setBuddy(m_minutes);
    form->addRow(minutesLabel, m_minutes);
    auto *commentLabel = new QLabel(tr("Co&mment:"), this);
    commentLabel->setTextFormat(Qt::PlainText);
    commentLabel->setBuddy(m_comment);
    form->addRow(commentLabel, m_comment);
    auto *creator = new QLabel(OutsideText::line(context.user), this);
    creator->setTextFormat(Qt::PlainText);
    form->addRow(tr("Created by:"), creator);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    connect(m_silence, &QPushButton::clicked, this, &SilenceAlertDialog::send);
    m_silence->setToolTip(tr("Make the silence (Ctrl+Enter)"));
    for (const QKeySequence &key :
        { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) })
        connect(new QShortcut(key, this), &QShortcut::activated, this, [this] {
            if (m_silence->isEnabled())
                m_silence->click();
        });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setMinimumWidth(560);
    m_minutes->setFocus();
    m_silences->preview({ preview }, [this](const QStringList &lines, int others) {
        m_caught->setText(lines.value(0));
        if (others > 0) {
            QPalette p = m_caught->palette();
            p.setColor(QPalette::WindowText, SeverityStyle::alarmText(palette()));
            m_caught->setPalette(p);
        }
        m_silence->setEnabled(true);
    });
}

QString SilenceAlertDialog::caughtText() const
{
    return m_caught->text();
}

QString SilenceAlertDialog::statusText() const
{
    return m_status->text();
}

void SilenceAlertDialog::send()
{
    SilenceRequest s;
    s.matchers = SilenceRequest::matchersOf(m_alert, m_klusterLabels);
    s.alertFingerprint = m_alert.fingerprint;
    s.startsAt = QDateTime::currentDateTimeUtc();
    s.endsAt = s.startsAt.addSecs(qint64(m_minutes->value()) * 60);
    s.createdBy = m_user;
    s.comment = m_comment->text().trimmed().isEmpty() ? tr("Flightdeck: silenced by hand")
                                                      : m_comment->text().trimmed();
    m_silence->setEnabled(false);
    m_minutes->setEnabled(false);
    m_comment->setEnabled(false);
    m_status->setText(tr("Silencing…"));
    connect(
        m_silences, &RepairSilences::created, this,
        [this](const QStringList &ids, const QStringList &errors) {
            const QString message = ids.isEmpty()
                ? tr("Not silenced: %1").arg(OutsideText::line(errors.join(QStringLiteral("; ")), 600))
                : tr("Silenced %1 until %2 (silence %3); recorded in the audit log.")
                      .arg(OutsideText::line(m_alert.name(), 80),
                          QDateTime::currentDateTimeUtc()
                              .addSecs(qint64(m_minutes->value()) * 60)
                              .toString(QStringLiteral("HH:mm 'UTC'")),
                          OutsideText::line(ids.join(QStringLiteral(", ")), 200));
            m_status->setText(message);
            m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
            emit silenced(message);
        },
        Qt::SingleShotConnection);
    m_silences->create({ s }, m_alert.findings);
}
