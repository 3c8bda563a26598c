#pragma once

#include <QObject>

class QAbstractItemView;

// An item view's tool tips shown as plain text. The models' ToolTipRole holds text from outside (a server's
// name, a Nova fault, a node's condition, an alert); Qt shows a tool tip that looks like HTML as rich text,
// and would load what an <img src=file:…> in it names. Installed on a view's viewport, it shows the cell's
// tool tip escaped (OutsideText::toolTip) instead.
class PlainToolTips : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlainToolTips)

public:
    static void install(QAbstractItemView *view);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit PlainToolTips(QAbstractItemView *view);

    QAbstractItemView *m_view;
};
