#include "views/repairsilencebox.h"

#include "core/printable.h"
#include "views/severitystyle.h"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

RepairSilenceBox::RepairSilenceBox(AlertmanagerClient *client, const RepairSilences::Context &context,
    const QList<SilenceRequest> &planned, const QStringList &findingIds, QWidget *parent)
    : QWidget(parent)
    , m_check(new QCheckBox(this))
    , m_list(new QLabel(this))
    , m_caught(new QLabel(this))
    , m_silences(new RepairSilences(client, context, this))
    , m_planned(planned)
    , m_findings(findingIds)
{
    const int minutes
        = planned.isEmpty() ? 0 : int(planned.first().startsAt.secsTo(planned.first().endsAt) / 60);
    m_check->setText(planned.size() == 1
            ? tr("&Silence the alert of these findings while repairing (%1 min; expired once verified)")
                  .arg(minutes)
            : tr("&Silence the %1 alerts of these findings while repairing (%2 min; expired once verified)")
                  .arg(planned.size())
                  .arg(minutes));
    m_check->setAccessibleName(m_check->text().remove(QLatin1Char('&')));
    m_list->setWordWrap(true);
    m_list->setTextFormat(Qt::PlainText);
    m_list->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list->setText(plannedText());
    m_list->setAccessibleName(tr("The silences it would make"));
    m_list->setIndent(20);
    m_caught->setWordWrap(true);
    m_caught->setTextFormat(Qt::PlainText);
    m_caught->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caught->setIndent(20);
    m_caught->setText(tr("Asking Alertmanager which other alerts they would silence…"));
    m_caught->setAccessibleName(tr("Other alerts the silences would catch"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_check);
    layout->addWidget(m_list);
    layout->addWidget(m_caught);
    m_silences->preview(m_planned, [this](const QStringList &lines, int others) {
        m_caught->setText(lines.join(QLatin1Char('\n')));
        if (others > 0) {
            QPalette p = m_caught->palette();
            p.setColor(QPalette::WindowText, SeverityStyle::alarmText(palette()));
            m_caught->setPalette(p);
        }
    });
}

QString RepairSilenceBox::caughtText() const
{
    return m_caught->text();
}

QString RepairSilenceBox::plannedText() const
{
    QStringList lines;
    for (const SilenceRequest &s : m_planned)
        lines << tr("%1 until %2, by %3: %4")
                     .arg(OutsideText::line(s.matchersText(), 600),
                         s.endsAt.toUTC().toString(QStringLiteral("HH:mm 'UTC'")),
                         OutsideText::line(s.createdBy), OutsideText::line(s.comment));
    return lines.join(QLatin1Char('\n'));
}

bool RepairSilenceBox::wanted() const
{
    return m_check->isChecked() && !m_planned.isEmpty();
}

void RepairSilenceBox::create(const std::function<void(const QString &)> &then)
{
    m_check->setEnabled(false);
    if (!wanted()) {
        then(QString());
        return;
    }
    // From now, not from when the dialog opened.
    QList<SilenceRequest> now = m_planned;
    const QDateTime start = QDateTime::currentDateTimeUtc();
    for (SilenceRequest &s : now) {
        const qint64 length = s.startsAt.secsTo(s.endsAt);
        s.startsAt = start;
        s.endsAt = start.addSecs(length);
    }
    connect(
        m_silences, &RepairSilences::created, this,
        [this, then](const QStringList &ids, const QStringList &errors) {
            m_made = !ids.isEmpty();
            QString said
                = ids.isEmpty() ? QString() : tr("Silenced: %1.").arg(ids.join(QStringLiteral(", ")));
            if (!errors.isEmpty())
                said += (said.isEmpty() ? QString() : QStringLiteral(" "))
                    + tr("Not silenced (the repair goes on): %1").arg(errors.join(QStringLiteral("; ")));
            then(said);
        },
        Qt::SingleShotConnection);
    m_silences->create(now, m_findings);
}

void RepairSilenceBox::finish(bool verified, const std::function<void(const QString &)> &said)
{
    if (!m_made)
        return;
    connect(
        m_silences, &RepairSilences::finished, this, [said](const QString &summary) { said(summary); },
        Qt::SingleShotConnection);
    m_silences->finish(verified);
}
