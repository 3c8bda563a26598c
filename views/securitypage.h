#pragma once

#include "views/klustertablepage.h"

class SecurityModel;

// Security group: the kluster's group, its rules against what the pod network needs, and its members.
class SecurityPage : public KlusterTablePage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecurityPage)

public:
    explicit SecurityPage(SecurityModel *model, QWidget *parent = nullptr);
};
