// The library's own work, charged to the instruction budget.
//
// The count hook only sees Lua instructions. A single call into a C library function runs none, so without this
// file `string.rep('', 1 << 50)` or `table.move({}, 1, 1 << 50, 1, {})` would loop inside one call for days, and no
// budget or wall clock could stop it (the watchdog's signal only arms the hook, which runs between instructions).
// Every whitelisted function whose work depends on its arguments is therefore registered through one of:
//
//   - `charged`: a wrapper around the stock function. Before it runs, the wrapper charges what the arguments say
//     the call will do (repetitions, ranges, bytes to scan), so an absurd request fails before any work starts;
//     after it returns, the wrapper charges what the call produced (bytes allocated, values returned). The stock
//     function is called directly on the same stack frame, so its error messages still name the function as the
//     script called it.
//   - a replacement (string.rep and table.concat/insert/remove/move/sort below, string.find/match/gmatch/gsub in
//     strlib.c, load in shim.c) that charges as it works, where the cost is only known inside the loop or where
//     Lua's own checks and errors must come first.
//
// A unit of charge is one instruction of the budget (about 2–8 ns of interpreter time). The rates below price the
// C work at roughly what it costs next to an instruction, so a budget's worth of library work takes about as long
// as a budget's worth of Lua code. plugins/README.md ("What is bounded, and how") lists every function.
#include "CLuaShim.h"
#include <limits.h>
#include <string.h>

#define COPY_BYTES 32   // bytes copied or allocated per unit
#define SCAN_BYTES 8    // bytes looked at one by one per unit
#define VALUES 4        // stack values taken or returned per unit
#define MAX_CHARGE (LLONG_MAX / 4)

enum kind {
    K_VALUES,      // only the generic part: arguments, results, bytes allocated
    K_SCAN1,       // the first argument is scanned byte by byte (upper, lower, reverse, tonumber)
    K_FORMAT,      // the format and every string argument are scanned
    K_PACK,        // the format is scanned; strings copied; 'cN' pads N bytes
    K_PACKSIZE,    // the format is scanned
    K_UNPACK,      // the format is scanned; 'z' may scan the data
    K_UTF8LEN,     // utf8.len: the byte range i..j is decoded
    K_UTF8OFFSET,  // utf8.offset: the bytes between i and the answer are walked
    K_CODES,       // utf8.codes: its iterator is wrapped too
    K_CODESTEP,    // one step of the utf8.codes iterator: continuation bytes skipped
};

static long long clamp_charge(double units) {
    if (!(units < (double)MAX_CHARGE)) return MAX_CHARGE;  // also NaN
    return units < 0 ? 0 : (long long)units;
}

/// The number of integers in [i, j], saturated.
static double span(lua_Integer i, lua_Integer j) {
    if (j < i) return 0;
    return (double)((lua_Unsigned)j - (lua_Unsigned)i) + 1.0;
}

/// Length of the argument when it is a string (numbers convert to at most a few dozen bytes: 0).
static size_t string_length(lua_State *L, int i) {
    return lua_type(L, i) == LUA_TSTRING ? lua_rawlen(L, i) : 0;
}

/// The integer argument, or `def` when absent or not an integer (the stock function reports a bad one).
static lua_Integer integer_arg(lua_State *L, int i, lua_Integer def) {
    int isnum = 0;
    lua_Integer v = lua_tointegerx(L, i, &isnum);
    return isnum ? v : def;
}

/// A string position as the string library reads it: negative counts from the end, clamped to [0, len + 1].
static lua_Integer position(lua_Integer pos, size_t len) {
    if (pos >= 0) return pos > (lua_Integer)len ? (lua_Integer)len + 1 : pos;
    if ((lua_Unsigned)0 - (lua_Unsigned)pos > len) return 0;
    return (lua_Integer)len + pos + 1;
}

/// Sum of the sizes written after 'c' in a pack format (the bytes 'cN' pads), each read as the stock function
/// reads it (digits while the number stays below INT_MAX / 10; any further digit is the next option).
static double pack_padding(const char *fmt, size_t len) {
    double total = 0;
    for (size_t k = 0; k < len; k++) {
        if (fmt[k] != 'c') continue;
        long long n = 0;
        while (k + 1 < len && fmt[k + 1] >= '0' && fmt[k + 1] <= '9' && n <= (INT_MAX - 9) / 10) {
            n = n * 10 + (fmt[++k] - '0');
        }
        total += (double)n;
    }
    return total;
}

/// What the arguments say the call will do, in units.
static double cost_before(lua_State *L, int kind, int nargs) {
    double units = (double)nargs / VALUES;
    switch (kind) {
    case K_SCAN1:
        units += (double)string_length(L, 1) / SCAN_BYTES;
        break;
    case K_FORMAT:
        for (int i = 1; i <= nargs; i++) units += (double)string_length(L, i) / SCAN_BYTES;
        break;
    case K_PACK: {
        size_t lf = 0;
        const char *fmt = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &lf) : NULL;
        units += (double)lf / SCAN_BYTES;
        if (fmt) units += pack_padding(fmt, lf) / COPY_BYTES;
        for (int i = 2; i <= nargs; i++) units += (double)string_length(L, i) / COPY_BYTES;
        break;
    }
    case K_PACKSIZE:
        units += (double)string_length(L, 1) / SCAN_BYTES;
        break;
    case K_UNPACK: {
        size_t lf = 0;
        const char *fmt = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &lf) : NULL;
        units += (double)lf / SCAN_BYTES;
        if (fmt && memchr(fmt, 'z', lf)) units += (double)string_length(L, 2) / SCAN_BYTES;
        break;
    }
    case K_UTF8LEN: {
        size_t len = string_length(L, 1);
        lua_Integer i = position(integer_arg(L, 2, 1), len);
        lua_Integer j = position(integer_arg(L, 3, -1), len);
        double bytes = span(i, j);
        units += (bytes < (double)len ? bytes : (double)len) / SCAN_BYTES;
        break;
    }
    default:
        break;
    }
    return units;
}

static int charged(lua_State *L);

/// What the call did, in units, once it returned `n` results (on top of the stack).
static double cost_after(lua_State *L, int kind, int n, size_t allocated, lua_Integer from, size_t len) {
    double units = (double)n / VALUES + (double)allocated / COPY_BYTES;
    switch (kind) {
    case K_UTF8OFFSET:
        if (n >= 1 && lua_isinteger(L, -1)) {
            lua_Integer at = lua_tointeger(L, -1);
            units += (at > from ? span(from, at) : span(at, from)) / SCAN_BYTES;
        } else {
            units += (double)len / SCAN_BYTES;
        }
        break;
    case K_CODESTEP:
        if (n >= 2 && lua_isinteger(L, -2)) {
            units += span(from, lua_tointeger(L, -2)) / SCAN_BYTES;
        } else if ((lua_Integer)len > from) {
            units += span(from, (lua_Integer)len) / SCAN_BYTES;
        }
        break;
    case K_CODES:
        // [iterator s 0]: the iterator's steps are charged as they run.
        if (n == 3 && lua_tocfunction(L, -3) != NULL) {
            lua_pushcfunction(L, lua_tocfunction(L, -3));
            lua_pushinteger(L, K_CODESTEP);
            lua_pushcclosure(L, charged, 2);
            lua_replace(L, -4);
        }
        break;
    default:
        break;
    }
    return units;
}

/// The wrapper: upvalue 1 is the stock function, upvalue 2 its kind.
static int charged(lua_State *L) {
    lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(1));
    int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
    int nargs = lua_gettop(L);
    segue_charge(L, clamp_charge(cost_before(L, kind, nargs)));
    // What the after-cost needs from the arguments, read before the stock function changes the stack.
    size_t len = string_length(L, 1);
    lua_Integer from = 0;
    if (kind == K_UTF8OFFSET) {
        lua_Integer n = integer_arg(L, 2, 0);
        from = position(integer_arg(L, 3, n >= 0 ? 1 : (lua_Integer)len + 1), len);
    } else if (kind == K_CODESTEP) {
        from = integer_arg(L, 2, 0);
        if (from < 0) from = 0;
    }
    segue_sandbox *sb = segue_sandbox_of(L);
    unsigned long long before = sb->allocated;
    int n = stock(L);
    size_t allocated = (size_t)(sb->allocated - before);
    segue_charge(L, clamp_charge(cost_after(L, kind, n, allocated, from, len)));
    return n;
}

// --- string.rep ---

// As the stock rep, but the result is filled by doubling copies rather than one copy per repetition, so its work
// is the bytes it writes (charged after the buffer is allocated, so a result over the memory cap ends with "not
// enough memory" as before). When s and sep are both empty the repetitions are charged instead, one unit per 64:
// the stock function loops through all of them, and `string.rep('', 1 << 50)` ends with the budget error at once.
#define REPS_PER_UNIT 64

static int charged_rep(lua_State *L) {
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (l + lsep == 0) {
        segue_charge(L, (long long)(n / REPS_PER_UNIT));
        lua_pushliteral(L, "");
        return 1;
    }
    if (l + lsep < l || l + lsep > (size_t)INT_MAX / (lua_Unsigned)n) {
        return luaL_error(L, "resulting string too large");
    }
    size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    memcpy(p, s, l);
    size_t filled = l;
    if (n > 1) {
        memcpy(p + l, sep, lsep);
        filled += lsep;  // one period (s .. sep): the result is that period repeated, cut after the last s
    }
    while (filled < total) {
        size_t chunk = filled < total - filled ? filled : total - filled;
        memcpy(p + filled, p, chunk);
        filled += chunk;
    }
    segue_charge(L, (long long)(total / COPY_BYTES) * 2);  // the buffer, and the string made from it
    luaL_pushresultsize(&b, total);
    return 1;
}

// --- table.concat / insert / remove / move / sort, charged per element as they go ---
//
// Charged as the loop runs rather than up front: Lua's own tests start moves of 2^63 elements whose first access
// raises, and expect that error. A loop that does not raise is stopped by the budget after a few million elements.

typedef struct {
    lua_State *L;
    long long pending;
} meter;

static void tick(meter *m, long long units) {
    m->pending += units;
    if (m->pending >= 256) {
        long long n = m->pending;
        m->pending = 0;
        segue_charge(m->L, n);
    }
}

static void settle(meter *m) {
    if (m->pending > 0) {
        long long n = m->pending;
        m->pending = 0;
        segue_charge(m->L, n);
    }
}

#define TAB_R 1
#define TAB_W 2
#define TAB_L 4

static int has_field(lua_State *L, const char *key, int n) {
    lua_pushstring(L, key);
    return lua_rawget(L, -n) != LUA_TNIL;
}

// As ltablib's checktab: a table, or anything whose metatable provides what the function needs.
static void check_table(lua_State *L, int arg, int what) {
    if (lua_type(L, arg) == LUA_TTABLE) return;
    int n = 1;
    if (lua_getmetatable(L, arg) && (!(what & TAB_R) || has_field(L, "__index", ++n)) &&
        (!(what & TAB_W) || has_field(L, "__newindex", ++n)) && (!(what & TAB_L) || has_field(L, "__len", ++n))) {
        lua_pop(L, n);
    } else {
        luaL_checktype(L, arg, LUA_TTABLE);
    }
}

static lua_Integer table_length(lua_State *L, int arg, int what) {
    check_table(L, arg, what | TAB_L);
    return luaL_len(L, arg);
}

static void add_field(lua_State *L, luaL_Buffer *b, lua_Integer i) {
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
    }
    luaL_addvalue(b);
}

static int charged_concat(lua_State *L) {
    luaL_Buffer b;
    lua_Integer last = table_length(L, 1, TAB_R);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    meter m = {L, 0};
    long long each = 4 + (long long)(lsep / COPY_BYTES);  // a read (maybe through __index), a check, a copy
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        tick(&m, each);
        add_field(L, &b, i);
        luaL_addlstring(&b, sep, lsep);
    }
    if (i == last) add_field(L, &b, i);
    luaL_pushresult(&b);
    settle(&m);
    segue_charge(L, (long long)(lua_rawlen(L, -1) / COPY_BYTES));
    return 1;
}

static int charged_insert(lua_State *L) {
    lua_Integer pos;
    lua_Integer e = table_length(L, 1, TAB_R | TAB_W);
    e = (lua_Integer)((lua_Unsigned)e + 1u);  // first empty element
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3: {
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        meter m = {L, 0};
        for (lua_Integer i = e; i > pos; i--) {
            tick(&m, 2);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        settle(&m);
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int charged_remove(lua_State *L) {
    lua_Integer size = table_length(L, 1, TAB_R | TAB_W);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) {
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    }
    meter m = {L, 0};
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        tick(&m, 2);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    settle(&m);
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

// As the stock move (its checks, its order of accesses), 2 units per element.
static int charged_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    check_table(L, 1, TAB_R);
    check_table(L, tt, TAB_W);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        meter m = {L, 0};
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i < n; i++) {
                tick(&m, 2);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        } else {
            for (lua_Integer i = n - 1; i >= 0; i--) {
                tick(&m, 2);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        }
        settle(&m);
    }
    lua_pushvalue(L, tt);
    return 1;
}

// table.sort: Lua 5.4's quicksort (median of three, the smaller side recursed), with every comparison charged —
// by the bytes compared when both values are strings, since comparing two long equal strings reads them whole.
// The stock sort cannot be charged this way from outside: it compares inside one C call. Where the stock sort picks
// a random pivot after a bad partition, this one picks a pseudo-random one from the interval, so a run is
// reproducible; an adversarial order then costs comparisons, which the budget stops.
typedef unsigned int sort_index;

static int sort_less(lua_State *L, int a, int b) {
    long long units = 1;
    if (lua_type(L, a) == LUA_TSTRING && lua_type(L, b) == LUA_TSTRING) {
        size_t la = lua_rawlen(L, a), lb = lua_rawlen(L, b);
        units += (long long)((la < lb ? la : lb) / COPY_BYTES);
    }
    segue_charge(L, units);
    if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a - 1);  // -1 to compensate the function
    lua_pushvalue(L, b - 2);  // -2 to compensate the function and 'a'
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

static void set_two(lua_State *L, sort_index i, sort_index j) {
    lua_seti(L, 1, i);
    lua_seti(L, 1, j);
}

static sort_index partition(lua_State *L, sort_index lo, sort_index up) {
    sort_index i = lo;
    sort_index j = up - 1;
    for (;;) {
        while (lua_geti(L, 1, ++i), sort_less(L, -1, -2)) {
            if (i == up - 1) luaL_error(L, "invalid order function for sorting");
            lua_pop(L, 1);
        }
        while (lua_geti(L, 1, --j), sort_less(L, -3, -1)) {
            if (j < i) luaL_error(L, "invalid order function for sorting");
            lua_pop(L, 1);
        }
        if (j < i) {
            lua_pop(L, 1);
            set_two(L, up - 1, i);
            return i;
        }
        set_two(L, i, j);
    }
}

static sort_index choose_pivot(sort_index lo, sort_index up, unsigned int rnd) {
    sort_index r4 = (up - lo) / 4;
    return rnd % (r4 * 2) + (lo + r4);
}

static void sort_range(lua_State *L, sort_index lo, sort_index up, unsigned int rnd) {
    while (lo < up) {
        sort_index p, n;
        lua_geti(L, 1, lo);
        lua_geti(L, 1, up);
        if (sort_less(L, -1, -2)) set_two(L, lo, up);
        else lua_pop(L, 2);
        if (up - lo == 1) break;
        p = (up - lo < 100u || rnd == 0) ? (lo + up) / 2 : choose_pivot(lo, up, rnd);
        lua_geti(L, 1, p);
        lua_geti(L, 1, lo);
        if (sort_less(L, -2, -1)) {
            set_two(L, p, lo);
        } else {
            lua_pop(L, 1);
            lua_geti(L, 1, up);
            if (sort_less(L, -1, -2)) set_two(L, p, up);
            else lua_pop(L, 2);
        }
        if (up - lo == 2) break;
        lua_geti(L, 1, p);
        lua_pushvalue(L, -1);
        lua_geti(L, 1, up - 1);
        set_two(L, p, up - 1);
        p = partition(L, lo, up);
        if (p - lo < up - p) {
            sort_range(L, lo, p - 1, rnd);
            n = p - lo;
            lo = p + 1;
        } else {
            sort_range(L, p + 1, up, rnd);
            n = up - p;
            up = p - 1;
        }
        if ((up - lo) / 128 > n) rnd = (rnd ^ (lo * 2654435761u) ^ up) | 1u;
    }
}

static int charged_sort(lua_State *L) {
    lua_Integer n = table_length(L, 1, TAB_R | TAB_W);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        sort_range(L, 1, (sort_index)n, 0);
    }
    return 0;
}

// --- registration ---

typedef struct {
    const char *name;
    int kind;
} charged_fn;

static void wrap(lua_State *L, int lib, const charged_fn *fns) {
    for (; fns->name; fns++) {
        lua_getfield(L, lib, fns->name);
        lua_CFunction stock = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (stock == NULL) continue;
        lua_pushcfunction(L, stock);
        lua_pushinteger(L, fns->kind);
        lua_pushcclosure(L, charged, 2);
        lua_setfield(L, lib, fns->name);
    }
}

void segue_open_charged(lua_State *L, int env) {
    static const charged_fn string_fns[] = {
        {"byte", K_VALUES}, {"char", K_VALUES}, {"find", K_VALUES}, {"match", K_VALUES}, {"gmatch", K_VALUES},
        {"gsub", K_VALUES}, {"format", K_FORMAT}, {"lower", K_SCAN1}, {"upper", K_SCAN1}, {"reverse", K_SCAN1},
        {"sub", K_VALUES}, {"pack", K_PACK}, {"packsize", K_PACKSIZE}, {"unpack", K_UNPACK},
        {NULL, 0}};
    static const charged_fn table_fns[] = {{"unpack", K_VALUES}, {"pack", K_VALUES}, {NULL, 0}};
    static const charged_fn math_fns[] = {{"max", K_VALUES}, {"min", K_VALUES}, {NULL, 0}};
    static const charged_fn utf8_fns[] = {
        {"char", K_VALUES}, {"codepoint", K_VALUES}, {"len", K_UTF8LEN}, {"offset", K_UTF8OFFSET}, {"codes", K_CODES},
        {NULL, 0}};
    static const charged_fn base_fns[] = {{"select", K_VALUES}, {"tonumber", K_SCAN1}, {NULL, 0}};
    env = lua_absindex(L, env);
    wrap(L, env, base_fns);
    static const char *const libs[] = {"string", "table", "math", "utf8"};
    const charged_fn *const lists[] = {string_fns, table_fns, math_fns, utf8_fns};
    for (int k = 0; k < 4; k++) {
        lua_getfield(L, env, libs[k]);
        int lib = lua_gettop(L);
        wrap(L, lib, lists[k]);
        if (k == 0) {
            lua_pushcfunction(L, charged_rep);
            lua_setfield(L, lib, "rep");
        }
        if (k == 1) {
            static const luaL_Reg replaced[] = {
                {"concat", charged_concat}, {"insert", charged_insert}, {"remove", charged_remove},
                {"move", charged_move}, {"sort", charged_sort}, {NULL, NULL}};
            luaL_setfuncs(L, replaced, 0);
        }
        lua_pop(L, 1);
    }
}
