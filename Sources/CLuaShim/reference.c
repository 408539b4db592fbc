// The reference the Swift→Lua call path is measured against (`segue-bench lua`): a bare `lua_pcall` of a trivial
// Lua function with the count hook set, done in C. Used only by the benchmark; nothing in segued calls it.
#include "CLuaShim.h"
#include <time.h>

static void reference_hook(lua_State *L, lua_Debug *ar) {
    (void)L;
    (void)ar;
}

static long long reference_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double segue_reference_pcall_ns(const char *source, long long calls) {
    lua_State *L = luaL_newstate();
    if (L == NULL || calls <= 0) {
        if (L) lua_close(L);
        return -1;
    }
    // The function (what `source` returns) and its one argument (a full userdata, as a context proxy is) kept in
    // the registry by reference, resolved once.
    if (luaL_loadstring(L, source) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK || !lua_isfunction(L, -1)) {
        lua_close(L);
        return -1;
    }
    int function = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newuserdatauv(L, 16, 0);
    int argument = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_sethook(L, reference_hook, LUA_MASKCOUNT, 1000);
    double sink = 0;
    long long start = 0;
    for (long long i = -10000; i < calls; i++) {
        if (i == 0) start = reference_now_ns();
        lua_rawgeti(L, LUA_REGISTRYINDEX, function);
        lua_rawgeti(L, LUA_REGISTRYINDEX, argument);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
            lua_close(L);
            return -1;
        }
        sink += lua_tonumber(L, -1);
        lua_settop(L, 0);
    }
    double ns = (double)(reference_now_ns() - start) / (double)calls;
    lua_close(L);
    return sink < 0 ? -ns : ns;
}
