#include "views/guidedrepairdialog.h"

#include "console/guidedrepair.h"
#include "views/severitystyle.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

GuidedRepairDialog::GuidedRepairDialog(GuidedRepair *guide, QWidget *parent)
    : QDialog(parent)
    , m_guide(guide)
    , m_text(new QTextBrowser(this))
    , m_status(new QLabel(this))
{
    guide->setParent(this);
    setWindowTitle(tr("Guided manual repair"));
    setObjectName(QStringLiteral("guidedRepairDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *lead = new QLabel(tr("<b>These credentials may not send this repair.</b> Flightdeck will not try "
                               "(the cloud would refuse "
                               "it). Hand the commands below to someone who may, then Verify."),
        this);
    lead->setWordWrap(true);
    layout->addWidget(lead);
    m_text->setObjectName(QStringLiteral("guide"));
    m_text->setOpenLinks(false);
    m_text->setMarkdown(guide->markdown());
    // The commands wrap at the width rather than run off to the right (a fenced block does not by itself).
    for (QTextBlock block = m_text->document()->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (!format.nonBreakableLines())
            continue;
        format.setNonBreakableLines(false);
        QTextCursor(block).setBlockFormat(format);
    }
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_text->setMinimumSize(760, 380);
    layout->addWidget(m_text, 1);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_copy = buttons->addButton(tr("Copy as &Markdown"), QDialogButtonBox::ActionRole);
    m_verify = buttons->addButton(tr("&Verify"), QDialogButtonBox::ActionRole);
    m_copy->setToolTip(
        tr("Copy the commands for a ticket or a chat; the hand-off is recorded in the audit log"));
    m_verify->setToolTip(tr("Read the kluster again: are the findings gone? Recorded in the audit log"));
    m_copy->setDefault(true);
    layout->addWidget(buttons);
    m_copy->setFocus(); // Enter copies; Tab reaches the commands to select a part
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_guide->markdown());
        m_status->setText(tr("Copied as Markdown; %1.").arg(m_guide->handOver()));
    });
    connect(m_verify, &QPushButton::clicked, this, [this] {
        m_verify->setEnabled(false);
        m_status->setText(tr("Verifying: reading kluster again…"));
        m_guide->verify();
    });
    connect(guide, &GuidedRepair::verified, this, [this](const HandOffs::Verification &v) {
        m_verify->setEnabled(true);
        const QString said = v.sentence();
        const QColor colour
            = SeverityStyle::colour(v.done() ? std::nullopt : std::optional(Severity::Warning));
        m_status->setText(
            QStringLiteral("<b style=\"color:%1\">%2</b>%3")
                .arg(colour.name(), said.toHtmlEscaped(),
                    v.error.isEmpty() ? tr(" (recorded in the audit log)")
                                      : tr(" (not recorded: %1)").arg(v.error.toHtmlEscaped())));
    });
    connect(guide, &GuidedRepair::eventWritten, this, [this](const QString &outcome) {
        m_status->setText(m_status->text() + tr("<br>The Kubernetes Event %1.").arg(outcome.toHtmlEscaped()));
    });
}

QString GuidedRepairDialog::guideText() const
{
    return m_text->toPlainText();
}

QString GuidedRepairDialog::statusText() const
{
    return m_status->text();
}
