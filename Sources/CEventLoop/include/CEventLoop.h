// The few Linux calls the daemon's event loop needs that Swift's Glibc module does not import (epoll, eventfd,
// timerfd, accept4, SO_PEERCRED), wrapped so Swift sees plain, unpacked types.
#ifndef SEGUE_CEVENTLOOP_H
#define SEGUE_CEVENTLOOP_H

#include <stdint.h>

/// epoll readiness bits, as in <sys/epoll.h>.
enum {
    SEG_EV_IN = 0x001,
    SEG_EV_OUT = 0x004,
    SEG_EV_ERR = 0x008,
    SEG_EV_HUP = 0x010,
};

/// One ready descriptor: its readiness bits and the token it was registered with.
typedef struct {
    uint32_t events;
    uint64_t token;
} seg_event;

/// An epoll instance (close-on-exec); -1 and errno on failure.
int seg_epoll_create(void);
/// Adds (`add` = 1) or changes (`add` = 0) a descriptor's interest, level-triggered.
int seg_epoll_set(int ep, int fd, uint32_t events, uint64_t token, int add);
/// Removes a descriptor from the set.
int seg_epoll_remove(int ep, int fd);
/// Waits for at most `max` events; `timeout_ms` -1 blocks. Returns the count, 0 on timeout or EINTR, -1 on error.
int seg_epoll_wait(int ep, seg_event *events, int max, int timeout_ms);

/// A non-blocking, close-on-exec eventfd.
int seg_eventfd(void);
/// Adds one to the eventfd's counter (wakes its poller).
void seg_eventfd_signal(int fd);
/// Resets the eventfd's counter.
void seg_eventfd_drain(int fd);

/// A non-blocking, close-on-exec CLOCK_MONOTONIC timerfd.
int seg_timerfd(void);
/// Arms the timerfd to fire once at `deadline_ns` on CLOCK_MONOTONIC (0 disarms).
int seg_timerfd_arm(int fd, int64_t deadline_ns);
/// Reads the timerfd's expiry count away.
void seg_timerfd_drain(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int seg_accept(int listener);
/// The peer's uid through SO_PEERCRED; -1 when it cannot be read.
int64_t seg_peer_uid(int fd);
/// How many CPUs this thread may run on (sched_getaffinity); 1 when it cannot tell.
int seg_cpus_allowed(void);
/// 1 when the peer has shut down its side (or the socket has an error), without reading anything.
int seg_peer_gone(int fd);

#endif
