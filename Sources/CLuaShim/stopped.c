// No Lua code runs with the count hook off.
//
// When the budget hook raises (the instruction budget is spent, or the wall-clock backstop stopped the call), Lua
// leaves hooks off in that thread until a protected call catches the error: luaD_hook turns them off around the
// hook and does not turn them back on when the hook raises. Until then no count hook fires, so neither the budget
// nor the backstop can stop anything. The stock library runs Lua code in that window in two places:
//
//   - xpcall's message handler, called where the error is raised, before any protected call catches it:
//     `xpcall(f, function() while true do end end)` with `f` stopped by the budget looped for good;
//   - the __close handlers of a coroutine the hook killed (the thread stays with hooks off), run by
//     coroutine.close, or by coroutine.wrap's function when its coroutine fails.
//
// So the sandbox's xpcall does not call the script's handler for a stopped call (the budget error goes on as it
// is), and a coroutine that died while its call was stopped is marked and never closed: its __close handlers do
// not run. coroutine.resume and coroutine.wrap's function raise the stop in the resuming thread at once.
#include "CLuaShim.h"

static const char stopped_key = 's';  // registry key (its address) of the weak set of stopped coroutines

static int stopped_now(lua_State *L) {
    segue_sandbox *sb = segue_sandbox_of(L);
    return sb->exhausted || segue_interrupted(sb);
}

static void push_stopped_set(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &stopped_key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &stopped_key);
}

/// Marks the coroutine at `index` when it died while the call was stopped (its hooks are off for good).
static void mark_if_stopped(lua_State *L, int index, lua_State *co) {
    int status = lua_status(co);
    if (status == LUA_OK || status == LUA_YIELD || !stopped_now(L)) return;
    index = lua_absindex(L, index);
    push_stopped_set(L);
    lua_pushvalue(L, index);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

static int is_stopped(lua_State *L, int index) {
    index = lua_absindex(L, index);
    push_stopped_set(L);
    lua_pushvalue(L, index);
    int stopped = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    return stopped;
}

// --- xpcall ---

static int message_handler(lua_State *L) {
    if (stopped_now(L)) return 1;  // the budget error as it is: the script's handler would run unhooked
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

// As lbaselib's xpcall, with the handler wrapped.
static int safe_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, message_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

// --- coroutine.resume / wrap / close ---

// coroutine.resume: the stock function (upvalue 1; it leaves the coroutine at index 1), then the stop, if any,
// raised here.
static int safe_resume(lua_State *L) {
    lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(1));
    lua_State *co = lua_tothread(L, 1);
    int n = stock(L);
    if (co != NULL) mark_if_stopped(L, 1, co);
    segue_charge(L, 0);  // raises when the call was stopped
    return n;
}

// As lcorolib's auxresume: the values moved, the results, or -1 with the error on top.
static int resume_values(lua_State *L, lua_State *co, int narg) {
    int nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    int status = lua_resume(co, L, narg, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

// The function coroutine.wrap returns (upvalue 1: the coroutine). As lcorolib's auxwrap, except that a coroutine
// that died while the call was stopped is not closed.
static int wrapped(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = resume_values(L, co, lua_gettop(L));
    if (r >= 0) {
        segue_charge(L, 0);
        return r;
    }
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        mark_if_stopped(L, lua_upvalueindex(1), co);
        segue_charge(L, 0);  // raises when the call was stopped
        if (!is_stopped(L, lua_upvalueindex(1))) {
            status = segue_closethread(co, L);  // closes its to-be-closed variables
            lua_xmove(co, L, 1);
        }
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

// A new coroutine is charged the instructions it may run before its count hook first fires (the hook counts
// per thread, so a coroutine that ends sooner would otherwise run them free: a loop making short coroutines ran
// hundreds of times its budget).
static void charge_new_coroutine(lua_State *L) {
    segue_charge(L, segue_sandbox_of(L)->hook_step);
}

static int safe_create(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    charge_new_coroutine(L);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

static int safe_wrap(lua_State *L) {
    safe_create(L);  // [f co]
    lua_pushcclosure(L, wrapped, 1);
    return 1;
}

// coroutine.close: the stock function (upvalue 1), unless the coroutine died while a call was stopped.
static int safe_close(lua_State *L) {
    lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(1));
    if (lua_type(L, 1) == LUA_TTHREAD && is_stopped(L, 1)) {
        segue_charge(L, 0);  // raises while the call is stopped
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "the coroutine was stopped by the instruction budget: it is not closed");
        return 2;
    }
    return stock(L);
}

void segue_open_stopped(lua_State *L, int env) {
    env = lua_absindex(L, env);
    lua_pushcfunction(L, safe_xpcall);
    lua_setfield(L, env, "xpcall");
    lua_getfield(L, env, "coroutine");
    int co = lua_gettop(L);
    segue_wrap_stock(L, co, co, "resume", safe_resume);
    segue_wrap_stock(L, co, co, "close", safe_close);
    lua_pushcfunction(L, safe_wrap);
    lua_setfield(L, co, "wrap");
    lua_pushcfunction(L, safe_create);
    lua_setfield(L, co, "create");
    lua_pop(L, 1);
    push_stopped_set(L);
    lua_pop(L, 1);
}
