// Counts heap allocations in this process: malloc, calloc, realloc and the aligned
// allocators are interposed (the executable's definitions win over libc's) and passed
// on to glibc's own.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Allocations made so far by any thread.
unsigned long long allocation_count(void);

#endif
