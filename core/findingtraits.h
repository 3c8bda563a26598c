#pragma once

#include "core/finding.h"

#include <QJsonObject>
#include <QLatin1String>
#include <optional>

class DiagnosisContext;

// What a finding kind is: its name, its family, its severity rule, and how its
// message, evidence, repair plan and affected objects are derived from the
// diagnosed state. One entry per kind in core/findingtraits.cpp; the functions
// live in the family's file (core/instancefindings.cpp, …).
struct FindingTraits
{
    FindingKind kind;
    QLatin1String name;
    FindingFamily family;
    Severity (*severity)(const FindingFacts &facts); // the severity rule, on what detection decided
    QString (*message)(const DiagnosisContext &context, const Finding &finding);
    QJsonObject (*evidence)(const DiagnosisContext &context, const Finding &finding);
    // Null: none of its own.
    std::optional<RepairPlan> (*repair)(const DiagnosisContext &context, const Finding &finding);
    // Null: no object.
    AffectedObjects (*affected)(const DiagnosisContext &context, const Finding &finding);
};

const FindingTraits &findingTraits(FindingKind kind);
