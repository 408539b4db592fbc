#include "measured_region.h"

// Not inlined, so callgrind's --toggle-collect finds it by name.
__attribute__((noinline)) void segue_measured_region(void (*body)(void *context), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}
