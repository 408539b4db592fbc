#include "measured_region.h"
#if defined(__linux__)
#include <malloc.h>
#endif

// Not inlined, so callgrind's --toggle-collect finds it by name.
__attribute__((noinline)) void segue_measured_region(void (*body)(void *context), void *context) {
    body(context);
    __asm__ volatile("" ::: "memory");
}

size_t segue_malloc_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}
