#pragma once

#include <QWidget>

class FilterModel;
class QAbstractItemModel;
class QItemSelectionModel;
class QLabel;
class QLineEdit;
class QTableView;

// A console table: a caption (what it shows and when its data was fetched),
// a filter box, and a sortable table over `model` through a FilterModel and
// the severity marks. Used by the nodes, routes, security group and audit views.
class TablePage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TablePage)

public:
    // `sortRole`/`severityRole`/`problemRole`: the source's roles (-1 when it has none).
    TablePage(const QString &name, QAbstractItemModel *model, int sortRole, int severityRole, int problemRole,
              QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    FilterModel *filter() const { return m_filter; }
    QLineEdit *filterBox() const { return m_filterBox; }
    void setCaption(const QString &text);
    QString caption() const;
    // Selects (and scrolls to) the rows of the source model whose `role` value is in `keys`.
    int selectSourceRows(int role, const QStringList &keys);
private:
    QAbstractItemModel *m_source;
    FilterModel *m_filter;
    QLabel *m_caption;
    QLineEdit *m_filterBox;
    QTableView *m_view;
};
