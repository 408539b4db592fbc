#define _GNU_SOURCE
#include "CEventLoop.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

int seg_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int seg_epoll_set(int ep, int fd, uint32_t events, uint64_t token, int add) {
    struct epoll_event ev = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(ep, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
}

int seg_epoll_remove(int ep, int fd) { return epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL); }

int seg_epoll_wait(int ep, seg_event *events, int max, int timeout_ms) {
    struct epoll_event raw[64];
    if (max > 64) max = 64;
    int n = epoll_wait(ep, raw, max, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        events[i].events = raw[i].events;
        events[i].token = raw[i].data.u64;
    }
    return n;
}

int seg_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void seg_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t r = write(fd, &one, sizeof one);
    (void)r;  // EAGAIN means the counter is already non-zero: the poller wakes anyway.
}

void seg_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t r = read(fd, &value, sizeof value);
    (void)r;
}

int seg_timerfd(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int seg_timerfd_arm(int fd, int64_t deadline_ns) {
    struct itimerspec spec = {0};
    if (deadline_ns > 0) {
        spec.it_value.tv_sec = deadline_ns / 1000000000;
        spec.it_value.tv_nsec = deadline_ns % 1000000000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

void seg_timerfd_drain(int fd) {
    uint64_t expirations;
    ssize_t r = read(fd, &expirations, sizeof expirations);
    (void)r;
}

int seg_accept(int listener) { return accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int64_t seg_peer_uid(int fd) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    return (int64_t)cred.uid;
}

int seg_peer_gone(int fd) {
    struct pollfd entry = {.fd = fd, .events = POLLRDHUP};
    if (poll(&entry, 1, 0) != 1) return 0;
    return (entry.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

int seg_cpus_allowed(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : 1;
}
