#pragma once

#include "views/klustertablepage.h"

class NodesModel;

// Nodes: the kluster's instances and nodes joined by name, each with its state and the findings about it.
class NodesPage : public KlusterTablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesPage)

public:
    explicit NodesPage(NodesModel *model, QWidget *parent = nullptr);
};
