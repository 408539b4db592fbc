import CLuaShim
import SegueKit

/// The coordinator context's fields (UIViewControllerTransitionCoordinatorContext), read live: `coord_field(ctx,
/// key)`.
extension PluginInstance {
    func coordinatorField(_ s: LuaState) -> HostResult {
        guard let ctx = context(at: 1) else { return .error(deadContext) }
        let t = ctx.transition
        switch s.string(at: 2) ?? "" {
        case "percent_complete": s.push(ctx.scene.percent(of: t))
        case "cancelled": s.push(ctx.transitionWasCancelled)
        case "interactive": s.push(ctx.isInteractive)
        case "initially_interactive": s.push(t.startedInteractive)
        case "interruptible": s.push(t.interruptibleAnimator != nil)
        case "animated": s.push(ctx.isAnimated)
        case "duration": s.push(ctx.duration)
        case "completion_curve":
            let curve = t.completionCurve ?? .easeInOut
            if let name = CubicBezier.name(of: curve) {
                s.push(name)
            } else {
                s.newTable(arrayCount: 4)
                for (k, v) in [curve.x1, curve.y1, curve.x2, curve.y2].enumerated() {
                    s.push(v)
                    lua_rawseti(s.L, -2, lua_Integer(k + 1))
                }
            }
        case "completion_velocity": s.push(t.completionSpeed ?? 1)
        case "target_transform": push(Transform3D.identity)
        default: s.pushNil()
        }
        return .results(1)
    }
}

extension CubicBezier {
    /// The curve's name in the Lua API, when it is a named one.
    static func name(of curve: CubicBezier) -> String? {
        for name in ["linear", "ease_in", "ease_out", "ease_in_out", "default"] where CubicBezier.named(name) == curve {
            return name
        }
        return nil
    }
}
