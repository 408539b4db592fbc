// Counts heap allocations by defining malloc & co. in the executable that links this file: the dynamic linker
// resolves every library's malloc (the Swift runtime's, Foundation's, libc's own) to these, and they forward to
// glibc's allocator through its exported __libc_* entry points. The count is per thread, so a background thread
// of the process cannot change a measurement. See include/alloc_count.h.
#define _GNU_SOURCE
#include "alloc_count.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

// Initial-exec TLS in the executable: reading it never allocates (safe inside malloc).
static __thread int counting;
static __thread uint64_t count;

static inline void note(void) {
    if (counting) count++;
}

void segue_allocs_begin(void) {
    count = 0;
    counting = 1;
}

uint64_t segue_allocs_end(void) {
    counting = 0;
    return count;
}

int segue_allocs_interposed(void) {
    segue_allocs_begin();
    void *volatile p = malloc(24);
    uint64_t seen = segue_allocs_end();
    free(p);
    return seen == 1;
}

void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    note();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    if (size != 0) note();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    note();
    return __libc_valloc(size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    note();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *out = pointer;
    return 0;
}
