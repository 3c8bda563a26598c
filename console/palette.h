#pragma once

#include <QList>
#include <QString>
#include <QStringView>

// The command palette's matter, without a widget: what can be chosen (a kluster, a view, an action), and the
// fuzzy match that ranks them for what was typed (k9s' and an editor's ":"): every character typed, in
// order, anywhere in the name; runs of them, word starts and the start of the name rank higher.
namespace Palette {

enum class Kind
{
    Kluster,
    View,
    Action,
};
QString kindName(Kind kind); // "kluster", "view", "action"

struct Entry
{
    Kind kind = Kind::Action;
    QString text; // what is matched and shown: "sim/legacy", "Findings", "Repair…"
    QString detail; // shown beside it: a kluster's state, a shortcut
    QString id; // what it opens: a kluster's key, a view's name, an action's index
};

// How well `query` matches `text` (higher is better); -1: it does not. An empty query matches everything
// with 0.
int score(QStringView query, QStringView text);

// The entries matching `query`, best first (ties keep the entries' order: klusters, views, actions, as
// given), at most `limit`.
QList<int> matches(const QList<Entry> &entries, const QString &query, int limit = 50);

} // namespace Palette
