// CLuaShim: the C side of segued's Lua bridge.
//
// Swift never lets a Lua error longjmp through its frames. Host functions are Swift functions called through
// `segue_pushhost`'s trampoline: they return a result count, or -1 with an error message on top of the stack,
// and the trampoline raises after the Swift frame has returned. Every Swift->Lua call goes through `segue_pcall`.
#ifndef SEGUE_CLUASHIM_H
#define SEGUE_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/// `segue_host_fn` as the sandbox stores it (the typedef with its arguments follows below).
typedef int (*segue_host_fn_opaque)(lua_State *L, void *ctx, int index);

/// Names host code decodes on its hot paths (property and field names, `ctx:view`'s keys): `segue_name_at` answers
/// one by comparing the key's interned pointer (Lua 5.4 interns every string of ≤ 40 bytes), then its bytes, so a
/// host function switches on an integer and makes no Swift string. The first `SEGUE_CTX_CACHED` are the context's
/// fields that cannot change during its life: their number is also the proxy's user value slot caching them.
/// After the fixed names come the view properties' names, which the host gives once at start-up
/// (`segue_set_property_names`, from SegueKit's view-property table): property k is name
/// `SEGUE_NAME_FIXED_COUNT + k`. `frame` is fixed: it is derived from two properties, not one of the table.
typedef enum segue_name {
    SEGUE_NAME_NONE = 0,
    SEGUE_NAME_ID, SEGUE_NAME_KIND, SEGUE_NAME_ANIMATED, SEGUE_NAME_FROM_INDEX, SEGUE_NAME_TO_INDEX,
    SEGUE_NAME_DIRECTION,
    SEGUE_NAME_CONTAINER, SEGUE_NAME_DURATION, SEGUE_NAME_INTERACTIVE, SEGUE_NAME_CANCELLED, SEGUE_NAME_PRESENTATION_STYLE,
    SEGUE_NAME_COORDINATOR,
    SEGUE_NAME_FRAME, SEGUE_NAME_SUPERVIEW, SEGUE_NAME_SUBVIEWS, SEGUE_NAME_MASK,
    SEGUE_NAME_FROM, SEGUE_NAME_TO,
    SEGUE_NAME_FIXED_COUNT
} segue_name;
#define SEGUE_CTX_CACHED 6
/// The most view properties the host may name (ViewChanges is 64 bits).
#define SEGUE_PROPERTY_MAX 64
/// Slots of segue_sandbox.name_slots: a power of two, over twice the most names there can be.
#define SEGUE_NAME_SLOTS 256
extern const char *const segue_name_list[SEGUE_NAME_FIXED_COUNT];

/// Sets the view properties' names (copied), once per process before the first state is made; the names are
/// known to every state made after. Returns 0, or -1 when there are more than `SEGUE_PROPERTY_MAX`, a name is
/// empty, or names were already set.
int segue_set_property_names(const char *const *names, int count);
/// How many names `segue_name_at` knows, `SEGUE_NAME_NONE` included: the fixed ones and the properties'.
int segue_name_count(void);
/// The text of name `code` ("" for none).
const char *segue_name_text(int code);

/// Per-state sandbox bookkeeping: the allocator's counters and the instruction budget.
/// capping_alloc's arena: blocks of up to SEGUE_POOL_MAX bytes in size classes of 16 bytes, carved from the state's
/// own chunks of SEGUE_ARENA_CHUNK bytes; free blocks beyond SEGUE_ARENA_SWEEP_MIN (and beyond twice what the last
/// sweep left, and half what Lua holds) make a sweep that gives back the chunks with no block in use.
#define SEGUE_POOL_CLASSES 16
#define SEGUE_POOL_MAX (SEGUE_POOL_CLASSES * 16)
#define SEGUE_ARENA_CHUNK 4096
#define SEGUE_ARENA_SWEEP_MIN (32 * 1024)

typedef struct segue_sandbox {
    size_t used;            // bytes currently allocated by this state
    size_t limit;           // memory cap (0: none)
    size_t peak;            // highest `used` seen
    int host;               // > 0 while host code runs inside a Lua call: the cap is not enforced
    int exhausted;          // the call ran out of budget (or was interrupted): every instruction now raises
    volatile int interrupt; // kept for ABI: unused (see call_seq / interrupt_seq)
    long long budget;       // instructions per top-level call (0: unlimited)
    long long remaining;    // instructions left in the current call
    int hook_step;          // count hook granularity
    int memory_errors;      // how many allocations failed (refused by the cap, or by the system)
    // The wall-clock backstop (watchdog.c). Written by the engine thread around each top-level call and read by
    // the watchdog thread, always through __atomic builtins.
    long long call_seq;         // incremented when a top-level call starts
    long long interrupt_seq;    // the watchdog stopped the call with this sequence number
    long long seen_seq;         // the watchdog's own: the call it last saw running (read and written by it only)
    long long seen_ns;          // ... and when it first saw it (the engine thread reads no clock per call)
    int active;                 // a top-level call is running
    int timeout_ms;             // 0: no wall-clock limit
    unsigned long thread;       // pthread_t of the thread running the call
    lua_State *main;            // the main thread of the state
    struct segue_sandbox *prev, *next;  // unused (the watchdog keeps no registry of states: watchdog.c)
    struct segue_sandbox *outer;        // the state whose call was running on this thread before this one
    long long match_steps;      // pattern-matching steps spent (bounded string library)
    long long timeouts;         // calls stopped by the wall clock
    long long last_used;        // instructions the last top-level call used (to the hook's granularity)
    unsigned long long allocated;  // bytes ever allocated by this state (charged.c prices library calls by it)
    int running;                // how many segue_pcall calls are running on this state (only the outermost is top-level)
    int error_kind;             // how the last segue_pcall / segue_loadtext ended (a segue_error_kind)
    int keys_ref;               // registry reference of the interned field names (segue_key)
    segue_host_fn_opaque host_fn;   // the host functions' entry and context (segue_pushhost: one per state)
    void *host_ctx;
    const char *names[SEGUE_NAME_FIXED_COUNT + SEGUE_PROPERTY_MAX];  // the names as this state interned them (kept alive at names_ref)
    int names_ref;
    int name_count;         // segue_name_count() when the state was made
    int index_name;         // the key's segue_name, set by segue_pushindex's function before it calls the host
    // The interned names by address (segue_name_at): an open-addressing table of name codes (0: empty), so a key is
    // found in a probe or two instead of a walk over every name.
    unsigned short name_slots[SEGUE_NAME_SLOTS];
    // The state's arena of small blocks (capping_alloc): a block of up to SEGUE_POOL_MAX bytes is carved in its
    // 16-byte size class from the state's own chunks, and a freed one is kept on its class's list for the state's
    // next allocation of that class. Freed by segue_close.
    void *pool[SEGUE_POOL_CLASSES + 1];  // heads of the lists by class (1...SEGUE_POOL_CLASSES); a free block's first word links the next
    size_t pooled;                       // bytes on the lists
    char *bump, *bump_end;               // the current chunk's bytes not carved yet
    char **chunks;                       // every chunk (SEGUE_ARENA_CHUNK bytes each, each its own malloc), in no order
    size_t chunk_count, chunk_cap;
    size_t arena_bytes;                  // chunk_count × SEGUE_ARENA_CHUNK
    size_t large_bytes;                  // bytes of the blocks above SEGUE_POOL_MAX (each its own malloc)
    size_t sweep_at;                     // the lists' bytes above which a free sweeps the arena
    long long sweeps;                    // sweeps so far
    // The segue_key names as this state interned them (kept alive at keys_ref): an options table's key is matched by
    // address first (segue_scananimation_checked).
    const char *key_text[32];
} segue_sandbox;

/// Field names host code reads on hot paths, interned once per state in a table at `keys_ref` (index = the key),
/// so reading one costs no string conversion, hashing or comparison.
typedef enum segue_key {
    SEGUE_KEY_A = 1, SEGUE_KEY_B, SEGUE_KEY_C, SEGUE_KEY_D, SEGUE_KEY_TX, SEGUE_KEY_TY,
    SEGUE_KEY_X, SEGUE_KEY_Y, SEGUE_KEY_W, SEGUE_KEY_H, SEGUE_KEY_M,
    SEGUE_KEY_DURATION, SEGUE_KEY_DELAY, SEGUE_KEY_REPEAT_COUNT, SEGUE_KEY_AUTOREVERSE, SEGUE_KEY_SPRING,
    SEGUE_KEY_CURVE, SEGUE_KEY_STIFFNESS, SEGUE_KEY_MASS, SEGUE_KEY_DAMPING, SEGUE_KEY_VELOCITY,
    SEGUE_KEY_COUNT
} segue_key;
extern const char *const segue_key_names[SEGUE_KEY_COUNT];

/// How a call or a load ended, set by the shim where it knows (never read from the message's text).
typedef enum segue_error_kind {
    SEGUE_ERROR_NONE = 0,     // it did not fail
    SEGUE_ERROR_RUNTIME = 1,  // the script raised an error (or a host function did)
    SEGUE_ERROR_SYNTAX = 2,   // the chunk did not compile
    SEGUE_ERROR_MEMORY = 3,   // an allocation was refused by the state's memory cap (or failed)
    SEGUE_ERROR_BUDGET = 4,   // the instruction budget was spent (lua.instruction_budget)
    SEGUE_ERROR_TIMEOUT = 5,  // the wall-clock backstop stopped it (lua.call_timeout_ms)
} segue_error_kind;

/// A host function: returns >= 0 results, or -1 with an error message pushed on top of the stack.
typedef int (*segue_host_fn)(lua_State *L, void *ctx, int index);

/// A new sandboxed state: capping allocator, whitelisted libraries, text-only `load`, `__gc` refused.
/// Returns NULL when the state cannot be made.
lua_State *segue_newstate(size_t memory_limit, long long instruction_budget);
void segue_close(lua_State *L);
segue_sandbox *segue_sandbox_of(lua_State *L);
/// What the state costs in memory, counted exactly: its arena's chunks (blocks in use, free blocks, bytes not carved
/// yet) and its large blocks (without malloc's own few bytes per large block). `used` is what Lua holds of it.
size_t segue_footprint(lua_State *L);
/// The state's allocator as Lua calls it (`lua_Alloc`, capped and counted): for the allocator's own tests.
void *segue_alloc(lua_State *L, void *ptr, size_t osize, size_t nsize);

/// Pushes a C closure that calls `fn(L, ctx, index)` and raises its error after it returns. Every host function of
/// one state has the same `fn` and `ctx` (kept in its sandbox, so a call reads one upvalue, the index).
void segue_pushhost(lua_State *L, segue_host_fn fn, void *ctx, int index);

/// The `segue_name` of the value at `i`: 0 for a string that is none of them, -1 for a value that is no string.
int segue_name_at(lua_State *L, int i);

/// Pushes an `__index(self, key)` C function for a proxy metatable: it answers `methods[key]` (raw; the table at
/// `methods`) when not nil; with `cached`, then the field cached in the proxy's user value slot of that name (see
/// `segue_cache_field`); otherwise it calls host function `index` as the trampoline does, the key's segue_name in
/// the sandbox's `index_name`. No Swift frame runs for a method or a cached field.
void segue_pushindex(lua_State *L, int methods, int index, int cached);

/// The handle of the proxy at `i` made with `tag` (see LuaState.pushProxy: 16 bytes, tag then handle), or -1 for
/// any other value. One call where Swift would make three.
static inline long long segue_proxy_handle(lua_State *L, int i, int tag) {
    if (lua_type(L, i) != LUA_TUSERDATA || lua_rawlen(L, i) != 16) return -1;
    const char *raw = (const char *)lua_touserdata(L, i);
    int found;
    long long handle;
    memcpy(&found, raw, sizeof found);
    if (found != tag) return -1;
    memcpy(&handle, raw + 8, sizeof handle);
    return handle;
}

/// Caches the value on top (not popped) as field `name` of the proxy at `proxy` (a `SEGUE_CTX_CACHED` name; a nil
/// value is cached as such). No-op for another name or a value that is no proxy with that many user values.
void segue_cache_field(lua_State *L, int proxy, int name);

/// Forgets every field cached in the proxy at `proxy` (its user values back to nil).
void segue_uncache_fields(lua_State *L, int proxy);

/// Calls the function below `nargs` arguments with a traceback message handler. When `top_level` is non-zero and
/// no other call runs on this state (`running` is the one nesting count), the instruction budget is reset first
/// (one budget per call from the engine: a script cannot refill it by making the engine call back into it). Host
/// mode is suspended for the duration of the call, so the memory cap applies to the script. Returns a LUA_*
/// status; on error the message (with traceback) is left on the stack and `error_kind` says what stopped it.
int segue_pcall(lua_State *L, int nargs, int nresults, int top_level);

/// Loads a chunk of Lua source text (never bytecode). Returns a LUA_* status (`error_kind` set as by segue_pcall). The parser reads the text in small
/// pieces and stops with "call timed out" when the wall-clock backstop fires, as a call does: its worst cases
/// (names resolved through many nested functions) are not linear in the text. Outside a running call the load is
/// watched like a top-level call.
int segue_loadtext(lua_State *L, const char *text, size_t len, const char *chunkname);
/// The host's own chunk (the prelude): parsed by the first state, loaded from its dumped bytecode by every later
/// state given the same text (never used for plugin files, which load as text).
int segue_loadtrusted(lua_State *L, const char *text, size_t len, const char *chunkname);

/// Asks the running call to stop at its next instruction, as the wall-clock watchdog does.
void segue_interrupt(lua_State *L);

/// Arms the wall-clock backstop for this state: a top-level call running longer than `timeout_ms` is stopped
/// ("call timed out"). A watchdog thread notices and signals the engine thread (SIGURG), whose handler sets the
/// count hook to fire at the next instruction, as lua.c's SIGINT handler does. 0 disarms it.
void segue_set_call_timeout(lua_State *L, int timeout_ms);

/// Whether the running call was stopped by the wall clock (the hook consults it).
int segue_interrupted(segue_sandbox *sb);

/// Internal: the watchdog's bookkeeping around a top-level call (shim.c calls these).
void segue_watch_begin(segue_sandbox *sb, lua_State *L);
void segue_watch_end(segue_sandbox *sb);
void segue_watch_unregister(segue_sandbox *sb);
/// Internal: the count hook, and how the bounded string functions charge their work to the budget.
void segue_budget_hook(lua_State *L, lua_Debug *ar);
void segue_charge(lua_State *L, long long steps);
/// Internal: installs the bounded string.find/match/gmatch/gsub into the sandbox's copy of `string`.
void segue_open_bounded(lua_State *L, int string_table);
/// Internal: replaces every whitelisted function whose work depends on its arguments by one that charges that
/// work to the budget (charged.c). `env` is the sandbox's global table, its library tables already copied.
void segue_open_charged(lua_State *L, int env);

/// Replaces xpcall and coroutine.resume/wrap/close in the sandbox table at `env` so that no Lua code runs with the
/// count hook off after the budget hook raised (stopped.c).
void segue_open_stopped(lua_State *L, int env);
/// Internal: sets `name` in the table at `to` to a C closure of `fn` whose upvalue 1 is `name` from the table at
/// `from` (the stock function the replacement wraps). Both indices absolute.
void segue_wrap_stock(lua_State *L, int from, int to, const char *name, lua_CFunction fn);

/// The benchmark's reference (reference.c): ns per bare `lua_pcall` of the function the Lua chunk `source` returns,
/// with one userdata argument and the count hook set (every 1000 instructions, a hook that does nothing), in a
/// plain `luaL_newstate`, timed over `calls` calls after 10 000 warm-up calls. -1 when `source` fails.
double segue_reference_pcall_ns(const char *source, long long calls);

/// Pushes the table at registry reference `table_ref`, then its field `t[k]` (raw), the key being the value at
/// registry reference `key_ref` (a string interned once, so no C string is converted or hashed per call). Returns
/// the field's type; the field is nil when the reference is no table.
/// The table stays under the field (the caller restores the top it found afterwards).
static inline int segue_pushfield(lua_State *L, int table_ref, int key_ref) {
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, table_ref) != LUA_TTABLE) {
        lua_pushnil(L);
        return LUA_TNIL;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, key_ref);
    return lua_rawget(L, -2);
}

/// Closes a dead coroutine's pending to-be-closed variables and resets it: `lua_closethread` where the Lua headers
/// have it (5.4.6 and later, where `lua_resetthread` is deprecated), `lua_resetthread` before.
static inline int segue_closethread(lua_State *co, lua_State *from) {
#if LUA_VERSION_RELEASE_NUM >= 50406
    return lua_closethread(co, from);
#else
    (void)from;
    return lua_resetthread(co);
#endif
}

static inline void segue_pop(lua_State *L, int n) { lua_settop(L, -(n) - 1); }
/// A full garbage collection (lua_gc is variadic, which Swift cannot call): tests count what a state holds after it.
static inline void segue_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
static inline void segue_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline const char *segue_tostring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline int segue_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int segue_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int segue_noref(void) { return LUA_NOREF; }
static inline int segue_lua_release(void) { return LUA_VERSION_RELEASE_NUM; }
/// Reads `t[k]` without metamethods; `t` must be a table (checked by the caller). Pushes the value.
static inline int segue_rawgetfield(lua_State *L, int t, const char *k) {
    t = lua_absindex(L, t);
    lua_pushstring(L, k);
    return lua_rawget(L, t);
}
/// Sets `t[k] = top` without metamethods and pops the value.
static inline void segue_rawsetfield(lua_State *L, int t, const char *k) {
    t = lua_absindex(L, t);
    lua_pushstring(L, k);
    lua_insert(L, -2);
    lua_rawset(L, t);
}

/// Reads the raw fields `keys[0..<n]` (segue_key) of the table at `t` into `out`, the interned names' table being at
/// stack index `names`; returns 1 when every one is a number (a string that looks like one is not), 0 otherwise.
/// The values stay on the stack until one reset of the top at the end (one C API call per field fewer than popping
/// each). The stack is as before.
static inline int segue_numberfields_in(lua_State *L, int t, int names, const segue_key *keys, int n, double *out) {
    int base = lua_gettop(L);
    int ok = lua_checkstack(L, n);
    for (int i = 0; i < n && ok; i++) {
        lua_rawgeti(L, names, keys[i]);                                   // [... values key]
        if (lua_rawget(L, t) == LUA_TNUMBER) {                            // [... values value]
            out[i] = lua_tonumberx(L, -1, NULL);
        } else {
            ok = 0;
        }
    }
    lua_settop(L, base);
    return ok;
}
/// Pushes the table of interned field names (segue_key) and returns its stack index.
static inline int segue_pushkeys(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ((segue_sandbox *)ud)->keys_ref);   // [names]
    return lua_gettop(L);
}
/// Reads the raw fields `keys[0..<n]` (segue_key) of the table at `t` into `out`; returns 1 when every one is a
/// number (a string that looks like one is not), 0 otherwise. The stack is as before.
static inline int segue_numberfields(lua_State *L, int t, const segue_key *keys, int n, double *out) {
    t = lua_absindex(L, t);
    int names = segue_pushkeys(L);                                        // [names]
    int ok = segue_numberfields_in(L, t, names, keys, n, out);
    lua_settop(L, names - 1);
    return ok;
}
/// The named curve (`CubicBezier.named`) a string of `len` bytes at `s` spells exactly: 1 linear, 2 ease_in,
/// 3 ease_out, 4 ease_in_out, 5 default; 0 for any other string (the caller then reads it as text, as before).
static inline int segue_curve_code(const char *s, size_t len) {
    static const char *const names[] = {"linear", "ease_in", "ease_out", "ease_in_out", "default"};
    static const size_t lengths[] = {6, 7, 8, 11, 7};
    for (int k = 0; k < 5; k++) {
        if (lengths[k] == len && memcmp(names[k], s, len) == 0) return k + 1;
    }
    return 0;
}
/// The value on top as an options scan records it: a number's value, a boolean's as 0 or 1, a string's
/// `segue_curve_code`, 0 for any other `type` (the value's type).
static inline double segue_scanvalue(lua_State *L, int type) {
    if (type == LUA_TNUMBER) return lua_tonumberx(L, -1, NULL);
    if (type == LUA_TBOOLEAN) return lua_toboolean(L, -1);
    if (type != LUA_TSTRING) return 0;
    size_t len = 0;
    const char *s = lua_tolstring(L, -1, &len);
    return segue_curve_code(s, len);
}
/// The types of the raw fields `keys[0..<n]` (segue_key) of the table at `t` into `types`, and each number's value
/// (a boolean's as 0 or 1, a string's `segue_curve_code`; 0 otherwise) into `values`: one call for an options
/// table. The stack is as before.
static inline void segue_scanfields(lua_State *L, int t, const segue_key *keys, int n, int *types, double *values) {
    t = lua_absindex(L, t);
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ((segue_sandbox *)ud)->keys_ref);   // [names]
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, keys[i]);                                      // [names key]
        int type = lua_rawget(L, t);                                      // [names value]
        types[i] = type;
        values[i] = segue_scanvalue(L, type);
        lua_settop(L, -2);
    }
    lua_settop(L, -2);
}
/// `segue.animate`'s plain options: duration, delay, repeat_count, autoreverse, spring, curve (segue_scanfields).
/// The six plain animation options in the order both scans fill `types` and `values` (segue_scananimation,
/// segue_scananimation_checked): one list, so the two cannot disagree on a slot.
#define SEGUE_ANIMATION_KEYS {SEGUE_KEY_DURATION, SEGUE_KEY_DELAY, SEGUE_KEY_REPEAT_COUNT, SEGUE_KEY_AUTOREVERSE, \
                              SEGUE_KEY_SPRING, SEGUE_KEY_CURVE}
static inline void segue_scananimation(lua_State *L, int t, int *types, double *values) {
    static const segue_key keys[] = SEGUE_ANIMATION_KEYS;
    segue_scanfields(L, t, keys, 6, types, values);
}
/// `segue_scananimation` and the key check in one pass of `lua_next` over the table at `t`: fills `types` and
/// `values` as `segue_scananimation` does (the same raw values) and returns 1 when every key is a string that is one
/// of the six or is in the table at registry reference `known` (raw), 0 otherwise (then `types` and `values` are not
/// to be used: the caller warns and scans again). The stack is as before; nothing is allocated and nothing raises.
int segue_scananimation_checked(lua_State *L, int t, int known, int *types, double *values);
/// Pushes `t[key]` (raw) for the table at `t`, the key a segue_key; returns the value's type. `t` must be a table.
static inline int segue_rawgetkey(lua_State *L, int t, segue_key key) {
    t = lua_absindex(L, t);
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ((segue_sandbox *)ud)->keys_ref);   // [names]
    lua_rawgeti(L, -1, key);                                              // [names key]
    int type = lua_rawget(L, t);                                          // [names value]
    lua_remove(L, -2);                                                    // [value]
    return type;
}
/// Pushes a new table `{keys[i] = values[i]}` (segue_key names).
static inline void segue_pushnumbertable(lua_State *L, const segue_key *keys, int n, const double *values) {
    lua_createtable(L, 0, n);                                             // [t]
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ((segue_sandbox *)ud)->keys_ref);   // [t names]
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, keys[i]);                                      // [t names key]
        lua_pushnumber(L, values[i]);                                     // [t names key value]
        lua_rawset(L, -4);
    }
    lua_settop(L, -2);
}
/// Pushes a rect table `{x=, y=, w=, h=}` (4 values).
static inline void segue_pushrect(lua_State *L, const double *values) {
    static const segue_key keys[] = {SEGUE_KEY_X, SEGUE_KEY_Y, SEGUE_KEY_W, SEGUE_KEY_H};
    segue_pushnumbertable(L, keys, 4, values);
}
/// Pushes a 2-D transform table `{a=, b=, c=, d=, tx=, ty=}` (6 values).
static inline void segue_pushaffine(lua_State *L, const double *values) {
    static const segue_key keys[] = {SEGUE_KEY_A, SEGUE_KEY_B, SEGUE_KEY_C, SEGUE_KEY_D, SEGUE_KEY_TX, SEGUE_KEY_TY};
    segue_pushnumbertable(L, keys, 6, values);
}
/// A 2-D transform table's `a, b, c, d, tx, ty` (see segue_numberfields).
static inline int segue_affinefields(lua_State *L, int t, double *out) {
    static const segue_key keys[] = {SEGUE_KEY_A, SEGUE_KEY_B, SEGUE_KEY_C, SEGUE_KEY_D, SEGUE_KEY_TX, SEGUE_KEY_TY};
    return segue_numberfields(L, t, keys, 6, out);
}
/// A rect table's `x, y, w, h` (see segue_numberfields).
static inline int segue_rectfields(lua_State *L, int t, double *out) {
    static const segue_key keys[] = {SEGUE_KEY_X, SEGUE_KEY_Y, SEGUE_KEY_W, SEGUE_KEY_H};
    return segue_numberfields(L, t, keys, 4, out);
}

/// What `segue_transformfields` found.
typedef enum segue_transform_kind {
    SEGUE_TRANSFORM_NONE = 0,      // not a transform (or one with a value that is no finite number)
    SEGUE_TRANSFORM_IDENTITY = 1,  // the string "identity"
    SEGUE_TRANSFORM_AFFINE = 2,    // {a, b, c, d, tx, ty}: out[0..<6]
    SEGUE_TRANSFORM_MATRIX = 3,    // {m = {16 numbers}}: out[0..<16]
} segue_transform_kind;

/// The transform at `i` as `view.transform =` takes it, read in one call: "identity", a table with `m` (a table of
/// 16 finite numbers, raw), or a table whose raw `a b c d tx ty` are finite numbers. The stack is as before.
static inline int segue_transformfields(lua_State *L, int i, double *out) {
    int type = lua_type(L, i);
    if (type == LUA_TSTRING) {
        size_t len = 0;
        const char *s = lua_tolstring(L, i, &len);
        return len == 8 && memcmp(s, "identity", 8) == 0 ? SEGUE_TRANSFORM_IDENTITY : SEGUE_TRANSFORM_NONE;
    }
    if (type != LUA_TTABLE) return SEGUE_TRANSFORM_NONE;
    i = lua_absindex(L, i);
    int names = segue_pushkeys(L);                                // [names]: fetched once for `m` and the six fields
    lua_rawgeti(L, names, SEGUE_KEY_M);                           // [names "m"]
    if (lua_rawget(L, i) == LUA_TTABLE) {                         // [names m]
        for (int k = 0; k < 16; k++) {
            int ok = lua_rawgeti(L, -1, k + 1) == LUA_TNUMBER;
            out[k] = ok ? lua_tonumberx(L, -1, NULL) : 0;
            lua_settop(L, -2);
            if (!ok || !(out[k] - out[k] == 0)) {                 // not a number, or not finite
                lua_settop(L, names - 1);
                return SEGUE_TRANSFORM_NONE;
            }
        }
        lua_settop(L, names - 1);
        return SEGUE_TRANSFORM_MATRIX;
    }
    lua_settop(L, names);                                         // [names]
    static const segue_key keys[] = {SEGUE_KEY_A, SEGUE_KEY_B, SEGUE_KEY_C, SEGUE_KEY_D, SEGUE_KEY_TX, SEGUE_KEY_TY};
    int ok = segue_numberfields_in(L, i, names, keys, 6, out);
    lua_settop(L, names - 1);
    if (!ok) return SEGUE_TRANSFORM_NONE;
    for (int k = 0; k < 6; k++) {
        if (!(out[k] - out[k] == 0)) return SEGUE_TRANSFORM_NONE;
    }
    return SEGUE_TRANSFORM_AFFINE;
}

/// Names a plugin function for tracebacks (`animate`, `ended`): one entry of a weak table in the registry.
void segue_name_function(lua_State *L, int fn, const char *name);
/// The current line of the innermost frame of a plugin file (a chunk named `@file`) on `L`'s stack; 0 when none.
int segue_plugin_line(lua_State *L);

#endif
