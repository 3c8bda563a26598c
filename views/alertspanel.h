#pragma once

#include "console/consoletext.h"

#include <QLabel>

// The Overview's alerts (ConsoleText::AlertsText): each alert a line, its severity in its colour, what no
// finding explains in bold (the cause is elsewhere), silenced ones dimmed, the monitoring's gap and a failed
// read beneath; each alert not silenced yet offers "Silence…" (a link, reached with Tab). Hidden without an
// Alertmanager.
class AlertsPanel : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsPanel)

public:
    explicit AlertsPanel(QWidget *parent = nullptr);
    void showAlerts(const ConsoleText::AlertsText &alerts);
    QString shown() const; // the words shown (tests); empty while hidden

signals:
    // "Silence…" of an alert not silenced yet (its fingerprint).
    void silenceRequested(const QString &fingerprint);
};
