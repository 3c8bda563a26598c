#pragma once

#include "services/repair/auditlog.h"
#include "views/tablepage.h"

class AuditModel;

// The audit log: every repair sent from this machine (console and command line), newest first, each with the
// requests it sent and their answers in the detail pane. Read as the log grows: a reload parses only what was
// appended.
class AuditPage : public TablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditPage)

public:
    explicit AuditPage(AuditModel *model, QWidget *parent = nullptr);

    // Reads what was appended to the log since; false with `error` when it cannot be read.
    bool reload(QString *error);

private:
    QString detailsHtml(const QModelIndexList &rows) const;

    AuditModel *m_model;
    AuditLog::Reader m_reader; // the log read so far
};
