#ifndef ENGINE_REFERENCE_H
#define ENGINE_REFERENCE_H

/// segue-bench's C reference for the engine's per-frame work (issue 13): per view, a UIKit spring evaluated per
/// animated property, the 2-D transform interpolated by decomposition (translation, scale, rotation, shear) and
/// recomposed to a 6-value affine, alpha interpolated. Compiled -O2 whatever the build configuration.

/// An underdamped spring in closed form, as SegueKit's `Spring` (progress = 1 − e^(r1·t)(c1 cos wd·t + c2 sin wd·t)).
typedef struct {
    double r1, c1, c2, wd;
} ref_spring;

/// A 2-D affine transform decomposed as Core Animation interpolates it.
typedef struct {
    double tx, ty, sx, sy, angle, shear;
} ref_decomposition;

/// One view with its transform and alpha animating.
typedef struct {
    long long begin;  // scene ns at which both animations start
    double duration;  // seconds
    ref_spring spring, alpha_spring;  // one per animated property, as the engine's animations
    ref_decomposition from, to;
    double alpha_from, alpha_to;
    double affine[6];  // a, b, c, d, tx, ty: the presentation transform
    double alpha;      // the presentation alpha
} ref_view;

/// UIKit's (damping ratio, initial velocity, duration) spring, with the same stiffness rule as SegueKit.
ref_spring ref_spring_make(double damping, double velocity, double duration);

/// Decomposes the affine transform (a, b, c, d, tx, ty) as SegueKit's AffineDecomposition.
ref_decomposition ref_decompose(double a, double b, double c, double d, double tx, double ty);

/// One frame at scene time `now` (ns) for `count` views.
void ref_tick(ref_view *views, int count, long long now);

#endif
