import Foundation
import SegueKit
import Testing

@testable import SegueLua

/// Ports of public animators written from docs/PLUGIN_API.md alone (Tests/Fixtures/ports), held to the original's
/// math: the matrices of its views at the start, half-way points and the end, and where their corners are drawn,
/// computed here the way the original's Core Animation calls compute them (1e-3 pt, 1e-4 unitless).
@Suite("Ports of public animators match the originals")
struct PortTests {
    /// UIKit's ease-in-ease-out (0.42, 0, 0.58, 1) at `t`, solved by bisection (independent of the engine's solver).
    static func easeInOut(_ t: Double) -> Double {
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if bezier(mid, 0.42, 0.58) < t { lo = mid } else { hi = mid }
        }
        return bezier((lo + hi) / 2, 0, 1)
    }

    /// CATransform3DMakeRotation(angle, 1, 0, 0), written out.
    static func rotationX(_ a: Double) -> [Double] {
        [1, 0, 0, 0, 0, cos(a), sin(a), 0, 0, -sin(a), cos(a), 0, 0, 0, 0, 1]
    }

    /// Where a point of a subview of the container is drawn, from the engine's presentation values by docs/
    /// PLUGIN_API.md "Layer geometry": ((x, y, 0) − A)·transform + (position, z), then the container's sublayer
    /// transform about its anchor point, then the perspective divide.
    static func drawn(_ x: Double, _ y: Double, view: ViewValues, z: Double, container: ViewValues) -> (Double, Double) {
        let b = view.bounds, a = view.anchorPoint
        var p = [x - (b.x + a.x * b.w), y - (b.y + a.y * b.h), 0, 1]
        func times(_ m: [Double]) {
            p = (0..<4).map { j in (0..<4).reduce(0) { $0 + p[$1] * m[$1 * 4 + j] } }
        }
        times(view.transform.values)
        p[0] += view.center.x * p[3]
        p[1] += view.center.y * p[3]
        p[2] += z * p[3]
        let cb = container.bounds, ca = container.anchorPoint
        let pivot = (cb.x + ca.x * cb.w, cb.y + ca.y * cb.h)
        p[0] -= pivot.0 * p[3]
        p[1] -= pivot.1 * p[3]
        times(container.sublayerTransform.values)
        return (p[0] / p[3] + pivot.0, p[1] / p[3] + pivot.1)
    }

    @Test("CETurn (VCTransitionsLibrary): the turn's matrices and drawn corners at 0, ¼, ½, ¾ and 1 of the block")
    func ceTurn() throws {
        let host = PluginHost(directory: repositoryRoot + "/Tests/Fixtures/ports")
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let t = try #require(try scene.select(container, index: 1, animator: "ce-turn").transition)
        #expect(t.animatorName == "ce-turn")
        let frame = container.view.model.bounds  // the from-view's initial frame: the container's bounds
        var elapsed = 0.0
        for sample in [0.0, 0.25, 0.5, 0.75, 1.0] {
            scene.advance(by: Int64(((sample - elapsed) * 1e9).rounded()))
            elapsed = sample
            // The original: one keyframe block of 1 s on ease-in-ease-out; from turns to −π/2 over the block's
            // first half, to from π/2 back to 0 over its second. CA interpolates a turn about one axis by its angle.
            let p = Self.easeInOut(sample)
            let fromAngle = -Double.pi / 2 * min(max(p / 0.5, 0), 1)
            let toAngle = Double.pi / 2 * (1 - min(max((p - 0.5) / 0.5, 0), 1))
            for (view, angle) in [(a.view, fromAngle), (b.view, toAngle)] {
                let got = view.presentation.transform.values
                let expected = Self.rotationX(angle)
                let off = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
                #expect(off < 1e-4, "\(view.id) at \(sample): \(got) against \(expected)")
                // The corners as the original draws them: about the view's centre, turned about x, then the
                // container's m34 = −0.002 about the container's centre.
                let c = (frame.w / 2, frame.h / 2)
                for (x, y) in [(0.0, 0.0), (frame.w, 0), (0, frame.h), (frame.w, frame.h)] {
                    let (dx, dy) = (x - c.0, y - c.1)
                    let z = sin(angle) * dy
                    let w = 1 - 0.002 * z
                    let original = (c.0 + dx / w, c.1 + cos(angle) * dy / w)
                    let engine = Self.drawn(x, y, view: view.presentation, z: view.z, container: container.view.presentation)
                    #expect(abs(engine.0 - original.0) < 1e-3 && abs(engine.1 - original.1) < 1e-3,
                            "\(view.id) corner (\(x), \(y)) at \(sample): \(engine) against \(original)")
                }
            }
        }
        scene.advance(by: 100_000_000)
        #expect(t.isEnded)
        #expect(recorder.types("plugin.warning").isEmpty, "\(recorder.messages("plugin.warning"))")
    }

    /// CATransform3DMakeRotation(a, 0, 1, 0) with m14 = c·px and m34 = s·px: a turn about y under the perspective
    /// (px, 0, 0) of CSS's decomposition (M = R·P, P's last column (px, 0, 0, 1)).
    static func turnY(_ a: Double, perspective px: Double) -> [Double] {
        let (c, s) = (cos(a), sin(a))
        return [c, 0, -s, c * px, 0, 1, 0, 0, s, 0, c, s * px, 0, 0, 0, 1]
    }

    /// A point of the container's plane drawn in its superview: about the container's anchor point, through its own
    /// transform, at its position (docs/PLUGIN_API.md "Layer geometry").
    static func placed(_ q: (Double, Double), in container: ViewValues) -> (Double, Double) {
        let b = container.bounds, a = container.anchorPoint
        let v = [q.0 - (b.x + a.x * b.w), q.1 - (b.y + a.y * b.h), 0, 1]
        let m = container.transform.values
        let p = (0..<4).map { j in (0..<4).reduce(0) { $0 + v[$1] * m[$1 * 4 + j] } }
        return (p[0] / p[3] + container.center.x, p[1] / p[3] + container.center.y)
    }

    @Test("CECube (VCTransitionsLibrary): anchor points on the shared edge, m34 in each turn, the container sliding")
    func ceCube() throws {
        let host = PluginHost(directory: repositoryRoot + "/Tests/Fixtures/ports")
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let t = try #require(try scene.select(container, index: 1, animator: "ce-cube").transition)
        let (w, h) = (container.view.model.bounds.w, container.view.model.bounds.h)
        let dir = -1.0  // forward: not reversed
        let fromShadow = try #require(a.view.subviews.first), toShadow = try #require(b.view.subviews.first)
        // setAnchorPoint keeps the position: from's frame moves right by half its width, to's left.
        #expect(abs(a.view.model.frame.x - w / 2) < 1e-9 && abs(b.view.model.frame.x + w / 2) < 1e-9)
        var elapsed = 0.0
        for sample in [0.0, 0.25, 0.5, 0.75, 0.99] {
            scene.advance(by: Int64(((sample - elapsed) * 1e9).rounded()))
            elapsed = sample
            // UIView.animate's default curve; every property on it.
            let p = Self.easeInOut(sample)
            let tx = dir * w / 2 * (1 - 2 * p)
            let fromM = Self.turnY(dir * Double.pi / 2 * p, perspective: -0.005 * dir * p)
            let toM = Self.turnY(-dir * Double.pi / 2 * (1 - p), perspective: 0.005 * dir * (1 - p))
            let containerM = container.view.presentation.transform.values
            #expect(abs(containerM[12] - tx) < 1e-3 && abs(containerM[13]) < 1e-9, "container at \(sample): \(containerM)")
            #expect(abs(fromShadow.presentation.alpha - p) < 1e-4 && abs(toShadow.presentation.alpha - (1 - p)) < 1e-4)
            for (view, m, anchorX) in [(a.view, fromM, 0.0), (b.view, toM, 1.0)] {
                let got = view.presentation.transform.values
                let off = zip(got, m).map { abs($0 - $1) }.max() ?? .infinity
                #expect(off < 1e-4, "\(view.id) at \(sample): \(got) against \(m)")
                for (x, y) in [(0.0, 0.0), (w, 0), (0, h), (w, h)] {
                    // The original: (x − anchor, y − h/2, 0, 1)·M, divided, at the position (w/2, h/2), then the
                    // container's translation.
                    let v = [x - anchorX * w, y - h / 2, 0, 1]
                    let q = (0..<4).map { j in (0..<4).reduce(0) { $0 + v[$1] * m[$1 * 4 + j] } }
                    let original = (q[0] / q[3] + w / 2 + tx, q[1] / q[3] + h / 2)
                    let inContainer = Self.drawn(x, y, view: view.presentation, z: view.z, container: container.view.presentation)
                    let engine = Self.placed(inContainer, in: container.view.presentation)
                    #expect(abs(engine.0 - original.0) < 1e-3 && abs(engine.1 - original.1) < 1e-3,
                            "\(view.id) corner (\(x), \(y)) at \(sample): \(engine) against \(original)")
                }
            }
        }
        scene.advance(by: 200_000_000)
        #expect(t.isEnded)
        // The completion puts everything back: anchor points, transforms, the container; the shadows are gone.
        #expect(b.view.model.anchorPoint == Point(x: 0.5, y: 0.5) && b.view.model.transform.isIdentity)
        #expect(container.view.model.transform.isIdentity && b.view.subviews.isEmpty)
        #expect(abs(b.view.model.frame.x) < 1e-9)
        #expect(recorder.types("plugin.warning").isEmpty, "\(recorder.messages("plugin.warning"))")
    }

    @Test("docs/PLUGIN_API.md's key-path table names every transform key path the engine takes, by CA's name")
    func keyPathTable() throws {
        let docs = try String(contentsOfFile: repositoryRoot + "/docs/PLUGIN_API.md", encoding: .utf8)
        let transformPaths = LayerKeyPath.caNamesListed.filter { $0.hasPrefix("transform") || $0.hasPrefix("sublayerTransform") }
        #expect(transformPaths.count == 26)
        for path in transformPaths { #expect(docs.contains("`\(path)`"), "\(path) is not in the table") }
    }
}
