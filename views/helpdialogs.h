#pragma once

class QDialog;
class QMainWindow;
class QString;
class QWidget;

// Help → Keyboard shortcuts (F1, ?): every action of the window with its
// keys, read from the actions themselves, plus the keys of the views; and
// Help → About: version, build and where things are kept; and a runbook, opened from a finding's details.
namespace HelpDialogs {
QDialog *shortcuts(QMainWindow *window);
QDialog *about(QMainWindow *window);
// The runbook of a finding kind or incident rule (docs/runbooks/, built in); null when there is none.
QDialog *runbook(QWidget *parent, const QString &name);
} // namespace HelpDialogs
