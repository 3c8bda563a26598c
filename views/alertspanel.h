#pragma once

#include "console/consoletext.h"

#include <QLabel>

// The Overview's alerts (ConsoleText::AlertsText): each alert a line, its severity in its colour, what no
// finding explains in bold (the cause is elsewhere), silenced ones dimmed, the monitoring's gap and a failed
// read beneath. Hidden without an Alertmanager.
class AlertsPanel : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsPanel)

public:
    explicit AlertsPanel(QWidget *parent = nullptr);
    void showAlerts(const ConsoleText::AlertsText &alerts);
    QString shown() const; // the words shown (tests); empty while hidden
};
