#include "engine_reference.h"

#include <math.h>

ref_spring ref_spring_make(double zeta, double velocity, double duration) {
    // The decay envelope e^(−ζω0 t) falls to 1e-3 at `duration` (underdamped only: the reference's ζ is 0.75).
    double omega = -log(1e-3) / (zeta * duration);
    ref_spring s;
    s.wd = omega * sqrt(1 - zeta * zeta);
    s.r1 = -zeta * omega;
    s.c1 = 1;
    s.c2 = (-velocity + zeta * omega) / s.wd;
    return s;
}

ref_decomposition ref_decompose(double a, double b, double c, double d, double tx, double ty) {
    ref_decomposition m;
    m.tx = tx;
    m.ty = ty;
    m.sx = sqrt(a * a + b * b);
    if (m.sx > 0) {
        m.angle = atan2(b, a);
        double ux = a / m.sx, uy = b / m.sx;
        m.shear = (c * ux + d * uy) / m.sx;
        m.sy = -c * uy + d * ux;
    } else {
        m.angle = 0;
        m.shear = 0;
        m.sy = sqrt(c * c + d * d);
    }
    return m;
}

static inline double progress(const ref_spring *s, double t, double duration) {
    if (t >= duration) return 1;
    return 1 - exp(s->r1 * t) * (s->c1 * cos(s->wd * t) + s->c2 * sin(s->wd * t));
}

void ref_tick(ref_view *views, int count, long long now) {
    for (int i = 0; i < count; i++) {
        ref_view *v = &views[i];
        long long elapsed = now - v->begin;
        if (elapsed < 0) continue;
        double t = (double)elapsed / 1e9;
        // The transform: its own spring evaluation, the decomposition interpolated, then recomposed.
        double p = progress(&v->spring, t, v->duration);
        const ref_decomposition *f = &v->from, *g = &v->to;
        double tx = f->tx + (g->tx - f->tx) * p, ty = f->ty + (g->ty - f->ty) * p;
        double sx = f->sx + (g->sx - f->sx) * p, sy = f->sy + (g->sy - f->sy) * p;
        double shear = f->shear + (g->shear - f->shear) * p, angle = f->angle + (g->angle - f->angle) * p;
        double ca = cos(angle), sa = sin(angle);
        v->affine[0] = sx * ca;
        v->affine[1] = sx * sa;
        v->affine[2] = shear * sx * ca - sy * sa;
        v->affine[3] = shear * sx * sa + sy * ca;
        v->affine[4] = tx;
        v->affine[5] = ty;
        // The alpha: its own spring evaluation.
        double q = progress(&v->alpha_spring, t, v->duration);
        v->alpha = v->alpha_from + (v->alpha_to - v->alpha_from) * q;
    }
}
