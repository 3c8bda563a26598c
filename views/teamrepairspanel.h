#pragma once

#include <QLabel>
#include <QStringList>

// What teammates did to the kluster, as its repair Events tell it (console/teamrepairs.h), where the person
// looks: the Overview's "Repaired lately" lines (and why they could not be read), and the repair dialog's
// warning of a teammate's recent repair. Hidden while there is nothing to say.
class TeamRepairsPanel : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamRepairsPanel)

public:
    explicit TeamRepairsPanel(QWidget *parent = nullptr);
    // The Overview's: one line per repair, newest first; `problem`: the Events could not be read.
    void showRepairs(const QStringList &lines, const QString &problem);
    // The repair dialog's warning; `inProgress`: one of them has not ended yet.
    void showWarning(const QStringList &lines, bool inProgress);
    QString shown() const; // the words shown, in plain text (empty while hidden)
};
