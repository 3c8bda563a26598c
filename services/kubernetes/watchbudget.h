#pragma once

#include <atomic>

// How many node watches the process holds open at once, shared by every connection. Each watch is a
// connection held open (a file descriptor, a TLS session, a buffer) for as long as it runs: a thousand
// klusters must not mean a thousand. The klusters that need one most have one (the one shown, those in
// trouble, those whose nodes changed lately); the others have their nodes listed, cheaply, with each refresh.
class WatchBudget
{
public:
    // The process' one budget; its limit from the open-file limit (a quarter of it, at most 256).
    static WatchBudget &shared();

    void setLimit(int limit) { m_limit = limit; }
    int limit() const { return m_limit; }
    int inUse() const { return m_inUse; }
    // Takes one if there is one left (or, `always`, in any case: the kluster shown).
    bool take(bool always = false);
    void give(int count = 1);

private:
    std::atomic<int> m_limit { 256 };
    std::atomic<int> m_inUse { 0 };
};
