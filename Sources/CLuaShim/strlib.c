// Bounded string.find / match / gmatch / gsub for plugin states.
//
// Lua's own pattern matcher backtracks without limit inside one C call, where no hook runs:
// string.find(('a'):rep(400), '.-.-.-b') takes seconds. These replacements implement the same pattern language
// (Lua 5.4 manual §6.4.1: classes, sets, quantifiers * + - ?, anchors, captures and position captures,
// back-references %1-%9, %b and %f) with a backtracking matcher that charges every step to the call's instruction
// budget (segue_charge), so a pathological pattern ends with "instruction budget exceeded" — or "call timed out"
// when the wall-clock watchdog fires first — like any other runaway code, and pcall cannot swallow it.
// (table.sort is charged per comparison in charged.c.)
#define _GNU_SOURCE
#include "CLuaShim.h"
#include <ctype.h>
#include <string.h>

#define MAX_CAPTURES 32
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define MAX_DEPTH 200
#define CHARGE_EVERY 256

typedef struct {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int level, depth;
    long long pending;  // steps not yet charged
    struct { const char *init; ptrdiff_t len; } capture[MAX_CAPTURES];
} matcher;

static void step(matcher *m) {
    if (++m->pending >= CHARGE_EVERY) {
        long long n = m->pending;
        m->pending = 0;
        segue_charge(m->L, n);
    }
}

static const char *item_end(matcher *m, const char *p) {
    char c = *p++;
    if (c == '%') {
        if (p >= m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (p < m->p_end && *p == '^') p++;
        // The first character of a set is part of it even when it is ']' ("[]]" matches "]").
        do {
            if (p >= m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == '%' && p < m->p_end) p++;
        } while (p >= m->p_end || *p != ']');
        return p + 1;
    }
    return p;
}

static int class_matches(int c, int cl) {
    int r;
    switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = (c == 0); break;  // deprecated in the manual, still accepted by Lua 5.4
    default: return cl == c;
    }
    if (isupper(cl)) r = !r;
    return r != 0;
}

// p points at '[', close at the set's closing ']'.
static int set_matches(int c, const char *p, const char *close) {
    int match = 1;
    p++;
    if (*p == '^') { match = 0; p++; }
    while (p < close) {
        if (*p == '%' && p + 1 < close + 1) {
            p++;
            if (class_matches(c, (unsigned char)*p)) return match;
            p++;
        } else if (p + 2 < close && p[1] == '-') {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return match;
            p += 3;
        } else {
            if ((unsigned char)*p == c) return match;
            p++;
        }
    }
    return !match;
}

static int single(matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->src_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return class_matches(c, (unsigned char)p[1]);
    case '[': return set_matches(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

static const char *do_match(matcher *m, const char *s, const char *p);

static const char *greedy(matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t n = 0;
    while (single(m, s + n, p, ep)) { n++; step(m); }
    for (; n >= 0; n--) {
        const char *r = do_match(m, s + n, ep + 1);
        if (r) return r;
        step(m);
    }
    return NULL;
}

static const char *lazy(matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *r = do_match(m, s, ep + 1);
        if (r) return r;
        if (!single(m, s, p, ep)) return NULL;
        s++;
        step(m);
    }
}

static const char *open_capture(matcher *m, const char *s, const char *p, ptrdiff_t what) {
    if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->capture[m->level].init = s;
    m->capture[m->level].len = what;
    m->level++;
    const char *r = do_match(m, s, p);
    if (!r) m->level--;
    return r;
}

static const char *close_capture(matcher *m, const char *s, const char *p) {
    int l = -1;
    for (int i = m->level - 1; i >= 0; i--) {
        if (m->capture[i].len == CAP_UNFINISHED) { l = i; break; }
    }
    if (l < 0) luaL_error(m->L, "invalid pattern capture");
    m->capture[l].len = s - m->capture[l].init;
    const char *r = do_match(m, s, p);
    if (!r) m->capture[l].len = CAP_UNFINISHED;
    return r;
}

static int capture_index(matcher *m, int c) {
    int l = c - '1';
    if (l < 0 || l >= m->level || m->capture[l].len == CAP_UNFINISHED) {
        return luaL_error(m->L, "invalid capture index %%%d", l + 1);
    }
    return l;
}

static const char *back_reference(matcher *m, const char *s, int c) {
    int l = capture_index(m, c);
    ptrdiff_t len = m->capture[l].len;
    if (len < 0) return NULL;  // a position capture never matches text
    if (m->src_end - s >= len && memcmp(m->capture[l].init, s, (size_t)len) == 0) {
        for (ptrdiff_t i = 0; i < len; i += 64) step(m);
        return s + len;
    }
    return NULL;
}

static const char *balance(matcher *m, const char *s, const char *p) {
    if (p + 1 >= m->p_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->src_end || *s != *p) return NULL;
    char open = p[0], close = p[1];
    int depth = 1;
    while (++s < m->src_end) {
        step(m);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

static const char *do_match(matcher *m, const char *s, const char *p) {
    if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
    for (;;) {
        step(m);
        if (p >= m->p_end) break;
        switch (*p) {
        case '(':
            if (p + 1 < m->p_end && p[1] == ')') s = open_capture(m, s, p + 2, CAP_POSITION);
            else s = open_capture(m, s, p + 1, CAP_UNFINISHED);
            goto done;
        case ')':
            s = close_capture(m, s, p + 1);
            goto done;
        case '$':
            if (p + 1 == m->p_end) {
                if (s != m->src_end) s = NULL;
                goto done;
            }
            break;
        case '%':
            if (p + 1 < m->p_end && p[1] == 'b') {
                s = balance(m, s, p + 2);
                if (s) { p += 4; continue; }
                goto done;
            }
            if (p + 1 < m->p_end && p[1] == 'f') {
                p += 2;
                if (p >= m->p_end || *p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *ep = item_end(m, p);
                int before = s == m->src_init ? 0 : (unsigned char)s[-1];
                int here = s < m->src_end ? (unsigned char)*s : 0;
                if (!set_matches(before, p, ep - 1) && set_matches(here, p, ep - 1)) { p = ep; continue; }
                s = NULL;
                goto done;
            }
            if (p + 1 < m->p_end && isdigit((unsigned char)p[1])) {
                s = back_reference(m, s, (unsigned char)p[1]);
                if (s) { p += 2; continue; }
                goto done;
            }
            break;
        default:
            break;
        }
        // A single-character item, maybe quantified.
        const char *ep = item_end(m, p);
        char q = ep < m->p_end ? *ep : '\0';
        if (!single(m, s, p, ep)) {
            if (q == '*' || q == '?' || q == '-') { p = ep + 1; continue; }
            s = NULL;
            goto done;
        }
        switch (q) {
        case '?': {
            const char *r = do_match(m, s + 1, ep + 1);
            if (r) { s = r; goto done; }
            p = ep + 1;
            continue;
        }
        case '+': s = greedy(m, s + 1, p, ep); goto done;
        case '*': s = greedy(m, s, p, ep); goto done;
        case '-': s = lazy(m, s, p, ep); goto done;
        default: s++; p = ep; continue;
        }
    }
done:
    m->depth++;
    return s;
}

static void push_capture(matcher *m, int i, const char *s, const char *e) {
    if (i >= m->level) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(m->L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t len = m->capture[i].len;
    if (len == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
    if (len == CAP_POSITION) lua_pushinteger(m->L, (m->capture[i].init - m->src_init) + 1);
    else lua_pushlstring(m->L, m->capture[i].init, (size_t)len);
}

static int push_captures(matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(m, i, s, e);
    return n;
}

static void prepare(matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    m->L = L;
    m->src_init = s;
    m->src_end = s + ls;
    m->p_end = p + lp;
    m->level = 0;
    m->depth = MAX_DEPTH;
    m->pending = 0;
}

static void reset(matcher *m) {
    m->level = 0;
    m->depth = MAX_DEPTH;
}

static void flush(matcher *m) {
    if (m->pending) {
        long long n = m->pending;
        m->pending = 0;
        segue_charge(m->L, n);
    }
}

// A start position as string.find takes it: negative counts from the end; result 1-based, at least 1.
static size_t start_index(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static int has_specials(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++) {
        if (strchr("^$*+?.([%-", p[i])) return 1;
    }
    return 0;
}

static const char *plain_find(lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    segue_charge(L, (long long)(ls / 64) + 1);
    return memmem(s, ls, p, lp);
}

static int find_or_match(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        lua_pushnil(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *found = plain_find(L, s + init, ls - init, p, lp);
        if (found) {
            lua_pushinteger(L, (found - s) + 1);
            lua_pushinteger(L, (lua_Integer)((found - s) + lp));
            return 2;
        }
    } else {
        matcher m;
        int anchor = lp > 0 && *p == '^';
        if (anchor) { p++; lp--; }
        prepare(&m, L, s, ls, p, lp);
        const char *s1 = s + init;
        do {
            reset(&m);
            const char *e = do_match(&m, s1, p);
            if (e) {
                flush(&m);
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, e - s);
                    return push_captures(&m, NULL, 0) + 2;
                }
                return push_captures(&m, s1, e);
            }
        } while (s1++ < m.src_end && !anchor);
        flush(&m);
    }
    lua_pushnil(L);
    return 1;
}

static int bounded_find(lua_State *L) { return find_or_match(L, 1); }
static int bounded_match(lua_State *L) { return find_or_match(L, 0); }

typedef struct {
    size_t position;  // where the next search starts
    size_t last_end;  // end of the last match, or (size_t)-1
} gmatch_state;

static int gmatch_next(lua_State *L) {
    size_t ls, lp;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    gmatch_state *g = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
    matcher m;
    prepare(&m, L, s, ls, p, lp);
    for (size_t at = g->position; at <= ls; at++) {
        reset(&m);
        const char *e = do_match(&m, s + at, p);
        if (e && (size_t)(e - s) != g->last_end) {
            g->position = g->last_end = (size_t)(e - s);
            flush(&m);
            return push_captures(&m, s + at, e);
        }
    }
    flush(&m);
    g->position = ls + 1;
    return 0;
}

static int bounded_gmatch(lua_State *L) {
    size_t ls;
    luaL_checklstring(L, 1, &ls);
    luaL_checkstring(L, 2);
    size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2);
    gmatch_state *g = (gmatch_state *)lua_newuserdatauv(L, sizeof(gmatch_state), 0);
    g->position = init > ls ? ls + 1 : init;
    g->last_end = (size_t)-1;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

static void add_replacement_string(matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t l;
    lua_State *L = m->L;
    const char *r = lua_tolstring(L, 3, &l);
    const char *end = r + l;
    for (const char *c = r; c < end; c++) {
        if (*c != '%') {
            luaL_addchar(b, *c);
            continue;
        }
        c++;
        if (c >= end) luaL_error(L, "invalid use of '%%' in replacement string");
        if (*c == '%') {
            luaL_addchar(b, '%');
        } else if (*c == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*c)) {
            push_capture(m, *c - '1', s, e);
            luaL_tolstring(L, -1, NULL);
            lua_remove(L, -2);
            luaL_addvalue(b);
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
    }
}

static void add_replacement(matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_replacement_string(m, b, s, e);
        return;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
    } else if (!lua_isstring(L, -1)) {
        luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    } else {
        luaL_addvalue(b);
    }
}

static int bounded_gsub(lua_State *L) {
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *last = NULL;
    int kind = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE,
                     3, "string/function/table");
    int anchor = lp > 0 && *p == '^';
    if (anchor) { p++; lp--; }
    matcher m;
    prepare(&m, L, src, ls, p, lp);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_Integer n = 0;
    int changed = 0;
    while (n < max) {
        reset(&m);
        const char *e = do_match(&m, src, p);
        if (e && e != last) {
            n++;
            add_replacement(&m, &b, src, e, kind);
            src = last = e;
            changed = 1;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    flush(&m);
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(m.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void segue_open_bounded(lua_State *L, int string_table) {
    static const luaL_Reg fns[] = {
        {"find", bounded_find}, {"match", bounded_match}, {"gmatch", bounded_gmatch}, {"gsub", bounded_gsub},
        {NULL, NULL}};
    for (const luaL_Reg *f = fns; f->name; f++) {
        lua_pushcfunction(L, f->func);
        lua_setfield(L, string_table, f->name);
    }
}
