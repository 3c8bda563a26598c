#pragma once

#include <QDateTime>

// Since when a finding (or an incident: IncidentHistory) has been seen (its open interval in the local
// history), and how often it came back.
struct FindingHistory
{
    static constexpr int FlappingIntervals = 3; // resolved and came back twice within a day

    QDateTime firstSeen;
    bool beforeHistory = false; // seen on the kluster's first recorded refresh: it began earlier
    int intervalsLastDay = 1; // its intervals open at some time during the last 24 h
    bool flapping() const { return intervalsLastDay >= FlappingIntervals; }
};

// Since when an incident (diagnosis.md §5) has been open, and how often it came back: the same measure as a
// finding's, by the incident's id.
using IncidentHistory = FindingHistory;
