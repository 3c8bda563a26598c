#pragma once

#include "models/consolerole.h"

#include <QModelIndexList>
#include <QWidget>
#include <functional>

class FilterModel;
class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTextBrowser;
class QTreeView;
class SeverityDecorator;

// A console view over one of the item models (flat or grouped): a caption
// (what it shows and when its data was fetched), a filter box that speaks
// FilterQuery, the sortable table, and below it a detail pane for what is
// too long for a column (the findings of the selected rows, their evidence
// and plan), with the Repair button. The models answer the ConsoleRole roles.
//
// Keyboard: Enter in the filter box moves to the first match, selected;
// Down does too; Escape clears the filter. Tabbing into the table selects the
// row under the cursor, so what has the cursor is what Repair acts on.
class TablePage : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TablePage)

public:
    // `name`: what the rows are ("Findings", "Nodes", …); `filterFields`: the model's filter fields.
    TablePage(const QString &name, QAbstractItemModel *model, const QStringList &filterFields,
        QWidget *parent = nullptr);

    QString name() const { return m_name; }
    QTreeView *view() const { return m_view; }
    FilterModel *filter() const { return m_filter; }
    SeverityDecorator *decorator() const { return m_decorator; }
    QLineEdit *filterBox() const { return m_filterBox; }
    QLabel *filterProblem() const { return m_filterProblem; } // why the filter shows nothing, when it does
    QTextBrowser *details() const { return m_details; }
    QPushButton *repairButton() const { return m_repair; }
    // Adds a widget (a severity or scope choice) to the row of the filter box.
    void addToolWidget(QWidget *widget);
    void setCaption(const QString &text);
    QString caption() const;
    // Without its table (and the filter row): the detail pane takes the page, under the caption (what a
    // kluster read only through Prometheus shows: its exporter's report). Shown again as it was.
    void setTableShown(bool shown);

    // The detail pane's HTML for the selected rows (source indexes, column 0, in view order).
    void setDetailsProvider(std::function<QString(const QModelIndexList &rows)> provider);
    void updateDetails();
    // How many of the selected findings can be repaired (the button's text and state); hidden when read-only.
    // `text`: the button's words when not the count's ("Repair the incident…").
    void setRepairable(int count, bool readOnly, const QString &text = QString());
    // Another model in place of the one shown (the same columns: a grouping of it); the filter, the sort and
    // the columns stay, the selection is the caller's to restore.
    void setModel(QAbstractItemModel *model);
    QAbstractItemModel *model() const { return m_source; }

    QModelIndexList selectedSourceRows() const;
    QStringList selectedKeys() const;
    QStringList selectedFindings() const; // the findings of the selected rows, in view order, each once
    // Selects (and scrolls to) the rows whose `role` value (default: their key) is in `keys`;
    // rows inside a collapsed group are revealed. Returns how many are selected.
    int selectKeys(const QStringList &keys, int role = ConsoleRole::Key);
    // Moves the selection (never extends it) to the next (`delta` 1) or previous (-1) row, wrapping;
    // with `problemsOnly`, rows with a severity only. False when there is none.
    bool step(int delta, bool problemsOnly);
    // Focuses the table on its first visible row, selected (Enter in the filter box).
    bool focusFirstMatch();

    // Column widths, order and sort, remembered between runs (Settings::viewHeader of the view's name).
    void saveHeader() const;
    void restoreHeader();

signals:
    void selectionChanged();
    void rowActivated(); // a double-click on a row
    void repairRequested(); // the detail pane's Repair button

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QModelIndex toSource(const QModelIndex &proxy) const;
    void selectOnly(const QModelIndex &proxyRow);

    QString m_name;
    QAbstractItemModel *m_source;
    SeverityDecorator *m_decorator;
    FilterModel *m_filter;
    QLabel *m_caption;
    QHBoxLayout *m_tools;
    QLineEdit *m_filterBox;
    QLabel *m_filterProblem;
    QTreeView *m_view;
    QTextBrowser *m_details;
    QPushButton *m_repair;
    QSplitter *m_split;
    QList<int> m_sizesWithTable; // the splitter's sizes when the table was hidden
    std::function<QString(const QModelIndexList &)> m_detailsProvider;
};
