#pragma once

#include "core/diagnosis.h"
#include "core/diagnosiscontext.h"
#include "core/findingtraits.h"

#include <QSet>
#include <memory>

// One diagnosis being made: the context every family's rules read (InstanceFindings::detect, …, each in its
// family's file) and the result they append to.
struct Detection
{
    std::shared_ptr<DiagnosisContext> ctx;
    const KlusterState &state = ctx->state;
    Diagnosis result;
    QSet<int> stoppedNodes; // nodes whose instance is instance-stopped: not also node-not-ready

    // A finding of `kind`, its severity by the kind's rule on what detection decided.
    Finding make(FindingKind kind, const QString &subject, FindingFacts facts = FindingFacts()) const
    {
        Finding f;
        f.kind = kind;
        f.subject = subject;
        f.severity = findingTraits(kind).severity(facts);
        f.facts = std::move(facts);
        f.context = ctx;
        return f;
    }
};
