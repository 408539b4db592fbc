import SegueJSON
import SegueKit
import Testing

@testable import SegueDaemon

/// The packed frame path (`FrameViews`, `EventEncoder.writeFrame`, `cdtoa_json`) against the encoder it replaced,
/// rebuilt here from the views themselves: each value read from the view's presentation when the frame is emitted,
/// each number printed as the former `writeNumber` printed it (`Int64` digits or `Double.description`).
@Suite("Frame events: the former bytes")
struct FrameBytesTests {
    /// Encodes each frame event it gets and compares it with the line built the former way.
    final class ComparingSink: EventSink {
        unowned(unsafe) var scene: Scene?
        var frames = 0
        var views = 0
        var mismatches: [String] = []

        func emit(_ event: EngineEvent) {
            guard case .frame(let packed) = event.payload, let scene else { return }
            var out = JSONOutput()
            EventEncoder.writeLine(event, to: &out)
            let expected = FrameBytesTests.formerLine(event, packed, scene)
            frames += 1
            views += packed.count
            if out.string != expected, mismatches.count < 3 { mismatches.append(out.string + "\n" + expected) }
        }
    }

    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return n.description
    }

    static func rect(_ r: Rect) -> String {
        #"{"x":\#(number(r.x)),"y":\#(number(r.y)),"w":\#(number(r.w)),"h":\#(number(r.h))}"#
    }

    /// The line as the former encoder wrote it, from the views' presentations (the changes come from the event).
    static func formerLine(_ event: EngineEvent, _ packed: FrameViews, _ scene: Scene) -> String {
        var line = #"{"jsonrpc":"2.0","method":"event","params":{"seq":\#(event.seq),"scene":"\#(scene.id)","#
        line += #""type":"frame","time":\#(number(event.time)),"views":["#
        for (index, id) in packed.ids.enumerated() {
            guard let view = scene.view(id) else { return "no view \(id)" }
            let changes = packed.entries[index].changes
            let p = view.presentation
            if index > 0 { line += "," }
            line += #"{"id":"\#(id)""#
            if !changes.isDisjoint(with: [.center, .bounds]) {
                line += #","frame":"# + rect(p.frame)
                if changes.contains(.bounds) { line += #","bounds":"# + rect(p.bounds) }
            }
            if changes.contains(.alpha) { line += #","alpha":\#(number(p.alpha))"# }
            if changes.contains(.transform) {
                let t = p.transform
                if t.isAffine {
                    let a = t.affine
                    line += #","transform":{"a":\#(number(a.a)),"b":\#(number(a.b)),"c":\#(number(a.c)),"#
                    line += #""d":\#(number(a.d)),"tx":\#(number(a.tx)),"ty":\#(number(a.ty))}"#
                } else {
                    line += #","transform":{"m":[\#(t.values.map(number).joined(separator: ","))]}"#
                }
            }
            if changes.contains(.color) { line += #","color":"\#(p.color.hex)""# }
            if changes.contains(.cornerRadius) { line += #","corner_radius":\#(number(p.cornerRadius))"# }
            if changes.contains(.z) { line += #","z":\#(number(view.z))"# }
            if changes.contains(.hidden) { line += #","hidden":\#(view.hidden)"# }
            line += "}"
        }
        return line + "]}}"
    }

    @Test("every frame of 60 transitions (the bench's scene, smaller) is byte for byte the former encoder's line")
    func sameBytes() throws {
        var config = EngineConfig()
        config.maxViewsPerScene = 1000
        let scene = Scene(id: "bench", size: Size(w: 320, h: 480), clock: .manual, fps: 120, config: config)
        let sink = ComparingSink()
        sink.scene = scene
        scene.sink = sink
        var containers: [ContainerViewController] = []
        for i in 0..<60 {
            let a = try scene.createViewController(id: "a\(i)", title: nil, color: nil)
            let b = try scene.createViewController(id: "b\(i)", title: nil, color: nil)
            containers.append(try scene.createContainer(id: "c\(i)", kind: .custom, items: [a, b]))
        }
        for index in [1, 0] {
            for container in containers { _ = try scene.select(container, index: index) }
            scene.step(frames: 130)
        }
        #expect(sink.mismatches.isEmpty, "\(sink.mismatches)")
        #expect(sink.frames > 200)
        #expect(sink.views > sink.frames * 100)
    }
}
