#pragma once

#include "core/repairplan.h"

#include <QList>
#include <QString>
#include <QStringList>

struct Credentials;
class RepairProposal;

// A plan these credentials may not send, as someone who may carries it out by hand (diagnosis.md §8): each
// request of the plan, in order, as the `openstack` or `kubectl` command that sends it (where one does) and
// as the exact request with curl, with what it should change. What is handed over is the plan that was
// judged: the same requests, the same bodies, the same If-Match.
struct ManualStep
{
    QString what; // "PUT network /v2.0/routers/…/add_extraroutes"
    QString needs; // what it needs that these credentials lack (the preflight's reason); empty when allowed
    QString command; // `openstack …` or `kubectl …`; empty where no client sends this request as planned
    QString curl; // the request itself, with the token from $OS_TOKEN
    QString check; // a command that shows whether it changed (empty: none)
    QString expect; // what it should show then, or what should change
};

struct ManualRepair
{
    QString title; // the plan's
    QString kluster;
    QString why; // the refusal: which request, and what it needs
    QList<ManualStep> steps;
    QString verify; // how the one who asked learns that it is done

    // `plan` as a guide; the curl commands name the endpoints the session used (`credentials`), else a
    // variable per service ($COMPUTE_URL).
    static ManualRepair of(const RepairPlan &plan, const QString &kluster, const Credentials *credentials);

    // The hand-off as Markdown (a ticket, a chat): a heading, why, each step with its commands in fenced
    // blocks, how to verify.
    QString markdown() const;
    // The same for a terminal.
    QString text() const;
};

// One plan of a proposal these credentials may not send, with the findings it repairs and its guide (the
// findings of one route change as that one change).
struct HandOff
{
    QStringList findings;
    RepairPlan plan;
    ManualRepair guide;

    // Each chosen repair of `proposal` refused NotPermitted, in the proposal's order.
    static QList<HandOff> of(const RepairProposal &proposal);
    // Several as one text to hand over: each guide's Markdown, in order.
    static QString markdown(const QList<HandOff> &handOffs);
};
