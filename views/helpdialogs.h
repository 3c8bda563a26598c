#pragma once

class QDialog;
class QMainWindow;

// Help → Keyboard shortcuts (F1, ?): every action of the window with its
// keys, read from the actions themselves, plus the keys of the views; and
// Help → About: version, build and where things are kept.
namespace HelpDialogs {
QDialog *shortcuts(QMainWindow *window);
QDialog *about(QMainWindow *window);
} // namespace HelpDialogs
