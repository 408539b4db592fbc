// CLuaShim: the C side of segued's Lua bridge.
//
// Swift never lets a Lua error longjmp through its frames. Host functions are Swift functions called through
// `segue_pushhost`'s trampoline: they return a result count, or -1 with an error message on top of the stack,
// and the trampoline raises after the Swift frame has returned. Every Swift->Lua call goes through `segue_pcall`.
#ifndef SEGUE_CLUASHIM_H
#define SEGUE_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/// Per-state sandbox bookkeeping: the allocator's counters and the instruction budget.
typedef struct segue_sandbox {
    size_t used;            // bytes currently allocated by this state
    size_t limit;           // memory cap (0: none)
    size_t peak;            // highest `used` seen
    int host;               // > 0 while host code runs inside a Lua call: the cap is not enforced
    int exhausted;          // the call ran out of budget (or was interrupted): every instruction now raises
    volatile int interrupt; // set asynchronously (signal handler): stop the running call
    long long budget;       // instructions per top-level call (0: unlimited)
    long long remaining;    // instructions left in the current call
    int hook_step;          // count hook granularity
    int memory_errors;      // how many allocations the cap refused
} segue_sandbox;

/// A host function: returns >= 0 results, or -1 with an error message pushed on top of the stack.
typedef int (*segue_host_fn)(lua_State *L, void *ctx, int index);

/// A new sandboxed state: capping allocator, whitelisted libraries, text-only `load`, `__gc` refused.
/// Returns NULL when the state cannot be made.
lua_State *segue_newstate(size_t memory_limit, long long instruction_budget);
void segue_close(lua_State *L);
segue_sandbox *segue_sandbox_of(lua_State *L);

/// Pushes a C closure that calls `fn(L, ctx, index)` and raises its error after it returns.
void segue_pushhost(lua_State *L, segue_host_fn fn, void *ctx, int index);

/// Calls the function below `nargs` arguments with a traceback message handler. When `top_level` is non-zero
/// the instruction budget is reset first (one budget per call from the engine). Host mode is suspended for the
/// duration of the call, so the memory cap applies to the script. Returns a LUA_* status; on error the message
/// (with traceback) is left on the stack.
int segue_pcall(lua_State *L, int nargs, int nresults, int top_level);

/// Loads a chunk of Lua source text (never bytecode). Returns a LUA_* status.
int segue_loadtext(lua_State *L, const char *text, size_t len, const char *chunkname);

/// Asks the running call to stop at its next instruction (async-signal-safe).
void segue_interrupt(lua_State *L);

static inline void segue_pop(lua_State *L, int n) { lua_settop(L, -(n) - 1); }
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

#endif
