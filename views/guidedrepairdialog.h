#pragma once

#include <QDialog>

class GuidedRepair;
class QLabel;
class QPushButton;
class QTextBrowser;

// A repair these credentials may not send (diagnosis.md §8), shown as what it is: why Flightdeck will not
// send it, the exact commands for someone who may, in order, with what each should change; Copy as
// Markdown hands it over (and records that in the audit log); Verify reads the kluster again and says (and
// records) "repaired by someone else, verified" or "not yet". Never a confirmation that would end in a 403.
class GuidedRepairDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuidedRepairDialog)

public:
    GuidedRepairDialog(GuidedRepair *guide, QWidget *parent = nullptr);

    QString guideText() const; // the guide as shown, in plain text
    QString statusText() const; // the line under it: copied, verifying, verified, not yet

private:
    GuidedRepair *m_guide;
    QTextBrowser *m_text;
    QLabel *m_status;
    QPushButton *m_copy;
    QPushButton *m_verify;
};
