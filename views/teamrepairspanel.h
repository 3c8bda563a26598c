#pragma once

#include <QLabel>
#include <QStringList>

// What teammates and Kubernikus did to the kluster, as its repair Events and Kubernikus' events tell it
// (console/klustertimeline.h), where the person looks: the Overview's "Lately on this kluster" lines (and
// why they could not be read), and the repair dialog's warning of a teammate's recent repair. Hidden while
// there is nothing to say.
class TeamRepairsPanel : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamRepairsPanel)

public:
    explicit TeamRepairsPanel(QWidget *parent = nullptr);
    // The Overview's: one line per repair or Kubernikus event, newest first; `problems`: what could not be
    // read.
    void showRepairs(const QStringList &lines, const QStringList &problems);
    // The repair dialog's warning; `inProgress`: one of them has not ended yet.
    void showWarning(const QStringList &lines, bool inProgress);
    QString shown() const; // the words shown, in plain text (empty while hidden)
};
