#include "views/messagebanner.h"

#include "views/severitystyle.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_buttons(new QHBoxLayout)
    , m_detailsButton(new QToolButton(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("banner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setMinimumWidth(120);
    m_detailsButton->setText(tr("Details…"));
    m_detailsButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_detailsButton->setAccessibleName(tr("Show the details of the message"));
    connect(m_detailsButton, &QToolButton::clicked, this, &MessageBanner::showDetails);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss until something changes"));
    m_close->setAccessibleName(tr("Dismiss the message"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        m_dismissedText = m_text;
        hide();
        emit dismissed();
    });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_label, 1);
    m_buttons->addWidget(m_detailsButton);
    layout->addLayout(m_buttons);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::setMessage(Type type, const QString &text, const QString &details, const QList<QAction *> &actions)
{
    if (text.isEmpty()) {
        clear();
        return;
    }
    m_type = type;
    m_text = text;
    m_details = details;
    const int severity = type == Type::Error ? 0 : type == Type::Warning ? 1 : 2;
    QPalette pal = palette();
    const QColor edge = SeverityStyle::colour(severity);
    QColor back = edge;
    back.setAlpha(255);
    // A light wash of the type's colour over the window, readable in light and dark palettes.
    const QColor window = QPalette().color(QPalette::Window);
    const qreal a = 0.22;
    back = QColor::fromRgbF(window.redF() * (1 - a) + edge.redF() * a, window.greenF() * (1 - a) + edge.greenF() * a,
                            window.blueF() * (1 - a) + edge.blueF() * a);
    pal.setColor(QPalette::Window, back);
    setPalette(pal);
    setAccessibleName(type == Type::Error ? tr("Error") : type == Type::Warning ? tr("Warning") : tr("Information"));
    m_icon->setPixmap(SeverityStyle::icon(severity).pixmap(22, 22));
    m_label->setText(text);
    m_label->setAccessibleName(text);
    m_detailsButton->setVisible(!details.isEmpty());
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
    for (QAction *action : actions) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(action);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_buttons->insertWidget(m_buttons->count() - 1, b);
        m_actionButtons << b;
    }
    setVisible(text != m_dismissedText);
}

void MessageBanner::clear()
{
    m_text.clear();
    m_details.clear();
    m_dismissedText.clear();
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
    hide();
}

void MessageBanner::showDetails()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Details"));
    auto *text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    text->setPlainText(m_details.isEmpty() ? m_text : m_details);
    text->setAccessibleName(tr("Details of the message"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(720, 360);
    dialog->open();
}
