#include "CLuaShim.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEGUE_HOOK_STEP 1000

const char *const segue_key_names[SEGUE_KEY_COUNT] = {
    "", "a", "b", "c", "d", "tx", "ty", "x", "y", "w", "h", "m",
    "duration", "delay", "repeat_count", "autoreverse", "spring", "curve", "stiffness", "mass", "damping", "velocity",
};

const char *const segue_name_list[SEGUE_NAME_FIXED_COUNT] = {
    "", "id", "kind", "animated", "from_index", "to_index", "direction",
    "container", "duration", "interactive", "cancelled", "presentation_style", "coordinator",
    "frame", "superview", "subviews", "mask",
    "from", "to",
};

// The view properties' names (segue_set_property_names): written once before the first state, read-only after.
static char *property_names[SEGUE_PROPERTY_MAX];
static int property_count = -1;

int segue_set_property_names(const char *const *names, int count) {
    if (property_count >= 0 || count < 0 || count > SEGUE_PROPERTY_MAX) return -1;
    for (int k = 0; k < count; k++) {
        if (names[k] == NULL || names[k][0] == 0) return -1;
    }
    for (int k = 0; k < count; k++) {
        property_names[k] = strdup(names[k]);
        if (property_names[k] == NULL) {
            while (k-- > 0) free(property_names[k]);
            return -1;
        }
    }
    property_count = count;
    return 0;
}

int segue_name_count(void) {
    return SEGUE_NAME_FIXED_COUNT + (property_count > 0 ? property_count : 0);
}

const char *segue_name_text(int code) {
    if (code > 0 && code < SEGUE_NAME_FIXED_COUNT) return segue_name_list[code];
    if (code >= SEGUE_NAME_FIXED_COUNT && code < segue_name_count()) return property_names[code - SEGUE_NAME_FIXED_COUNT];
    return "";
}

segue_sandbox *segue_sandbox_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (segue_sandbox *)ud;
}

// The state's arena (segue_sandbox's arena fields and free lists). Every block Lua asks for of up to SEGUE_POOL_MAX
// bytes is carved, in its 16-byte class, from SEGUE_ARENA_CHUNK-byte chunks the state owns: no malloc header per
// block (glibc's is 8 bytes, and a block it hands out is at least 32), so what the state costs is its chunks plus its
// large blocks, counted exactly (segue_footprint). A freed block goes on its class's list and the state's next block
// of that class takes it back, which costs a few instructions where malloc and free cost a hundred or more each (a
// plugin call makes and drops small objects by the dozen; docs/DESIGN.md, "The Lua host"). Lua passes a block's size
// on free and realloc (osize), so the class is known without a header. When the lists hold more than `sweep_at`
// bytes (after a burst of small objects that are then dropped), a sweep gives back every chunk whose blocks are all
// free (arena_sweep); segue_close frees every chunk.
static inline size_t pool_class(size_t n) { return (n + 15) >> 4; }

static void *arena_grow(segue_sandbox *sb, size_t size);
static void arena_sweep(segue_sandbox *sb);

static inline void *pool_take(segue_sandbox *sb, size_t n) {
    size_t c = pool_class(n);
    void *p = sb->pool[c];
    if (p != NULL) {
        sb->pool[c] = *(void **)p;
        sb->pooled -= c << 4;
        return p;
    }
    size_t size = c << 4;
    if ((size_t)((uintptr_t)sb->bump_end - (uintptr_t)sb->bump) >= size) {
        p = sb->bump;
        sb->bump += size;
        return p;
    }
    return arena_grow(sb, size);
}

static inline void pool_give(segue_sandbox *sb, void *p, size_t n) {
    size_t c = pool_class(n);
    *(void **)p = sb->pool[c];
    sb->pool[c] = p;
    sb->pooled += c << 4;
    if (sb->pooled > sb->sweep_at) arena_sweep(sb);
}

// A new chunk to carve from: what is left of the current one goes on the list of its size (a multiple of 16 below
// SEGUE_POOL_MAX, as every block is), so no byte of a chunk is lost.
static __attribute__((noinline)) void *arena_grow(segue_sandbox *sb, size_t size) {
    if (sb->chunk_count == sb->chunk_cap) {
        size_t cap = sb->chunk_cap ? sb->chunk_cap * 2 : 16;
        char **grown = realloc(sb->chunks, cap * sizeof(char *));
        if (grown == NULL) return NULL;
        sb->chunks = grown;
        sb->chunk_cap = cap;
    }
    char *chunk = malloc(SEGUE_ARENA_CHUNK);
    if (chunk == NULL) return NULL;
    size_t tail = (size_t)((uintptr_t)sb->bump_end - (uintptr_t)sb->bump);
    if (tail > 0) {
        size_t c = tail >> 4;
        *(void **)sb->bump = sb->pool[c];
        sb->pool[c] = sb->bump;
        sb->pooled += tail;
    }
    sb->chunks[sb->chunk_count++] = chunk;
    sb->arena_bytes += SEGUE_ARENA_CHUNK;
    sb->bump = chunk + size;
    sb->bump_end = chunk + SEGUE_ARENA_CHUNK;
    return chunk;
}

static int chunk_order(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)*(char *const *)a, y = (uintptr_t)*(char *const *)b;
    return x < y ? -1 : x > y;
}

// The chunk holding p, by binary search of the sorted chunks (only a sweep sorts them and asks). `*hint` is the chunk
// the last block was in: a free list's neighbouring blocks are mostly from one chunk (the collector frees a run of
// objects made together), so one compare usually answers and the search is skipped.
static size_t chunk_of(segue_sandbox *sb, const char *p, size_t *hint) {
    const char *h = sb->chunks[*hint];
    if ((uintptr_t)p >= (uintptr_t)h && (uintptr_t)p < (uintptr_t)h + SEGUE_ARENA_CHUNK) return *hint;
    size_t lo = 0, hi = sb->chunk_count;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)sb->chunks[mid] <= (uintptr_t)p) lo = mid; else hi = mid;
    }
    *hint = lo;
    return lo;
}

// Gives back every chunk whose blocks are all on the lists (or not carved yet). Costs a walk of the lists and a
// lookup per free block (chunk_of: one compare when it is in the previous block's chunk); the next sweep waits
// until the lists hold twice what this one left (and at least SEGUE_ARENA_SWEEP_MIN, and half what Lua holds), so a
// sweep is paid for by the frees since the last one.
static __attribute__((noinline)) void arena_sweep(segue_sandbox *sb) {
    size_t next = sb->used / 2 > SEGUE_ARENA_SWEEP_MIN ? sb->used / 2 : SEGUE_ARENA_SWEEP_MIN;
    size_t *free_in = sb->chunk_count ? calloc(sb->chunk_count, sizeof(size_t)) : NULL;
    if (free_in == NULL) {
        sb->sweep_at = 2 * sb->pooled > next ? 2 * sb->pooled : next;
        return;
    }
    qsort(sb->chunks, sb->chunk_count, sizeof(char *), chunk_order);
    size_t hint = 0;
    for (int c = 1; c <= SEGUE_POOL_CLASSES; c++) {
        for (char *p = sb->pool[c]; p != NULL; p = *(char **)p) free_in[chunk_of(sb, p, &hint)] += (size_t)c << 4;
    }
    if (sb->bump_end != NULL) free_in[chunk_of(sb, sb->bump_end - SEGUE_ARENA_CHUNK, &hint)] += (size_t)((uintptr_t)sb->bump_end - (uintptr_t)sb->bump);
    size_t empty = 0;
    for (size_t i = 0; i < sb->chunk_count; i++) empty += free_in[i] == SEGUE_ARENA_CHUNK;
    if (empty > 0) {
        for (int c = 1; c <= SEGUE_POOL_CLASSES; c++) {
            void **link = &sb->pool[c];
            while (*link != NULL) {
                char *p = *link;
                if (free_in[chunk_of(sb, p, &hint)] == SEGUE_ARENA_CHUNK) {
                    *link = *(void **)p;
                    sb->pooled -= (size_t)c << 4;
                } else {
                    link = (void **)p;
                }
            }
        }
        if (sb->bump_end != NULL && free_in[chunk_of(sb, sb->bump_end - SEGUE_ARENA_CHUNK, &hint)] == SEGUE_ARENA_CHUNK) {
            sb->bump = sb->bump_end = NULL;
        }
        size_t kept = 0;
        for (size_t i = 0; i < sb->chunk_count; i++) {
            if (free_in[i] == SEGUE_ARENA_CHUNK) {
                free(sb->chunks[i]);
                sb->arena_bytes -= SEGUE_ARENA_CHUNK;
            } else {
                sb->chunks[kept++] = sb->chunks[i];
            }
        }
        sb->chunk_count = kept;
    }
    free(free_in);
    sb->sweeps++;
    sb->sweep_at = 2 * sb->pooled > next ? 2 * sb->pooled : next;
}

// Frees every chunk (the state is closed, or was never opened).
static void pool_drain(segue_sandbox *sb) {
    for (size_t i = 0; i < sb->chunk_count; i++) free(sb->chunks[i]);
    free(sb->chunks);
    sb->chunks = NULL;
    sb->chunk_count = sb->chunk_cap = 0;
    sb->arena_bytes = 0;
    sb->bump = sb->bump_end = NULL;
    for (int c = 1; c <= SEGUE_POOL_CLASSES; c++) sb->pool[c] = NULL;
    sb->pooled = 0;
}

// The capping allocator. The cap is not enforced while host code runs (sb->host > 0), so host pushes never
// raise "not enough memory" through a Swift frame. `used` counts what Lua holds, as before the arena: a free block on
// a list, and a chunk's bytes not carved yet, are the allocator's, not the state's (segue_footprint counts them).
// Blocks above SEGUE_POOL_MAX are malloc'ed each on its own (`large_bytes`).
static void *capping_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    segue_sandbox *sb = (segue_sandbox *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        sb->used -= old;
        if (old > SEGUE_POOL_MAX) {
            sb->large_bytes -= old;
            free(ptr);
        } else if (old > 0) {
            pool_give(sb, ptr, old);
        }
        return NULL;
    }
    if (nsize > old && sb->limit && sb->host == 0 && sb->used - old + nsize > sb->limit) {
        sb->memory_errors++;
        return NULL;
    }
    void *p;
    if (ptr == NULL) {
        if (nsize <= SEGUE_POOL_MAX) {
            p = pool_take(sb, nsize);                                   // a new block (most of them)
        } else if ((p = malloc(nsize)) != NULL) {
            sb->large_bytes += nsize;
        }
    } else if (old > SEGUE_POOL_MAX && nsize > SEGUE_POOL_MAX) {
        p = realloc(ptr, nsize);
        if (p != NULL) sb->large_bytes = sb->large_bytes - old + nsize;
    } else if (old <= SEGUE_POOL_MAX && nsize <= SEGUE_POOL_MAX && pool_class(old) == pool_class(nsize)) {
        p = ptr;                                                            // the same class: the block fits
    } else {
        // Across the arena's edge or between classes: a new block, the contents, the old block given back (on a
        // failure the old block stays as it was, as realloc leaves it).
        if (nsize <= SEGUE_POOL_MAX) {
            p = pool_take(sb, nsize);
        } else if ((p = malloc(nsize)) != NULL) {
            sb->large_bytes += nsize;
        }
        if (p != NULL) {
            memcpy(p, ptr, old < nsize ? old : nsize);
            if (old <= SEGUE_POOL_MAX) {
                pool_give(sb, ptr, old);
            } else {
                sb->large_bytes -= old;
                free(ptr);
            }
        }
    }
    if (p == NULL) {
        sb->memory_errors++;
        return NULL;
    }
    if (nsize > old) sb->allocated += nsize - old;
    sb->used = sb->used - old + nsize;
    if (sb->used > sb->peak) sb->peak = sb->used;
    return p;
}

void *segue_alloc(lua_State *L, void *ptr, size_t osize, size_t nsize) {
    return capping_alloc(segue_sandbox_of(L), ptr, osize, nsize);
}

size_t segue_footprint(lua_State *L) {
    segue_sandbox *sb = segue_sandbox_of(L);
    return sb->arena_bytes + sb->large_bytes;
}

// The instruction budget. Once spent, the hook re-arms itself with count 1 so that every further instruction
// raises again: a script cannot swallow the stop with pcall (Redis's "killed even when use pcall"). The same
// happens when the wall-clock watchdog stopped the call (exhausted == 2). Every coroutine inherits this hook from
// the thread that creates it, so a loop inside a coroutine is counted and stopped too.
void segue_budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    segue_sandbox *sb = segue_sandbox_of(L);
    if (!sb->exhausted) {
        int count = lua_gethookcount(L);
        if (count != sb->hook_step) lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, sb->hook_step);
        sb->remaining -= count;
        int interrupted = segue_interrupted(sb);
        if (!interrupted && (sb->budget == 0 || sb->remaining > 0)) return;
        sb->exhausted = interrupted ? 2 : 1;
        lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, 1);
    }
    if (sb->exhausted == 2) luaL_error(L, "call timed out (lua.call_timeout_ms)");
    luaL_error(L, "instruction budget exceeded (lua.instruction_budget)");
}

// Work done inside C library functions (pattern matching, sorting) is charged to the same budget, so a single
// call into the string library cannot run for long either. Raises like the hook, and leaves the hook at count 1.
void segue_charge(lua_State *L, long long steps) {
    segue_sandbox *sb = segue_sandbox_of(L);
    if (!sb->exhausted) {
        if (sb->budget > 0) sb->remaining -= steps;
        int interrupted = segue_interrupted(sb);
        if (!interrupted && (sb->budget == 0 || sb->remaining > 0)) return;
        sb->exhausted = interrupted ? 2 : 1;
    }
    lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, 1);
    if (sb->exhausted == 2) luaL_error(L, "call timed out (lua.call_timeout_ms)");
    luaL_error(L, "instruction budget exceeded (lua.instruction_budget)");
}

void segue_interrupt(lua_State *L) {
    segue_sandbox *sb = segue_sandbox_of(L);
    __atomic_store_n(&sb->interrupt_seq, __atomic_load_n(&sb->call_seq, __ATOMIC_SEQ_CST), __ATOMIC_SEQ_CST);
    lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, 1);
}

// The registry key of the weak table {function = name} the host fills from plugin descriptions (animate, ended,
// changed, ...): a function the host calls has no name Lua can find (its caller is C), so tracebacks look it up.
static const char *const function_names_key = "segue.function_names";

void segue_name_function(lua_State *L, int fn, const char *name) {
    fn = lua_absindex(L, fn);
    if (lua_type(L, fn) != LUA_TFUNCTION) return;
    if (lua_getfield(L, LUA_REGISTRYINDEX, function_names_key) != LUA_TTABLE) {   // [... x]
        lua_settop(L, -2);                                                      // [...]
        lua_createtable(L, 0, 8);                                               // [... t]
        lua_createtable(L, 0, 1);                                               // [... t mt]
        lua_pushliteral(L, "k");                                                // [... t mt "k"]
        lua_setfield(L, -2, "__mode");                                          // [... t mt]
        lua_setmetatable(L, -2);                                                // [... t]
        lua_pushvalue(L, -1);                                                   // [... t t]
        lua_setfield(L, LUA_REGISTRYINDEX, function_names_key);                 // [... t]
    }
    lua_pushvalue(L, fn);                                                       // [... t f]
    lua_pushstring(L, name);                                                    // [... t f name]
    lua_rawset(L, -3);                                                          // [... t]
    lua_settop(L, -2);                                                          // [...]
}

int segue_plugin_line(lua_State *L) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.source[0] == '@' && ar.currentline > 0) return ar.currentline;
    }
    return 0;
}

// A traceback of the plugin's own frames: the host's (C functions, the prelude) say nothing a plugin author can
// act on, and a function the host called is named by its field (`animate`), not `<file.lua:17>`. Leaves the
// message and the traceback as one string on top.
static void plugin_traceback(lua_State *L, const char *msg) {
    int top = lua_gettop(L);
    lua_pushstring(L, msg);                                                     // [... msg]
    lua_pushliteral(L, "\nstack traceback:");                                  // [... msg head]
    lua_Debug ar;
    int shown = 0;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Slnf", &ar)) continue;                            // [... lines f]
        if (ar.source[0] != '@') {                                              // the host's frame: left out
            lua_settop(L, -2);
            continue;
        }
        if (shown == 16) {
            lua_settop(L, -2);
            lua_pushliteral(L, "\n\t...");
            break;
        }
        shown++;
        if (ar.name != NULL && ar.namewhat[0] != '\0') {
            lua_pushfstring(L, "\n\t%s:%d: in %s '%s'", ar.short_src, ar.currentline,
                            strcmp(ar.namewhat, "method") == 0 ? "method" : "function", ar.name);  // [... f line]
        } else if (ar.what[0] == 'm') {
            lua_pushfstring(L, "\n\t%s:%d: in the file's top level", ar.short_src, ar.currentline);
        } else {
            const char *known = NULL;
            if (lua_getfield(L, LUA_REGISTRYINDEX, function_names_key) == LUA_TTABLE) {  // [... f t]
                lua_pushvalue(L, -2);                                           // [... f t f]
                if (lua_rawget(L, -2) == LUA_TSTRING) known = lua_tostring(L, -1);  // [... f t name]
                else lua_settop(L, -2);                                         // [... f t]
            }
            if (known != NULL) {
                lua_pushfstring(L, "\n\t%s:%d: in function '%s'", ar.short_src, ar.currentline, known);
                lua_copy(L, -1, -3);                                            // [... f line name line]
                lua_settop(L, -3);                                              // [... f line]
            } else {
                lua_settop(L, -2);                                              // drop the table (or nil)
                lua_pushfstring(L, "\n\t%s:%d: in the function defined at line %d", ar.short_src,
                                ar.currentline, ar.linedefined);
            }
        }
        lua_remove(L, -2);                                                      // [... lines line]
    }
    lua_concat(L, lua_gettop(L) - top);                                         // [... text]
}

// Adds the traceback to an error message, once: an error raised inside a nested protected call (a
// `segue.animate` block, a keyframe) already carries the traceback taken where it happened — the deeper one, down
// into the block — and reaches the outer call again as a host function's error, which must not add a second.
static int traceback_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    } else if (strstr(msg, "\nstack traceback:\n") != NULL) {
        lua_settop(L, 1);
        return 1;
    }
    plugin_traceback(L, msg);
    return 1;
}

// What stopped a failed call or load: the budget or the clock (the hook set `exhausted`), memory (an allocation
// was refused during it, whatever the script then made of the error), or the script itself. Not LUA_ERRMEM alone:
// Lua raises that status for `error("not enough memory")` too.
static int error_kind_of(segue_sandbox *sb, int status, int exhausted, int memory_errors_before) {
    if (status == LUA_OK) return SEGUE_ERROR_NONE;
    if (exhausted == 2) return SEGUE_ERROR_TIMEOUT;
    if (exhausted) return SEGUE_ERROR_BUDGET;
    if (sb->memory_errors != memory_errors_before) return SEGUE_ERROR_MEMORY;
    if (status == LUA_ERRSYNTAX) return SEGUE_ERROR_SYNTAX;
    return SEGUE_ERROR_RUNTIME;
}

int segue_pcall(lua_State *L, int nargs, int nresults, int top_level) {
    segue_sandbox *sb = segue_sandbox_of(L);
    int saved_host = sb->host;
    int memory_errors = sb->memory_errors;
    top_level = top_level && sb->running == 0;  // a call made from inside another keeps the outer call's budget
    if (top_level) {
        sb->remaining = sb->budget;
        sb->exhausted = 0;
        lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, sb->hook_step);
        segue_watch_begin(sb, L);
    }
    sb->running++;
    int base = lua_gettop(L) - nargs;          // index of the function
    // The outermost call on the main thread finds the handler at index 1, where segue_newstate left it; any other
    // call puts one under the function.
    int handler = (top_level && L == sb->main) ? 1 : 0;
    if (!handler) {
        lua_pushcfunction(L, traceback_handler);   // [... f args h]
        lua_insert(L, base);                       // [... h f args]
    }
    sb->host = 0;
    int status = lua_pcall(L, nargs, nresults, handler ? handler : base);
    sb->host = saved_host;
    if (!handler) lua_remove(L, base);         // [... results|message], from index base
    sb->running--;
    if (top_level) {
        segue_watch_end(sb);
        sb->last_used = sb->budget > 0 ? sb->budget - sb->remaining : 0;
    }
    int exhausted = sb->exhausted;
    if (top_level && exhausted) {
        // The call was stopped: make sure what remains on the stack says so, whatever the script made of it.
        if (status == LUA_OK) {
            lua_settop(L, base - 1);
            lua_pushstring(L, exhausted == 2 ? "call timed out (lua.call_timeout_ms)"
                                             : "instruction budget exceeded (lua.instruction_budget)");
            status = LUA_ERRRUN;
        }
        sb->exhausted = 0;
    }
    if (top_level) lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, sb->hook_step);
    sb->error_kind = error_kind_of(sb, status, exhausted, memory_errors);
    return status;
}

// The parser reads its text through this reader, a piece at a time. Between pieces it checks the wall-clock
// backstop (and, for `load` called by a plugin, charges the piece to the budget): the parser itself runs no
// instruction and is not linear in the worst case (each name is looked up through every enclosing function's
// locals, so 60 nested functions of 199 locals make a 700 KB chunk take seconds), so this is what stops it.
#define LOAD_PIECE 256
#define LOAD_RESERVED_SLOT 5

typedef struct {
    const char *text;  // the current string
    size_t size, offset;
    int function;      // more text comes from the reader function at index 1
    int charged;       // each byte read costs one unit of the budget
} piece_reader;

static const char *read_piece(lua_State *L, void *ud, size_t *size) {
    piece_reader *r = (piece_reader *)ud;
    if (r->offset >= r->size) {
        if (!r->function) {
            *size = 0;
            return NULL;
        }
        luaL_checkstack(L, 2, "too many nested functions");
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            r->function = 0;
            *size = 0;
            return NULL;
        }
        if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
        lua_replace(L, LOAD_RESERVED_SLOT);
        r->text = lua_tolstring(L, LOAD_RESERVED_SLOT, &r->size);
        r->offset = 0;
        if (r->size == 0) {  // an empty piece ends the chunk, as in the stock load
            *size = 0;
            return r->text;
        }
    }
    size_t n = r->size - r->offset;
    if (n > LOAD_PIECE) n = LOAD_PIECE;
    segue_charge(L, r->charged ? (long long)n : 0);  // raises when the budget or the clock ran out
    const char *piece = r->text + r->offset;
    r->offset += n;
    *size = n;
    return piece;
}

static int load_chunk(lua_State *L, const char *text, size_t len, const char *chunkname, const char *mode);

int segue_loadtext(lua_State *L, const char *text, size_t len, const char *chunkname) {
    return load_chunk(L, text, len, chunkname, "t");
}

// The host's own chunk (the prelude), compiled once per process: the first state parses the text and its function
// is dumped (with its debug information, so error messages and tracebacks read the same); every later state with
// the same text loads that bytecode, which costs a fraction of parsing (a plugin state's load was mostly the
// prelude's parse: issue 24, 100 plugin files). Only this function loads bytecode, and only bytecode dumped here
// from text the host passed: plugin files are loaded as text (segue_loadtext's mode "t").
static pthread_mutex_t trusted_lock = PTHREAD_MUTEX_INITIALIZER;
static char *trusted_text, *trusted_code;
static size_t trusted_text_len, trusted_code_len;

typedef struct { char *data; size_t len, cap; int failed; } dump_buffer;

static int dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    dump_buffer *b = (dump_buffer *)ud;
    if (b->len + size > b->cap) {
        size_t cap = b->cap ? b->cap : 16384;
        while (cap < b->len + size) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL) { b->failed = 1; return 1; }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, size);
    b->len += size;
    return 0;
}

int segue_loadtrusted(lua_State *L, const char *text, size_t len, const char *chunkname) {
    pthread_mutex_lock(&trusted_lock);
    if (trusted_code != NULL && trusted_text_len == len && memcmp(trusted_text, text, len) == 0) {
        int status = load_chunk(L, trusted_code, trusted_code_len, chunkname, "b");
        pthread_mutex_unlock(&trusted_lock);
        return status;
    }
    pthread_mutex_unlock(&trusted_lock);
    int status = load_chunk(L, text, len, chunkname, "t");
    if (status != LUA_OK) return status;
    dump_buffer b = {NULL, 0, 0, 0};
    char *copy = malloc(len ? len : 1);
    if (copy == NULL || lua_dump(L, dump_writer, &b, 0) != 0 || b.failed) {
        free(copy);
        free(b.data);
        return status;  // loaded all the same; the next state parses again
    }
    memcpy(copy, text, len);
    pthread_mutex_lock(&trusted_lock);
    free(trusted_text);
    free(trusted_code);
    trusted_text = copy;
    trusted_text_len = len;
    trusted_code = b.data;
    trusted_code_len = b.len;
    pthread_mutex_unlock(&trusted_lock);
    return status;
}

static int load_chunk(lua_State *L, const char *text, size_t len, const char *chunkname, const char *mode) {
    segue_sandbox *sb = segue_sandbox_of(L);
    int saved_host = sb->host;
    int memory_errors = sb->memory_errors;
    int top_level = sb->running == 0;
    if (top_level) {
        sb->remaining = sb->budget;
        sb->exhausted = 0;
        segue_watch_begin(sb, L);
    }
    sb->host = 0;
    piece_reader r = {text, len, 0, 0, 0};
    int status = lua_load(L, read_piece, &r, chunkname, mode);
    sb->host = saved_host;
    int exhausted = sb->exhausted;
    if (top_level) {
        segue_watch_end(sb);
        sb->exhausted = 0;
        lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, sb->hook_step);
    }
    sb->error_kind = error_kind_of(sb, status, exhausted, memory_errors);
    return status;
}

static int call_host(lua_State *L, segue_sandbox *sb, int index) {
    if (sb->host_fn == NULL) return luaL_error(L, "segued: no host entry");
    sb->host++;
    int n = sb->host_fn(L, sb->host_ctx, index);
    sb->host--;
    if (n < 0) return lua_error(L);
    return n;
}

static int trampoline(lua_State *L) {
    return call_host(L, segue_sandbox_of(L), (int)lua_tointeger(L, lua_upvalueindex(1)));
}

// The first slot of name_slots to probe for an interned string at `s`.
static inline size_t name_slot(const char *s) {
    return (size_t)(((uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15ull) >> 56) & (SEGUE_NAME_SLOTS - 1);  // Fibonacci hashing
}

int segue_name_at(lua_State *L, int i) {
    if (lua_type(L, i) != LUA_TSTRING) return -1;
    size_t len = 0;
    const char *s = lua_tolstring(L, i, &len);
    segue_sandbox *sb = segue_sandbox_of(L);
    int count = sb->name_count;
    for (size_t h = name_slot(s);; h = (h + 1) & (SEGUE_NAME_SLOTS - 1)) {
        int k = sb->name_slots[h];
        if (k == 0) break;
        if (sb->names[k] == s) return k;
    }
    // Not the interned copy: a string too long to be interned, or a Lua built without interning (never one of
    // the names then, but compared anyway so the answer never depends on how Lua stores strings).
    for (int k = 1; k < count; k++) {
        const char *name = segue_name_text(k);
        if (strlen(name) == len && memcmp(name, s, len) == 0) return k;
    }
    return 0;
}

_Static_assert(SEGUE_KEY_COUNT <= sizeof(((segue_sandbox *)0)->key_text) / sizeof(const char *), "key_text holds every segue_key");

int segue_scananimation_checked(lua_State *L, int t, int known, int *types, double *values) {
    static const segue_key keys[] = SEGUE_ANIMATION_KEYS;
    for (int i = 0; i < 6; i++) {
        types[i] = LUA_TNIL;
        values[i] = 0;
    }
    if (lua_type(L, t) != LUA_TTABLE || !lua_checkstack(L, 4)) return 0;
    t = lua_absindex(L, t);
    segue_sandbox *sb = segue_sandbox_of(L);
    int base = lua_gettop(L);
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, known) != LUA_TTABLE) {      // [names]
        lua_settop(L, base);
        return 0;
    }
    int names = base + 1;
    int ok = 1;
    lua_pushnil(L);                                                   // [names nil]
    while (lua_next(L, t) != 0) {                                     // [names key value]
        if (lua_type(L, -2) != LUA_TSTRING) {
            ok = 0;
            break;
        }
        size_t len = 0;
        const char *s = lua_tolstring(L, -2, &len);                   // a string already: no conversion under lua_next
        int slot = -1;
        for (int i = 0; i < 6; i++) {
            if (s == sb->key_text[keys[i]]) { slot = i; break; }
        }
        if (slot < 0) {
            // Not the interned copy of one of the six (another name, or a Lua that does not intern it).
            for (int i = 0; i < 6; i++) {
                const char *name = segue_key_names[keys[i]];
                if (strlen(name) == len && memcmp(name, s, len) == 0) { slot = i; break; }
            }
        }
        if (slot >= 0) {
            int type = lua_type(L, -1);
            types[slot] = type;
            values[slot] = segue_scanvalue(L, type);
        } else {
            lua_pushvalue(L, -2);                                     // [names key value key]
            int found = lua_rawget(L, names) != LUA_TNIL;             // [names key value known]
            lua_settop(L, -2);                                        // [names key value]
            if (!found) {
                ok = 0;
                break;
            }
        }
        lua_settop(L, -2);                                            // [names key]
    }
    lua_settop(L, base);
    return ok;
}

// A cached nil (an absent from_index): a user value slot holding this light userdata.
static char cached_nil;

// __index(self, key): upvalues 1 the methods table, 2 the host function's index, 3 whether fields are cached.
static int fast_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    segue_sandbox *sb = segue_sandbox_of(L);
    int name = segue_name_at(L, 2);
    if (lua_toboolean(L, lua_upvalueindex(3)) && lua_type(L, 1) == LUA_TUSERDATA) {
        if (name >= 1 && name <= SEGUE_CTX_CACHED) {
            int type = lua_getiuservalue(L, 1, name);   // LUA_TNONE when the userdata has no such slot
            if (type == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &cached_nil) {
                lua_pushnil(L);
                return 1;
            }
            if (type != LUA_TNIL && type != LUA_TNONE) return 1;
            lua_settop(L, 2);
        }
    }
    sb->index_name = name;
    return call_host(L, sb, (int)lua_tointeger(L, lua_upvalueindex(2)));
}

void segue_pushindex(lua_State *L, int methods, int index, int cached) {
    methods = lua_absindex(L, methods);
    lua_pushvalue(L, methods);
    lua_pushinteger(L, index);
    lua_pushboolean(L, cached);
    lua_pushcclosure(L, fast_index, 3);
}

void segue_cache_field(lua_State *L, int proxy, int name) {
    if (name < 1 || name > SEGUE_CTX_CACHED || lua_type(L, proxy) != LUA_TUSERDATA) return;
    proxy = lua_absindex(L, proxy);
    if (lua_isnil(L, -1)) {
        lua_pushlightuserdata(L, &cached_nil);
    } else {
        lua_pushvalue(L, -1);
    }
    lua_setiuservalue(L, proxy, name);   // pops the copy (also when the proxy has no such slot)
}

void segue_uncache_fields(lua_State *L, int proxy) {
    if (lua_type(L, proxy) != LUA_TUSERDATA) return;
    proxy = lua_absindex(L, proxy);
    for (int name = 1; name <= SEGUE_CTX_CACHED; name++) {
        lua_pushnil(L);
        if (!lua_setiuservalue(L, proxy, name)) return;   // popped either way
    }
}

void segue_pushhost(lua_State *L, segue_host_fn fn, void *ctx, int index) {
    segue_sandbox *sb = segue_sandbox_of(L);
    sb->host_fn = fn;
    sb->host_ctx = ctx;
    lua_pushinteger(L, index);
    lua_pushcclosure(L, trampoline, 1);
}

// --- sandboxed replacements for base functions ---

// load: text only (whatever mode is asked), read in pieces that are charged to the budget, one unit per byte.
// Otherwise as lbaselib's: a string or a reader function, a chunk name, an optional environment.
static int safe_load(lua_State *L) {
    size_t l;
    const char *s = lua_tolstring(L, 1, &l);
    int env = !lua_isnone(L, 4) ? 4 : 0;
    piece_reader r = {NULL, 0, 0, 0, 1};
    int status;
    if (s != NULL) {
        const char *chunkname = luaL_optstring(L, 2, s);
        r.text = s;
        r.size = l;
        status = lua_load(L, read_piece, &r, chunkname, "t");
    } else {
        const char *chunkname = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, LOAD_RESERVED_SLOT);
        r.function = 1;
        status = lua_load(L, read_piece, &r, chunkname, "t");
    }
    if (status == LUA_OK) {
        if (env != 0) {
            lua_pushvalue(L, env);
            if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
        }
        return 1;
    }
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
}

static int safe_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0) return luaL_error(L, "collectgarbage: only \"count\" is allowed in plugins");
    segue_sandbox *sb = segue_sandbox_of(L);
    lua_pushnumber(L, (lua_Number)sb->used / 1024.0);
    return 1;
}

static int safe_setmetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "setmetatable: __gc metamethods are not allowed in plugins");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

void segue_wrap_stock(lua_State *L, int from, int to, const char *name, lua_CFunction fn) {
    lua_getfield(L, from, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, to, name);
}

static void copy_fields(lua_State *L, int from, int to, const char *const *names) {
    for (; *names; names++) {
        lua_getfield(L, from, *names);
        lua_setfield(L, to, *names);
    }
}

static const char *const base_names[] = {
    "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen",
    "rawset", "select", "tonumber", "tostring", "type", "xpcall", "_VERSION", NULL};

static int build_sandbox(lua_State *L) {
    luaL_openlibs(L);                                   // everything, in the default globals
    lua_pushglobaltable(L);                             // [G]
    int g = lua_gettop(L);
    lua_createtable(L, 0, 32);                          // [G env]
    int env = lua_gettop(L);
    copy_fields(L, g, env, base_names);

    lua_pushcfunction(L, safe_load);
    lua_setfield(L, env, "load");
    segue_wrap_stock(L, g, env, "setmetatable", safe_setmetatable);
    lua_pushcfunction(L, safe_collectgarbage);
    lua_setfield(L, env, "collectgarbage");

    static const char *const libs[] = {"string", "table", "math", "utf8", "coroutine", NULL};
    for (const char *const *lib = libs; *lib; lib++) {
        lua_getfield(L, g, *lib);                       // [G env lib]
        lua_createtable(L, 0, 32);                      // [G env lib copy]
        lua_pushnil(L);
        while (lua_next(L, -3)) {                       // [G env lib copy k v]
            lua_pushvalue(L, -2);
            lua_insert(L, -2);                          // [G env lib copy k k v]
            lua_rawset(L, -4);                          // [G env lib copy k]
        }
        if (strcmp(*lib, "string") == 0) {
            lua_pushnil(L);
            lua_setfield(L, -2, "dump");
            // Strings index the sanitized copy, so ("").dump does not reach string.dump.
            lua_pushliteral(L, "");
            lua_getmetatable(L, -1);                    // [... copy "" mt]
            lua_pushvalue(L, -3);
            lua_setfield(L, -2, "__index");
            lua_pop(L, 2);
        }
        if (strcmp(*lib, "string") == 0) segue_open_bounded(L, lua_gettop(L));
        lua_setfield(L, env, *lib);                     // [G env lib]
        lua_pop(L, 1);
    }
    segue_open_charged(L, env);
    segue_open_stopped(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    // The sandbox table becomes the global table: chunks loaded from now on see only it.
    lua_pushvalue(L, env);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    // Drop the loaded-modules table so nothing reaches the original libraries through the registry.
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    // The field names host code reads on its hot paths, interned once (segue_key).
    lua_createtable(L, SEGUE_KEY_COUNT, 0);
    for (int k = 1; k < SEGUE_KEY_COUNT; k++) {
        segue_sandbox_of(L)->key_text[k] = lua_pushstring(L, segue_key_names[k]);
        lua_rawseti(L, -2, k);
    }
    segue_sandbox_of(L)->keys_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    // The names segue_name_at knows, interned once (kept alive by the table at names_ref).
    int name_count = segue_name_count();
    segue_sandbox_of(L)->name_count = name_count;
    lua_createtable(L, name_count, 0);
    for (int k = 1; k < name_count; k++) {
        const char *interned = lua_pushstring(L, segue_name_text(k));
        segue_sandbox_of(L)->names[k] = interned;
        lua_rawseti(L, -2, k);
        size_t h = name_slot(interned);
        while (segue_sandbox_of(L)->name_slots[h] != 0) h = (h + 1) & (SEGUE_NAME_SLOTS - 1);
        segue_sandbox_of(L)->name_slots[h] = (unsigned short)k;
    }
    segue_sandbox_of(L)->names_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, 0);
    return 0;
}

static void warn_ignore(void *ud, const char *msg, int tocont) {
    (void)ud; (void)msg; (void)tocont;
}

lua_State *segue_newstate(size_t memory_limit, long long instruction_budget) {
    segue_sandbox *sb = calloc(1, sizeof(segue_sandbox));
    if (sb == NULL) return NULL;
    sb->limit = memory_limit;
    sb->budget = instruction_budget;
    sb->remaining = instruction_budget;
    sb->hook_step = SEGUE_HOOK_STEP;
    sb->sweep_at = SEGUE_ARENA_SWEEP_MIN;
    sb->host = 1;                                   // building the sandbox is host work
    lua_State *L = lua_newstate(capping_alloc, sb);
    if (L == NULL) { pool_drain(sb); free(sb); return NULL; }
    lua_setwarnf(L, warn_ignore, NULL);
    // The collector in generational mode (Lua 5.4's LUA_GCGEN, default parameters): a plugin call makes short-lived
    // tables, closures and proxies by the dozen, which a minor collection frees without walking the state's old
    // objects (the prelude, the plugin's functions) the way every incremental cycle does. Measured on the dt-slide
    // select (docs/DESIGN.md, "The Lua host"): fewer instructions per select and less memory per scene.
    lua_gc(L, LUA_GCGEN, 0, 0);
    lua_pushcfunction(L, build_sandbox);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_close(L);
        pool_drain(sb);
        free(sb);
        return NULL;
    }
    sb->host = 0;
    // The traceback handler of every top-level call, kept at index 1 of the main thread's stack for the state's
    // life (nothing below it is ever popped: host code restores the top it found).
    lua_pushcfunction(L, traceback_handler);
    // Threads inherit the creating thread's hook, so coroutines are budgeted too.
    sb->main = L;
    lua_sethook(L, segue_budget_hook, LUA_MASKCOUNT, sb->hook_step);
    return L;
}

void segue_close(lua_State *L) {
    segue_sandbox *sb = segue_sandbox_of(L);
    segue_watch_unregister(sb);
    lua_close(L);
    pool_drain(sb);
    free(sb);
}
