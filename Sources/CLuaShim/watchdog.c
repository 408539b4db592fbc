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
#include "CLuaShim.h"
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <errno.h>
#include <string.h>

#define SEGUE_WATCH_SIGNAL SIGURG

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t registry_cond = PTHREAD_COND_INITIALIZER;
static segue_sandbox *registry = NULL;
static int watcher_started = 0;
static int min_timeout_ms = 0;

// The state whose top-level call this thread is running (read by the signal handler on the same thread).
static __thread segue_sandbox *running_sandbox = NULL;

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

static void recompute_min_timeout(void) {
    int m = 0;
    for (segue_sandbox *sb = registry; sb; sb = sb->next) {
        if (sb->timeout_ms > 0 && (m == 0 || sb->timeout_ms < m)) m = sb->timeout_ms;
    }
    min_timeout_ms = m;
}

static void *watch_loop(void *arg) {
    (void)arg;
    long long last_calls = -1;
    int quiet_scans = 0;
    pthread_mutex_lock(&registry_lock);
    for (;;) {
        while (registry == NULL) pthread_cond_wait(&registry_cond, &registry_lock);
        long long now = monotonic_ns();
        long long calls = 0;
        int any_active = 0;
        for (segue_sandbox *sb = registry; sb; sb = sb->next) {
            calls += __atomic_load_n(&sb->call_seq, __ATOMIC_RELAXED);
            if (!__atomic_load_n(&sb->active, __ATOMIC_ACQUIRE)) continue;
            any_active = 1;
            long long seq = __atomic_load_n(&sb->call_seq, __ATOMIC_ACQUIRE);
            // The engine thread reads no clock per call: a call is timed from the first scan that sees it running
            // (at most one tick after it started), so it is stopped between 1× its timeout and that plus two ticks.
            if (seq != sb->seen_seq) {
                sb->seen_seq = seq;
                sb->seen_ns = now;
                continue;
            }
            if (now - sb->seen_ns < (long long)sb->timeout_ms * 1000000LL) continue;
            if (__atomic_load_n(&sb->interrupt_seq, __ATOMIC_ACQUIRE) == seq) continue;
            __atomic_store_n(&sb->interrupt_seq, seq, __ATOMIC_RELEASE);
            __atomic_add_fetch(&sb->timeouts, 1, __ATOMIC_RELAXED);
            // The thread is inside the call (active), so it is alive; the registry lock keeps the state open.
            pthread_kill((pthread_t)sb->thread, SEGUE_WATCH_SIGNAL);
        }
        // Look again a few times per period: a call is stopped between 1× and 1.25× its timeout (a tick of an
        // eighth, two ticks at most past it). After a quarter of a second with no call at all, look only every
        // 250 ms (an idle daemon should not wake 40 times a second); the first call after such a pause is then
        // stopped within its timeout + 250 ms + a tick.
        quiet_scans = (!any_active && calls == last_calls) ? quiet_scans + 1 : 0;
        last_calls = calls;
        long long tick_ms = min_timeout_ms / 8;
        if (tick_ms < 2) tick_ms = 2;
        if (tick_ms > 50) tick_ms = 50;
        if (quiet_scans * tick_ms >= 250) tick_ms = 250;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = until.tv_nsec + tick_ms * 1000000LL;
        until.tv_sec += ns / 1000000000LL;
        until.tv_nsec = ns % 1000000000LL;
        pthread_cond_timedwait(&registry_cond, &registry_lock, &until);
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

void segue_set_call_timeout(lua_State *L, int timeout_ms) {
    segue_sandbox *sb = segue_sandbox_of(L);
    pthread_mutex_lock(&registry_lock);
    int registered = sb->prev != NULL || registry == sb;
    if (timeout_ms > 0 && !registered) {
        sb->next = registry;
        if (registry) registry->prev = sb;
        registry = sb;
        sb->prev = NULL;
    } else if (timeout_ms <= 0 && registered) {
        if (sb->prev) sb->prev->next = sb->next; else registry = sb->next;
        if (sb->next) sb->next->prev = sb->prev;
        sb->prev = sb->next = NULL;
    }
    sb->timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
    recompute_min_timeout();
    if (registry) start_watcher_locked();
    pthread_cond_signal(&registry_cond);
    pthread_mutex_unlock(&registry_lock);
}

void segue_watch_unregister(segue_sandbox *sb) {
    if (sb->timeout_ms > 0) segue_set_call_timeout(sb->main, 0);
}

void segue_watch_begin(segue_sandbox *sb, lua_State *L) {
    (void)L;
    __atomic_add_fetch(&sb->call_seq, 1, __ATOMIC_RELEASE);
    if (sb->timeout_ms <= 0) return;
    sb->thread = (unsigned long)pthread_self();
    sb->outer = running_sandbox;  // a call into another plugin's state from inside a host function nests
    running_sandbox = sb;
    __atomic_store_n(&sb->active, 1, __ATOMIC_RELEASE);
}

void segue_watch_end(segue_sandbox *sb) {
    if (sb->timeout_ms <= 0) return;
    __atomic_store_n(&sb->active, 0, __ATOMIC_RELEASE);
    running_sandbox = sb->outer;
    sb->outer = NULL;
}
