#ifndef ENGINE_REFERENCE_H
#define ENGINE_REFERENCE_H

#include <stddef.h>

/// segue-bench's C reference for the engine's per-frame work (issues 13 and 24): exactly what SegueKit's frame loop
/// (`AnimationClock.evaluate` over `AnimationTrack`s) does for the benchmark's transitions, and no more. Compiled -O2
/// whatever the build configuration. The benchmark's transition is the built-in default animator's: one spring
/// (damping 0.75, initial velocity 0.5, 1 s) animating 4 properties — the from-view's and the to-view's transform
/// (a translation: a straight line between two 2-D affine transforms, the engine's `affine` track mode) and alpha
/// (a `line` track of one channel). Per property, the work is (see engine_reference.c and docs/DESIGN.md §5):
///   - progress: the 4 properties of one transition share one progress value (same group, begin, duration and
///     timing: the engine evaluates the spring once per run of tracks that share it), so one closed-form spring
///     evaluation (exp, cos, sin) per transition, a quarter of one per property;
///   - transform: 6 channels lerped (a, b, c, d, tx, ty) into the view's 16-value presentation transform;
///   - alpha: 1 channel lerped into the view's presentation alpha;
///   - each property sets its bit in the view's dirty mask.
/// No decomposition, no trigonometry per view, no second spring evaluation: those were the first reference's
/// (which the engine's straight-line and shared-progress paths do not do, so it overstated the floor ~1.7×).

/// An underdamped spring in closed form, as SegueKit's `Spring` (progress = 1 − e^(r1·t)(c1 cos wd·t + c2 sin wd·t)).
typedef struct {
    double r1, c1, c2, wd;
} ref_spring;

/// One view with its transform and alpha animating: the ends of each property and its presentation values.
typedef struct {
    double from[6], to[6];  // the transform's affine channels a, b, c, d, tx, ty at both ends
    double alpha_from, alpha_to;
    double transform[16];   // the presentation transform, 16 values (m11 … m44) as the engine stores it
    double alpha;           // the presentation alpha
    unsigned dirty;         // the view's dirty mask (bit per property)
} ref_view;

/// One transition: two views animated by one block on one spring.
typedef struct {
    long long begin;      // scene ns at which its animations start
    long long active_ns;  // their length in ns
    double duration;      // seconds
    ref_spring spring;
    ref_view views[2];    // the from-view, the to-view
} ref_transition;

/// UIKit's (damping ratio, initial velocity) spring with its ω0, which the caller solves once per animation as SegueKit
/// does (Spring.ratioFormOmega: Framer's converter); the frame loop only evaluates it.
ref_spring ref_spring_make(double damping, double velocity, double omega);

/// One frame at scene time `now` (ns) for `count` transitions (4 animated properties each).
void ref_tick(ref_transition *transitions, int count, long long now);

/// The head of a frame event (`ref_tick_printed`): its seq and time, and the scene's id (UTF-8, not terminated).
typedef struct {
    double seq;
    double time;
    const char *scene;
    size_t scene_length;
} ref_frame_head;

/// A view as a frame event names it: which transition and which of its two views (0 the from-view, 1 the to-view),
/// and its id (UTF-8, not terminated). `ref_tick_printed` gets the views in the order the event lists them (the
/// engine's creation order).
typedef struct {
    int transition;
    int view;
    const char *id;
    size_t id_length;
} ref_view_name;

/// The second reference (issue 24, `reference.frame.printed`): `ref_tick`, then the frame event a subscriber gets for
/// it written into `out` as the daemon writes it (SegueDaemon's EventEncoder: the notification's head, then per view
/// that changed its id and its changed properties in the protocol's order — alpha's number, the transform's 6 affine
/// numbers after the affine test, or its 16 — with their keys), every number printed by CDtoa's `cdtoa_json`, the
/// daemon's printer. Clears the dirty bits it printed. Returns the byte count (no newline). `out` must hold
/// `ref_printed_capacity(head, names, count)` bytes.
size_t ref_tick_printed(ref_transition *transitions, int count, long long now, const ref_frame_head *head,
                        const ref_view_name *names, char *out);

/// The most bytes `ref_tick_printed` writes for these names.
size_t ref_printed_capacity(const ref_frame_head *head, const ref_view_name *names, int count);

#endif
