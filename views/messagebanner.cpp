#include "views/messagebanner.h"

#include "core/printable.h"
#include "views/severitystyle.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

// The banner's types in the severity style: an error is drawn as critical, good news as healthy.
std::optional<Severity> severityOf(MessageBanner::Type type)
{
    switch (type) {
    case MessageBanner::Type::Error:
        return Severity::Critical;
    case MessageBanner::Type::Warning:
        return Severity::Warning;
    case MessageBanner::Type::Information:
        return Severity::Info;
    case MessageBanner::Type::Positive:
        break;
    }
    return std::nullopt;
}

QString wordOf(MessageBanner::Type type)
{
    switch (type) {
    case MessageBanner::Type::Error:
        return MessageBanner::tr("Error");
    case MessageBanner::Type::Warning:
        return MessageBanner::tr("Warning");
    case MessageBanner::Type::Information:
        return MessageBanner::tr("Information");
    case MessageBanner::Type::Positive:
        break;
    }
    return MessageBanner::tr("Done");
}

QToolButton *textButton(const QString &text, const QString &accessibleName, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setText(text);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setAccessibleName(accessibleName);
    return button;
}

} // namespace

MessageBanner::MessageBanner(QWidget *parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_buttons(new QHBoxLayout)
    , m_retry(textButton(tr("Retry"), tr("Try again what failed"), this))
    , m_detailsButton(textButton(tr("Details…"), tr("Show the details of the message"), this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("banner"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setMinimumWidth(120);
    connect(m_retry, &QToolButton::clicked, this, &MessageBanner::retryRequested);
    connect(m_detailsButton, &QToolButton::clicked, this, &MessageBanner::showDetails);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss until something changes"));
    m_close->setAccessibleName(tr("Dismiss the message"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        m_dismissedText = m_message.text;
        hide();
        emit dismissed();
    });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
    m_buttons->addWidget(m_retry);
    m_buttons->addWidget(m_detailsButton);
    layout->addLayout(m_buttons);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::setMessage(const Message &message)
{
    if (message.text.isEmpty()) {
        clear();
        return;
    }
    m_message = message;
    setAccessibleName(wordOf(message.type));
    m_icon->setPixmap(SeverityStyle::icon(severityOf(message.type)).pixmap(22, 22));
    m_label->setText(message.text);
    m_label->setAccessibleName(message.text);
    m_retry->setVisible(message.retry);
    m_detailsButton->setVisible(!message.details.isEmpty());
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
    for (QAction *action : message.actions) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(action);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_buttons->insertWidget(m_buttons->indexOf(m_detailsButton), b);
        m_actionButtons << b;
    }
    update();
    setVisible(message.text != m_dismissedText);
}

void MessageBanner::clear()
{
    m_message = Message();
    m_dismissedText.clear();
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
    hide();
}

void MessageBanner::paintEvent(QPaintEvent *)
{
    // A rounded box in the type's colour: its edge strong, its fill a wash over the surrounding window.
    const std::optional<Severity> severity = severityOf(m_message.type);
    const QPalette around = parentWidget() ? parentWidget()->palette() : palette();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(SeverityStyle::colour(severity), 1));
    p.setBrush(SeverityStyle::wash(severity, around));
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

void MessageBanner::showDetails()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Details"));
    auto *text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    // Plain text people copy into a terminal or a ticket: nothing in it may drive a terminal.
    text->setPlainText(printableLines(m_message.details.isEmpty() ? m_message.text : m_message.details));
    text->setAccessibleName(tr("Details of the message"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(720, 360);
    dialog->open();
}
