#ifndef SEGUE_ALLOC_COUNT_H
#define SEGUE_ALLOC_COUNT_H

#include <stdint.h>

/// Heap allocations counted on the calling thread: every malloc, calloc, realloc (to a non-zero size),
/// posix_memalign, aligned_alloc, memalign and valloc made by any code (Swift runtime, Foundation, libc) on this
/// thread while counting is on. Linked ONLY into segue-allocs: this target defines malloc & co. for the whole
/// process it is linked into (forwarding to glibc's __libc_* functions), so no other binary may depend on it.

/// Starts counting on this thread from zero.
void segue_allocs_begin(void);

/// Stops counting on this thread and returns the allocations since segue_allocs_begin.
uint64_t segue_allocs_end(void);

/// Whether this process's allocation calls reach the counting functions (a sanity check: an allocation made
/// between begin and end is seen).
int segue_allocs_interposed(void);

#endif
