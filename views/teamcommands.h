#pragma once

#include "views/command.h"

class ConsoleSession;

// What a person hands to teammates (issue "on call as a team"): the link to the kluster or to the finding or
// incident selected (Ctrl+Shift+L; flightdeck://…, which opens the console on it), the kluster or the
// selected incident as Markdown for a ticket or a chat thread (Ctrl+Shift+C), and a kluster marked protected
// (every repair then asks for its name typed; marked in the kluster list).
class CopyLinkCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyLinkCommand)

public:
    CopyLinkCommand(Context context, ConsoleSession *session, QObject *parent = nullptr);
    void update() override;
    QString link() const; // what it copies now (empty: nothing chosen)

protected:
    void run() override;

private:
    ConsoleSession *m_session;
};

class CopyMarkdownCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyMarkdownCommand)

public:
    CopyMarkdownCommand(Context context, ConsoleSession *session, QObject *parent = nullptr);
    void update() override;
    QString markdown() const; // what it copies now

protected:
    void run() override;

private:
    ConsoleSession *m_session;
};

class ProtectKlusterCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProtectKlusterCommand)

public:
    ProtectKlusterCommand(Context context, ConsoleSession *session, QObject *parent = nullptr);
    void update() override;

protected:
    void run() override;

private:
    ConsoleSession *m_session;
};
