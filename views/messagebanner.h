#pragma once

#include <QList>
#include <QWidget>

class QAction;
class QHBoxLayout;
class QLabel;
class QToolButton;

// An inline message above the views, never a modal box (after Dolphin's
// KMessageWidget): a type (error, warning, information, positive) shown by
// the severity style's colour, icon and word; one short text; and its
// actions: Retry when trying again may help, the window's own actions
// ("Connections…", "Add connection…"), Details for the full story, Dismiss.
// Dismissing hides it until its text changes.
class MessageBanner : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageBanner)

public:
    enum class Type
    {
        Error,
        Warning,
        Information,
        Positive
    };

    struct Message
    {
        Type type = Type::Information;
        QString text; // plain, one line per item; empty hides the banner
        QString details; // behind "Details…"; empty: no such button
        bool retry = false; // offers "Retry" (retryRequested())
        QList<QAction *> actions; // more buttons, after Retry
    };

    explicit MessageBanner(QWidget *parent = nullptr);

    void setMessage(const Message &message);
    void clear();
    Type type() const { return m_message.type; }
    QString text() const { return m_message.text; }
    QString details() const { return m_message.details; }
    bool isShown() const { return !isHidden(); }
    QToolButton *retryButton() const { return m_retry; }
    QToolButton *detailsButton() const { return m_detailsButton; }
    QToolButton *dismissButton() const { return m_close; }

signals:
    void retryRequested();
    void dismissed();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void showDetails();

    Message m_message;
    QString m_dismissedText; // hidden by the person until the text changes
    QLabel *m_icon;
    QLabel *m_label;
    QHBoxLayout *m_buttons;
    QToolButton *m_retry;
    QToolButton *m_detailsButton;
    QToolButton *m_close;
    QList<QToolButton *> m_actionButtons;
};
