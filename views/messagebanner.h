#pragma once

#include <QFrame>

class QAction;
class QHBoxLayout;
class QLabel;
class QToolButton;

// An inline message above the views, never a modal box (after Dolphin's
// KMessageWidget): a type (error, warning, information) shown by colour and
// icon, one short text, the full story behind "Details…", and actions
// (Retry, Add connection…). Dismissing hides it until its text changes.
class MessageBanner : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageBanner)

public:
    enum class Type { Error, Warning, Information };

    explicit MessageBanner(QWidget *parent = nullptr);

    // Shows `text` (plain, one line per item) with `details` behind a button
    // (empty: no button) and `actions` as buttons. Empty `text` hides the banner.
    void setMessage(Type type, const QString &text, const QString &details = QString(), const QList<QAction *> &actions = {});
    void clear();
    Type type() const { return m_type; }
    QString text() const { return m_text; }
    QString details() const { return m_details; }
    bool isShown() const { return !isHidden(); }

signals:
    void dismissed();

private:
    void showDetails();

    Type m_type = Type::Information;
    QString m_text;
    QString m_details;
    QString m_dismissedText;  // hidden by the person until the text changes
    QLabel *m_icon;
    QLabel *m_label;
    QHBoxLayout *m_buttons;
    QToolButton *m_detailsButton;
    QToolButton *m_close;
    QList<QToolButton *> m_actionButtons;
};
