#pragma once

#include <QAbstractItemModel>
#include <QStringList>

// Every cell of a model, as text: what a person sees and what tooltips say, one entry per row with its
// children (in their order) after it. Sorted, as the console's views show them: two models that give the
// same text show the same, whatever order their rows came in.
inline QStringList modelText(const QAbstractItemModel &model)
{
    const auto rowText = [&model](int row, const QModelIndex &parent) {
        QStringList cells;
        for (int column = 0; column < model.columnCount(parent); ++column) {
            const QModelIndex i = model.index(row, column, parent);
            cells << i.data().toString() + QLatin1Char('|') + i.data(Qt::ToolTipRole).toString();
        }
        return cells.join(QLatin1Char('\t'));
    };
    QStringList rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        QString text = rowText(row, QModelIndex());
        const QModelIndex first = model.index(row, 0);
        for (int child = 0; child < model.rowCount(first); ++child)
            text += QStringLiteral("\n  ") + rowText(child, first);
        rows << text;
    }
    rows.sort();
    return rows;
}
