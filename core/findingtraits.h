#pragma once

#include "core/finding.h"
#include "core/source.h"

#include <QJsonObject>
#include <QLatin1String>
#include <optional>

class DiagnosisContext;

// What a finding kind is: its name, its family, the sources it judges from, its
// severity rule, how much of the kluster it takes down, and how its message,
// evidence, repair plan and affected objects are derived from the diagnosed
// state. One entry per kind in core/findingtraits.cpp (a kind added there and
// nowhere else is complete); the functions live in the family's file
// (core/instancefindings.cpp, …).
struct FindingTraits
{
    FindingKind kind;
    QLatin1String name;
    QLatin1String phrase; // the cause in a few words, as a ranking names it: "pod-network rule missing"
    FindingFamily family;
    // The sources its rule judges from (sourceBit each): where one is not known, no finding of the kind is
    // reported; where one of `whole` came back incomplete, neither (an absence in part of a list proves
    // nothing). diagnosis.md §2: missing evidence decides nothing.
    quint16 needs;
    quint16 whole;
    Severity (*severity)(const FindingFacts &facts); // the severity rule, on what detection decided
    Impact (*impact)(
        Severity severity); // how much of the kluster a finding of it takes down, at that severity
    QString (*message)(const DiagnosisContext &context, const Finding &finding);
    QJsonObject (*evidence)(const DiagnosisContext &context, const Finding &finding);
    // Null: none of its own.
    std::optional<RepairPlan> (*repair)(const DiagnosisContext &context, const Finding &finding);
    // Null: no object.
    AffectedObjects (*affected)(const DiagnosisContext &context, const Finding &finding);
};

const FindingTraits &findingTraits(FindingKind kind);

// How many kinds the table holds (checked against it where it is written): for arrays by kind.
inline constexpr int FindingKindCount = 24;
// Every kind, in the order of the enum (and of the table).
const QList<FindingKind> &findingKinds();

constexpr quint16 sourceBit(Source source)
{
    return quint16(1U << unsigned(source));
}
// The sources of a bit set, in the order of Sources::all().
QList<Source> sourcesOf(quint16 bits);
