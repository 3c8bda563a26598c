#pragma once

// Lowers the calling thread's scheduling priority a little (Linux: a thread's own nice value), so that the
// window's thread goes first when the cores are busy: on a 2-core laptop, the network, parsing and row-making
// threads would otherwise take the window's turn during a 5,000-node refresh.
namespace Threads {

void yieldToTheWindow();

// The same for the threads Qt's network access starts on its own (one per connection's manager, named
// "QNetworkAccessManager thread"): a region's 150 connections download on 150 of them, and each took the
// window's turn as often as the window did. Lowers those not lowered yet; any thread may call it.
void yieldHttpThreadsToTheWindow();

} // namespace Threads
