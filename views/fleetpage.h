#pragma once

#include "core/klusterkey.h"

#include <QWidget>

class FilterModel;
class FleetView;
class QAbstractItemModel;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;

// The Fleet view: every kluster of every connection at a glance (FleetView), above it a filter box that
// speaks the kluster list's field syntax (`severity:critical region:eu-de-1 -state:fresh`), how the tiles
// are grouped (connection and region, state, none), whether they are tiles or a heat map (automatic: a heat
// map beyond a hundred klusters), what the fleet holds counted, and the current tile said in words.
//
// Keyboard: "/" or Ctrl+F to the filter box; Enter there opens the first (worst) kluster that matches, Down
// moves to the tiles; the arrow keys, Page Up/Down, Home and End move between tiles, Enter opens one.
class FleetPage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetPage)

public:
    FleetPage(QAbstractItemModel *klusters, QWidget *parent = nullptr);

    FleetView *view() const { return m_view; }
    QLineEdit *filterBox() const { return m_filterBox; }
    QLabel *summary() const { return m_summary; }
    QLabel *currentLine() const { return m_currentLine; }
    void focusFilter();

signals:
    void klusterActivated(const KlusterKey &key);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyLayout();
    void showSummary();
    void showCurrent();

    QAbstractItemModel *m_klusters;
    FilterModel *m_filter;
    FleetView *m_view;
    QScrollArea *m_scroll;
    QLineEdit *m_filterBox;
    QComboBox *m_grouping;
    QComboBox *m_layout;
    QLabel *m_summary;
    QLabel *m_currentLine;
};
