#ifndef MEASURED_REGION_H
#define MEASURED_REGION_H

/// The region an instruction count covers: `segue-bench instructions` runs each measured unit of work inside
/// `segue_measured_region`, and scripts/instructions runs it under `valgrind --tool=callgrind
/// --toggle-collect=segue_measured_region`, so callgrind counts the instructions inside these calls and nothing
/// else (set-up, warm-up and the untimed work between units stay out). Outside valgrind it only calls `body`.
void segue_measured_region(void (*body)(void *context), void *context);

#endif
