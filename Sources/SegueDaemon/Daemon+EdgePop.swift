import SegueJSON
import SegueKit

/// gesture.pan with `edge`: the edge-swipe pop without a plugin (docs/PROTOCOL.md "The edge-swipe pop").
extension Daemon {
    /// The screen edges an edge swipe may come from (UINavigationController's interactivePopGestureRecognizer is
    /// a left-edge recognizer; segued does not model right-to-left layouts).
    static let swipeEdges = ["left"]

    /// `gesture.pan {scene?, edge: "left", container?, phase, translation?, velocity?, location?}`.
    func edgePan(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        _ = try p.oneOf("edge", Daemon.swipeEdges)
        guard let name = try p.oneOf("phase", PanGesture.Phase.allCases.map(\.rawValue)),
            let phase = PanGesture.Phase(rawValue: name)
        else {
            throw .invalidParams("phase", "missing parameter 'phase' (began, changed, ended, cancelled)")
        }
        var gesture = PanGesture(phase: phase, kind: .pan)
        gesture.translation = try point(p, "translation") ?? Point(x: 0, y: 0)
        gesture.velocity = try point(p, "velocity") ?? Point(x: 0, y: 0)
        gesture.location = try point(p, "location") ?? Point(x: 0, y: scene.size.h / 2)
        let nav = p.has("container") ? try container(p, scene) : nil
        for other in ["transition", "start", "interaction", "sheet", "info"] where p.has(other) {
            throw .invalidParams(other, "give 'edge' without '\(other)': an edge swipe pops the navigation controller itself")
        }
        try p.finish()
        let t: Transition
        do throws(EngineError) { t = try scene.edgePan(nav, gesture) } catch { throw RPCError(error) }
        return interactiveResult(scene, t)
    }
}
