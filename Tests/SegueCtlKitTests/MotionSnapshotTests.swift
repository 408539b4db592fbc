import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SegueClient
import SegueJSON
import Testing

@testable import SegueCtlKit

/// Motion snapshots: recording a transition's frames and events, comparing with tolerances, the picture.
@Suite("Motion snapshots")
struct MotionSnapshotTests {
    static func events(alphas: [Double]) -> [JSONValue] {
        var out: [JSONValue] = [
            ["type": "vc.view_will_appear", "seq": 1, "scene": "s", "time": 0, "vc": "b"],
            ["type": "transition.began", "seq": 2, "scene": "s", "time": 0.5, "transition": "t-1", "kind": "select",
             "from": "a", "to": "b", "animator": "fade", "interactive": false, "duration": 0.1],
        ]
        for (i, a) in alphas.enumerated() {
            out.append(["type": "frame", "seq": .number(Double(3 + i)), "scene": "s", "time": .number(0.5 + Double(i + 1) / 60),
                        "views": [["id": "b.view", "alpha": .number(a)]]])
        }
        out.append(["type": "transition.completed", "seq": 99, "scene": "s", "time": 0.6, "transition": "t-1", "completed": true, "forced": false])
        return out
    }

    static func entry(_ alphas: [Double]) -> JSONValue {
        let r = MotionRecorder()
        for e in events(alphas: alphas) {
            r.take(e)
            if e["type"] == "transition.began" {
                r.start(["id": "window", "frame": ["x": 0, "y": 0, "w": 320, "h": 480], "alpha": 1,
                         "subviews": [["id": "b.view", "frame": ["x": 10, "y": 0, "w": 100, "h": 100], "alpha": 0,
                                       "color": "#007aff", "subviews": []]]])
            }
        }
        return r.entry
    }

    @Test("a transition's record: its events from began to completed and its frames, times from its start, no seq or scene")
    func record() throws {
        let entry = Self.entry([0.25, 0.5, 1])
        let t = try #require(entry["transitions"]?.arrayValue?.first)
        #expect(t["transition"] == "t-1" && t["animator"] == "fade" && t["kind"] == "select")
        #expect(t["events"]?.arrayValue?.map { $0["type"]?.stringValue ?? "" } == ["transition.began", "transition.completed"])
        #expect(t["events"]?.arrayValue?.allSatisfy { $0["seq"] == nil && $0["scene"] == nil } == true)
        let frames = try #require(t["frames"]?.arrayValue)
        #expect(frames.count == 3)
        #expect(frames.first?["time"] == .number(0.016666667))
        #expect(t["start"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" } == ["window", "b.view"])
        #expect(t["start"]?.arrayValue?.last?["parent"] == "window")
    }

    @Test("the same motion matches; a moved value is found with its frame, view and property; tolerances per property")
    func compare() throws {
        let old = Self.entry([0.25, 0.5, 1])
        #expect(MotionSnapshot.compare(old: old, new: Self.entry([0.25, 0.5, 1]), tolerance: MotionTolerance()) == nil)
        let moved = Self.entry([0.25, 0.6, 1])
        let d = try #require(MotionSnapshot.compare(old: old, new: moved, tolerance: MotionTolerance()))
        #expect(d.frame == 2)
        #expect(d.description.hasPrefix("transition 1 (t-1, fade): frame 2 (t = 0.0333 s): b.view alpha 0.6, the snapshot has 0.5"))
        #expect(d.moved.map { "\($0.view) \($0.property)" } == ["b.view alpha"])
        let loose = try #require(MotionTolerance.parse("alpha=0.2,frame=0.5"))
        #expect(loose.of("alpha") == 0.2 && loose.of("frame") == 0.5 && loose.of("transform") == 1e-6)
        #expect(MotionSnapshot.compare(old: old, new: moved, tolerance: loose) == nil)
        #expect(MotionTolerance.parse("alpha=x") == nil && MotionTolerance.parse("=1") == nil)
        #expect(MotionTolerance.parse("0.5")?.of("frame") == 0.5)
        let longer = try #require(MotionSnapshot.compare(old: old, new: Self.entry([0.25, 0.5, 0.9, 1]), tolerance: MotionTolerance()))
        #expect(longer.description.contains("frame 3") || longer.description.contains("4 frames"), "\(longer.description)")
    }

    @Test("the file: versioned, sorted by scenario, read back; another version or format is refused")
    func file() throws {
        let path = NSTemporaryDirectory() + "segue-motion-\(UUID().uuidString).motion.json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = MotionSnapshot.text(JSONObject([("b", Self.entry([1])), ("a", Self.entry([0.5]))]))
        #expect(text.hasPrefix("{\n  \"format\": \"segued-motion\",\n  \"version\": 1,"))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try #require(try MotionSnapshot.load(path))
        #expect(loaded.keys == ["a", "b"])
        #expect(MotionSnapshot.compare(old: try #require(loaded["a"]), new: Self.entry([0.5]), tolerance: MotionTolerance()) == nil)
        try #"{"format": "segued-motion", "version": 9, "scenarios": {}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { try MotionSnapshot.load(path) }
        try #"{"name": "a scenario"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { try MotionSnapshot.load(path) }
        #expect(try MotionSnapshot.load(path + ".none") == nil)
        #expect(MotionSnapshot.path(for: "Tests/Scenarios/flip.json") == "Tests/Scenarios/flip.motion.json")
    }

    @Test("the picture: old and new curves of what moved, and the first differing frame side by side, alpha clamped")
    func picture() throws {
        let old = Self.entry([0.25, 0.5, 1])
        let new = Self.entry([0.25, 1.3, 1])
        let d = try #require(MotionSnapshot.compare(old: old, new: new, tolerance: MotionTolerance()))
        let svg = MotionPicture.svg(old: old, new: new, difference: d, sceneSize: (320, 480), title: "fade <test>")
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains("b.view alpha"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(svg.contains("frame 2: snapshot") && svg.contains("frame 2: new"))
        #expect(svg.contains("fade &lt;test&gt;"))
        #expect(!svg.contains(#"fill-opacity="1.3""#))
    }

    /// A transition whose start has b.view (100 × 100 at the window's origin, anchor point at its top-left corner)
    /// turned `angle` about y under the window's perspective sublayer transform (m34 = −1/500).
    static func turnedEntry(_ angle: Double) -> JSONValue {
        let r = MotionRecorder()
        let (c, s) = (cos(angle), sin(angle))
        let turn: [JSONValue] = [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1].map { .number($0) }
        let perspective: [JSONValue] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1].map { .number($0) }
        for e in events(alphas: [1]) {
            r.take(e)
            if e["type"] == "transition.began" {
                r.start(["id": "window", "frame": ["x": 0, "y": 0, "w": 320, "h": 480], "alpha": 1, "color": "#ffffff",
                         "sublayer_transform": ["m": .array(perspective)],
                         "subviews": [["id": "b.view", "frame": ["x": 0, "y": 0, "w": 100, "h": 100], "alpha": 1,
                                       "color": "#007aff", "anchor_point": ["x": 0, "y": 0],
                                       "transform": ["m": .array(turn)], "subviews": []]]])
            }
        }
        return r.entry
    }

    @Test("the panels draw as the filmstrip: about the anchor point, a 3-D turn projected by the superview's perspective")
    func panels3D() throws {
        let old = Self.turnedEntry(0), new = Self.turnedEntry(Double.pi / 3)
        let d = try #require(MotionSnapshot.compare(old: old, new: new, tolerance: MotionTolerance()))
        #expect(d.frame == 0)
        let svg = MotionPicture.svg(old: old, new: new, difference: d, sceneSize: (320, 480), title: "turn")
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        // The new panel's b.view: a path whose corners are (x, y, 0)·Ry(60°) about the anchor point (0, 0), then
        // the window's m34 = −0.002 about its centre (160, 240): w = 1 + 0.002·x·sin 60°.
        let marker = try #require(svg.range(of: #"data-view="b.view""#, options: .backwards))
        let path = try #require(svg[marker.upperBound...].range(of: "<path d=\""))
        let d2 = svg[path.upperBound...].prefix { $0 != "\"" }
        var numbers: [Double] = []
        var current = ""
        for ch in d2 {
            if ch.isNumber || ch == "." || (ch == "-" && current.isEmpty) { current.append(ch); continue }
            if let n = Double(current) { numbers.append(n) }
            current = ch == "-" ? "-" : ""
        }
        if let n = Double(current) { numbers.append(n) }
        let (c, s) = (0.5, 0.8660254037844386)
        var expected: [Double] = []
        for (x, y) in [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)] {
            let w = 1 + 0.002 * x * s
            expected += [(x * c - 160) / w + 160, (y - 240) / w + 240]
        }
        #expect(numbers.count == 8 && zip(numbers, expected).allSatisfy { abs($0 - $1) < 0.01 }, "\(numbers) / \(expected)")
        // The old panel (no turn) draws the view as a flat rect at its frame: anchor (0, 0) at position (0, 0).
        #expect(svg.contains(##"<rect x="0" y="0" width="100" height="100" fill="#007aff"/>"##), "\(svg)")
    }

    @Test("a runner with motion on: frame events go to the recorder, not to the step; a missing snapshot fails when required")
    func runner() throws {
        let folder = NSTemporaryDirectory() + "segue-motion-run-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/fade.json"
        try #"{"name": "fade", "steps": [{"call": "go", "all_events": ["transition.began", "transition.completed"]}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let events = Self.events(alphas: [0.5, 1]).filter { $0["type"] != "vc.view_will_appear" }
        let daemon = FakeConnection { method, params in
            switch method {
            case "scene.create": return (.success(["scene": params?["id"] ?? "x"]), [])
            case "go": return (.success([:]), events)
            case "scene.tree": return (.success(["views": ["id": "window", "frame": ["x": 0, "y": 0, "w": 320, "h": 480], "subviews": []]]), [])
            default: return (.success([:]), [])
            }
        }
        let runner = ScenarioRunner { () throws(ClientError) in daemon }
        runner.motion = MotionOptions(mode: .compare, requireSnapshot: true)
        let missing = runner.run(files: [file])
        #expect(missing.results.first?.failure?.message?.contains("no snapshot") == true, "\(missing.text)")
        #expect(daemon.requests.first { $0.method == "events.subscribe" }?.params?["types"] == ["lifecycle", "transition", "frame"])
        runner.motion = MotionOptions(mode: .record)
        let recorded = runner.run(files: [file])
        #expect(recorded.results.first?.passed == true, "\(recorded.text)")
        #expect(try ScenarioRunner.writeMotion(recorded) == [folder + "/fade.motion.json"])
        let again = ScenarioRunner { () throws(ClientError) in daemon }
        again.motion = MotionOptions(mode: .compare, requireSnapshot: true)
        #expect(again.run(files: [file]).results.first?.passed == true)
        #expect(ScenarioFiles.expandedNames(folder) == ["fade.json"])
    }
}

extension ScenarioFiles {
    static func expandedNames(_ folder: String) -> [String] {
        ((try? expand([folder])) ?? []).map { URL(fileURLWithPath: $0).lastPathComponent }
    }
}
