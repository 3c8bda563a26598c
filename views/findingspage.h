#pragma once

#include <QWidget>

class FindingsModel;
class QComboBox;
class QPushButton;
class QTextBrowser;
class TablePage;
struct Finding;

// Every finding of the selected kluster: the table (severity, kind, subject,
// message), the selected finding's message, evidence and planned requests,
// and the Repair button (hidden on a read-only connection).
class FindingsPage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsPage)

public:
    explicit FindingsPage(FindingsModel *model, QWidget *parent = nullptr);

    TablePage *table() const { return m_table; }
    QPushButton *repairButton() const { return m_repair; }
    void setReadOnly(bool readOnly);
    QStringList selectedIds() const;      // the selected findings, in view order
    QStringList repairableSelection() const;
    bool selectId(const QString &id);
    // Moves the current row by `step` (wrapping), for next/previous finding.
    void step(int step);
    void updateDetails();

signals:
    void repairRequested(const QStringList &findingIds);
    void selectionChanged(const QStringList &findingIds);

private:
    FindingsModel *m_model;
    TablePage *m_table;
    QComboBox *m_severity;
    QTextBrowser *m_details;
    QPushButton *m_repair;
    bool m_readOnly = false;
};
