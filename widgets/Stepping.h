// Stepping through a list of places (search matches, diff changes) with
// next and previous, as every find bar does: the first step from "none"
// lands on the first (next) or the last (previous), and the ends wrap.
#pragma once

/// The index after stepping @p delta (+1 next, -1 previous) from @p current
/// (-1: none yet) in a list of @p count; -1 when the list is empty.
inline int steppedIndex(int current, int count, int delta)
{
    if (count <= 0)
        return -1;
    if (current < 0)
        return delta > 0 ? 0 : count - 1;
    return ((current + delta) % count + count) % count;
}
