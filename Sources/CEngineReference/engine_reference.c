#include "engine_reference.h"

#include <math.h>

// What one frame of the engine does per animated property, for the benchmark's transitions, and nothing else
// (SegueKit: AnimationClock.evaluate, AnimationTrack.progress/write):
//   transform (track mode `affine`): 6 lerps a + (b − a)·p into the presentation transform's m11, m12, m21, m22,
//     m41, m42; its dirty bit.
//   alpha (track mode `line`, 1 channel): 1 lerp into the presentation alpha; its dirty bit.
//   progress p: the 4 properties of a transition share it (the engine computes it for the first track of a run
//     that shares group, begin, duration and timing, and reuses it), so one spring evaluation per transition:
//     t ≥ duration → 1, else 1 − e^(r1·t)(c1 cos wd·t + c2 sin wd·t).
//   the in-flight check: elapsed = now − begin; before the begin nothing is written; at or past the active length
//     the engine ends the animation (not timed here: the benchmarks run 0.9 of the duration).
// The engine additionally keeps a list of changed views for the frame event (one append per view); that is
// bookkeeping the reference leaves out, so the ratio counts it against the engine.

ref_spring ref_spring_make(double zeta, double velocity, double omega) {
    // The spring's ω0 is solved once per animation, outside the frame loop (SegueKit: Spring.ratioFormOmega, Framer's
    // converter), and handed in: the per-frame work is the evaluation below. Underdamped only (the reference's ζ is
    // 0.75).
    ref_spring s;
    s.wd = omega * sqrt(1 - zeta * zeta);
    s.r1 = -zeta * omega;
    s.c1 = 1;
    s.c2 = (-velocity + zeta * omega) / s.wd;
    return s;
}

static inline double progress(const ref_spring *s, double t, double duration) {
    if (t >= duration) return 1;
    return 1 - exp(s->r1 * t) * (s->c1 * cos(s->wd * t) + s->c2 * sin(s->wd * t));
}

static inline void write_view(ref_view *v, double p) {
    // transform: the 6 affine channels of the 16-value transform (m11, m12, m21, m22, m41, m42).
    v->transform[0] = v->from[0] + (v->to[0] - v->from[0]) * p;
    v->transform[1] = v->from[1] + (v->to[1] - v->from[1]) * p;
    v->transform[4] = v->from[2] + (v->to[2] - v->from[2]) * p;
    v->transform[5] = v->from[3] + (v->to[3] - v->from[3]) * p;
    v->transform[12] = v->from[4] + (v->to[4] - v->from[4]) * p;
    v->transform[13] = v->from[5] + (v->to[5] - v->from[5]) * p;
    v->dirty |= 1u;
    // alpha: one channel.
    v->alpha = v->alpha_from + (v->alpha_to - v->alpha_from) * p;
    v->dirty |= 2u;
}

void ref_tick(ref_transition *transitions, int count, long long now) {
    for (int i = 0; i < count; i++) {
        ref_transition *tr = &transitions[i];
        long long elapsed = now - tr->begin;
        if (elapsed < 0 || elapsed >= tr->active_ns) continue;
        double p = progress(&tr->spring, (double)elapsed / 1e9, tr->duration);
        write_view(&tr->views[0], p);
        write_view(&tr->views[1], p);
    }
}
