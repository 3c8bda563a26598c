#pragma once

// Lowers the calling thread's scheduling priority a little (Linux: a thread's own nice value), so that the
// window's thread goes first when the cores are busy: on a 2-core laptop, the network, parsing and row-making
// threads would otherwise take the window's turn during a 5,000-node refresh.
namespace Threads {

void yieldToTheWindow();

} // namespace Threads
