#ifndef MEASURED_REGION_H
#define MEASURED_REGION_H

/// The region an instruction count covers: `segue-bench instructions` runs each measured unit of work inside
/// `segue_measured_region`, and scripts/instructions runs it under `valgrind --tool=callgrind
/// --toggle-collect=segue_measured_region`, so callgrind counts the instructions inside these calls and nothing
/// else (set-up, warm-up and the untimed work between units stay out). Outside valgrind it only calls `body`.
void segue_measured_region(void (*body)(void *context), void *context);

#include <stddef.h>

/// The bytes malloc has handed out and not had back, process-wide (glibc's `mallinfo2().uordblks`; 0 where there is
/// none): `segue-bench memory` splits a scene's resident memory with it.
size_t segue_malloc_in_use(void);

#endif
