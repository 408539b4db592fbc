// The wall-clock backstop for plugin calls (lua.call_timeout_ms).
//
// The instruction budget is the deterministic limit; this is the backstop for time spent where instructions are
// not counted the same way (a slow machine, a long host call). One watchdog thread looks at every state with a
// timeout a few times per timeout period. When a top-level call has run too long it records the call's sequence
// number as interrupted and sends SIGURG to the thread running it. The signal handler only calls lua_sethook (made
// to be called from a signal handler: lua.c's SIGINT handling does the same) so the next instruction runs the
// budget hook, which raises "call timed out" and keeps raising at every instruction, so pcall cannot swallow it.
// Coroutines have their own hook (inherited from their creator, firing every SEGUE_HOOK_STEP instructions), which
// sees the interrupted sequence number at its next count; the bounded string functions check it as they charge.
// Nothing in the handler touches the state's memory, and a late signal for a call that already ended is ignored
// because the next call has a new sequence number.
//
// Cost per state and per call is O(1), whatever the number of states (issue 24: at 5 000 scenes the former
// registry of every state, walked under one lock when a state was made and on every tick, was over half the
// daemon's samples). The watcher looks only at calls that are running: each thread that makes timed calls has a
// record (registered once, on its first timed call, and unlinked when the thread exits) whose `top` is the
// innermost state running a call on it, and each running state links to the one whose call it interrupted
// (`outer`). A tick walks the thread records (one per engine thread, a handful) and their chains of running calls.
// Setting a state's timeout only counts timeouts by value (the tick follows the smallest), and closing a state
// takes the lock once so no tick can be looking at it.
#include "CLuaShim.h"
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#define SEGUE_WATCH_SIGNAL SIGURG

// One per thread that has made a timed call. `top` and `calls` are written by that thread only (atomic stores)
// and read by the watcher; the list is changed under the lock.
typedef struct segue_thread_calls {
    segue_sandbox *top;      // the innermost state running a timed call on this thread (NULL: none)
    long long calls;         // timed calls begun on this thread
    unsigned long thread;    // its pthread_t
    struct segue_thread_calls *prev, *next;
} segue_thread_calls;

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_cond = PTHREAD_COND_INITIALIZER;
static segue_thread_calls *threads = NULL;  // under watch_lock
static int watcher_started = 0;             // under watch_lock
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

// How many states have each timeout, for the smallest one (the tick's base): a few distinct values in practice
// (the config's, tests' own), so keeping them is O(1) per state. Past the table's size a value is folded into the
// smallest slot's count only for the minimum (rare: a tick then follows the smallest timeout ever set).
#define TIMEOUT_SLOTS 16
static struct { int ms; long long states; } timeout_slots[TIMEOUT_SLOTS];  // under watch_lock
static int overflow_min_ms = 0;  // under watch_lock: the smallest timeout that did not fit the table
static long long timed_states = 0;  // under watch_lock

// The state whose top-level call this thread is running (read by the signal handler on the same thread), and the
// thread's record.
static __thread segue_sandbox *running_sandbox = NULL;
static __thread segue_thread_calls *thread_calls = NULL;

static long long monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int segue_interrupted(segue_sandbox *sb) {
    long long seq = __atomic_load_n(&sb->call_seq, __ATOMIC_RELAXED);
    return seq != 0 && __atomic_load_n(&sb->interrupt_seq, __ATOMIC_ACQUIRE) == seq;
}

static void on_signal(int sig) {
    (void)sig;
    segue_sandbox *sb = running_sandbox;
    if (sb == NULL || sb->main == NULL) return;
    if (!__atomic_load_n(&sb->active, __ATOMIC_ACQUIRE) || !segue_interrupted(sb)) return;
    lua_sethook(sb->main, segue_budget_hook, LUA_MASKCOUNT, 1);
}

// The smallest timeout of any state (0: none). Under watch_lock; O(TIMEOUT_SLOTS).
static int min_timeout_locked(void) {
    int m = overflow_min_ms;
    for (int i = 0; i < TIMEOUT_SLOTS; i++) {
        if (timeout_slots[i].states > 0 && (m == 0 || timeout_slots[i].ms < m)) m = timeout_slots[i].ms;
    }
    return m;
}

static void count_timeout_locked(int ms, int delta) {
    if (ms <= 0) return;
    timed_states += delta;
    int empty = -1;
    for (int i = 0; i < TIMEOUT_SLOTS; i++) {
        if (timeout_slots[i].states > 0 && timeout_slots[i].ms == ms) {
            timeout_slots[i].states += delta;
            return;
        }
        if (timeout_slots[i].states == 0 && empty < 0) empty = i;
    }
    if (delta > 0 && empty >= 0) {
        timeout_slots[empty].ms = ms;
        timeout_slots[empty].states = delta;
    } else if (delta > 0 && (overflow_min_ms == 0 || ms < overflow_min_ms)) {
        overflow_min_ms = ms;
    }
}

// Checks one running call: times it from the first tick that sees it, and stops it past its timeout.
static void check_call_locked(segue_sandbox *sb, long long now) {
    if (!__atomic_load_n(&sb->active, __ATOMIC_ACQUIRE)) return;
    int timeout_ms = __atomic_load_n(&sb->timeout_ms, __ATOMIC_RELAXED);
    if (timeout_ms <= 0) return;
    long long seq = __atomic_load_n(&sb->call_seq, __ATOMIC_ACQUIRE);
    // The engine thread reads no clock per call: a call is timed from the first tick that sees it running (at
    // most one tick after it started), so it is stopped between 1× its timeout and that plus two ticks.
    if (seq != sb->seen_seq) {
        sb->seen_seq = seq;
        sb->seen_ns = now;
        return;
    }
    if (now - sb->seen_ns < (long long)timeout_ms * 1000000LL) return;
    if (__atomic_load_n(&sb->interrupt_seq, __ATOMIC_ACQUIRE) == seq) return;
    __atomic_store_n(&sb->interrupt_seq, seq, __ATOMIC_RELEASE);
    __atomic_add_fetch(&sb->timeouts, 1, __ATOMIC_RELAXED);
    // The thread is inside the call (active), and it cannot finish exiting while the lock is held (its record's
    // destructor takes it), so it is alive.
    pthread_kill((pthread_t)sb->thread, SEGUE_WATCH_SIGNAL);
}

static void *watch_loop(void *arg) {
    (void)arg;
    long long last_calls = -1;
    int quiet_scans = 0;
    pthread_mutex_lock(&watch_lock);
    for (;;) {
        while (timed_states == 0 && threads == NULL) pthread_cond_wait(&watch_cond, &watch_lock);
        long long now = monotonic_ns();
        long long calls = 0;
        int any_active = 0;
        // Only the calls running now: per thread, the chain from its innermost call outwards. A state on a chain
        // is inside a call, so it is open (closing a state takes this lock, and a state is never closed during its
        // own call); a chain read while its thread moves on is at worst one tick stale.
        for (segue_thread_calls *t = threads; t; t = t->next) {
            calls += __atomic_load_n(&t->calls, __ATOMIC_RELAXED);
            int depth = 0;
            for (segue_sandbox *sb = __atomic_load_n(&t->top, __ATOMIC_ACQUIRE); sb && depth < 64; depth++) {
                any_active = 1;
                check_call_locked(sb, now);
                sb = __atomic_load_n(&sb->outer, __ATOMIC_ACQUIRE);
            }
        }
        // Look again a few times per period: a call is stopped between 1× and 1.25× its timeout (a tick of an
        // eighth, two ticks at most past it). After a quarter of a second with no call at all, look only every
        // 250 ms (an idle daemon should not wake 40 times a second); the first call after such a pause is then
        // stopped within its timeout + 250 ms + a tick.
        quiet_scans = (!any_active && calls == last_calls) ? quiet_scans + 1 : 0;
        last_calls = calls;
        long long tick_ms = min_timeout_locked() / 8;
        if (tick_ms < 2) tick_ms = 2;
        if (tick_ms > 50) tick_ms = 50;
        if (quiet_scans * tick_ms >= 250) tick_ms = 250;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = until.tv_nsec + tick_ms * 1000000LL;
        until.tv_sec += ns / 1000000000LL;
        until.tv_nsec = ns % 1000000000LL;
        pthread_cond_timedwait(&watch_cond, &watch_lock, &until);
    }
    return NULL;
}

static void start_watcher_locked(void) {
    if (watcher_started) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SEGUE_WATCH_SIGNAL, &sa, NULL);
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    // The watcher must never receive the signal itself.
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SEGUE_WATCH_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    if (pthread_create(&thread, &attr, watch_loop, NULL) == 0) watcher_started = 1;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
}

// A thread that made timed calls exits: unlink its record (under the lock, so no tick is reading it).
static void thread_calls_destroy(void *p) {
    segue_thread_calls *t = p;
    pthread_mutex_lock(&watch_lock);
    if (t->prev) t->prev->next = t->next; else threads = t->next;
    if (t->next) t->next->prev = t->prev;
    pthread_mutex_unlock(&watch_lock);
    free(t);
}

static void make_thread_key(void) { pthread_key_create(&thread_key, thread_calls_destroy); }

// This thread's record, registered on its first timed call (NULL if it could not be made: the call is then not
// watched, as a state without a timeout is not).
static segue_thread_calls *this_thread_calls(void) {
    if (thread_calls) return thread_calls;
    pthread_once(&thread_key_once, make_thread_key);
    segue_thread_calls *t = calloc(1, sizeof *t);
    if (t == NULL) return NULL;
    t->thread = (unsigned long)pthread_self();
    pthread_mutex_lock(&watch_lock);
    t->next = threads;
    if (threads) threads->prev = t;
    threads = t;
    start_watcher_locked();
    pthread_cond_signal(&watch_cond);
    pthread_mutex_unlock(&watch_lock);
    pthread_setspecific(thread_key, t);
    thread_calls = t;
    return t;
}

void segue_set_call_timeout(lua_State *L, int timeout_ms) {
    segue_sandbox *sb = segue_sandbox_of(L);
    if (timeout_ms < 0) timeout_ms = 0;
    pthread_mutex_lock(&watch_lock);
    count_timeout_locked(sb->timeout_ms, -1);
    count_timeout_locked(timeout_ms, 1);
    __atomic_store_n(&sb->timeout_ms, timeout_ms, __ATOMIC_RELAXED);
    if (timeout_ms > 0) start_watcher_locked();
    pthread_cond_signal(&watch_cond);
    pthread_mutex_unlock(&watch_lock);
}

void segue_watch_unregister(segue_sandbox *sb) {
    // Closing the state: once the lock is taken, no tick is looking at it.
    if (sb->timeout_ms > 0) segue_set_call_timeout(sb->main, 0);
}

void segue_watch_begin(segue_sandbox *sb, lua_State *L) {
    (void)L;
    __atomic_add_fetch(&sb->call_seq, 1, __ATOMIC_RELEASE);
    if (sb->timeout_ms <= 0) return;
    segue_thread_calls *t = this_thread_calls();
    if (t == NULL) return;
    sb->thread = t->thread;
    // A call into another plugin's state from inside a host function nests: the chain runs innermost first.
    __atomic_store_n(&sb->outer, running_sandbox, __ATOMIC_RELEASE);
    running_sandbox = sb;
    __atomic_store_n(&sb->active, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&t->top, sb, __ATOMIC_RELEASE);
    __atomic_store_n(&t->calls, t->calls + 1, __ATOMIC_RELAXED);
}

void segue_watch_end(segue_sandbox *sb) {
    // Only a call that begin watched (its timeout may have changed since: a reload sets it between calls).
    if (!__atomic_load_n(&sb->active, __ATOMIC_RELAXED)) return;
    __atomic_store_n(&sb->active, 0, __ATOMIC_RELEASE);
    running_sandbox = sb->outer;
    if (thread_calls) __atomic_store_n(&thread_calls->top, sb->outer, __ATOMIC_RELEASE);
    __atomic_store_n(&sb->outer, NULL, __ATOMIC_RELEASE);
}
