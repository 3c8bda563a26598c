#pragma once

#include "views/command.h"

class ConnectionRegistry;
class HistoryClient;
class QAbstractItemModel;
class QWidget;

// The File menu's commands: the kluster shown saved as a snapshot folder (Ctrl+Shift+S) or reported (HTML
// with its history, CSV, JSON: Ctrl+E), the audit log as filtered exported (JSON Lines or CSV), and a
// snapshot folder opened offline and read-only (Ctrl+O). Each asks where in a file dialog.
class ExportSnapshotCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportSnapshotCommand)

public:
    ExportSnapshotCommand(Context context, QWidget *window, QObject *parent = nullptr);

protected:
    void run() override;

private:
    QWidget *m_window;
};

class ExportReportCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportReportCommand)

public:
    ExportReportCommand(Context context, HistoryClient *history, QWidget *window, QObject *parent = nullptr);

protected:
    void run() override;

private:
    HistoryClient *m_history;
    QWidget *m_window;
};

class ExportAuditCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportAuditCommand)

public:
    // `shown`: the audit log's rows as the view filters them.
    ExportAuditCommand(const QAbstractItemModel *shown, QWidget *window, QObject *parent = nullptr);

protected:
    void run() override;

private:
    const QAbstractItemModel *m_shown;
    QWidget *m_window;
};

class OpenSnapshotCommand : public Command
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OpenSnapshotCommand)

public:
    OpenSnapshotCommand(ConnectionRegistry *registry, QWidget *window, QObject *parent = nullptr);

protected:
    void run() override;

private:
    ConnectionRegistry *m_registry;
    QWidget *m_window;
};
