import Logging
import SegueJSON
import SegueKit
import Testing

@testable import SegueDaemon

/// The event bus writes event lines straight from the typed event; these hold its bytes equal to the JSON tree's
/// serialization (the reference: the same key order, the same numbers) for every event type.
@Suite("EventEncoder")
struct EventEncoderTests {
    /// One event of every kind, with awkward values: fractions, negatives, escapes, optional fields both ways.
    static var samples: [EngineEvent.Payload] {
        var full = FrameView(id: "v-1", changes: .all)
        full.frame = Rect(x: -0.5, y: 1e-7, w: 320, h: 480.25)
        full.values.bounds = Rect(x: 0, y: 0, w: 320, h: 480.25)
        full.values.alpha = 0.30000000000000004
        full.values.transform = Transform3D(a: 0.9, b: 0.1, c: -0.1, d: 0.9, tx: 12.5, ty: -3)
        full.values.color = Color(r: 1, g: 0.5, b: 0, a: 0.5)
        full.values.cornerRadius = 8
        full.z = 2
        full.hidden = true
        var perspective = FrameView(id: "v-\"2\"", changes: [.transform, .alpha])
        var m = Transform3D.identity.values
        m[11] = -1.0 / 500
        perspective.values.transform = Transform3D(values: m)
        perspective.values.alpha = 1
        let boundsOnly = FrameView(id: "v-3", changes: [.bounds])
        let hiddenOnly = FrameView(id: "v-4", changes: [.hidden, .z])
        var escaped = FrameView(id: "v\\5\n\u{1}\u{1F}é\t\r", changes: [.alpha, .transform, .cornerRadius])
        escaped.values.alpha = 0.25
        escaped.values.transform = Transform3D(a: 0.5, b: 0, c: 0, d: 0.5, tx: -3.25, ty: 1e-7)
        escaped.values.cornerRadius = 12.125
        let long = FrameView(id: String(repeating: "x", count: 300), changes: [.center])
        return [
            .willMoveToParent(vc: "a", parent: "c"), .willMoveToParent(vc: "a", parent: nil),
            .didMoveToParent(vc: "b", parent: nil), .viewWillAppear(vc: "b", animated: true),
            .viewDidAppear(vc: "b", animated: false), .viewWillDisappear(vc: "a", animated: true),
            .viewDidDisappear(vc: "a", animated: true),
            .transitionBegan(EngineEvent.TransitionBegan(
                transition: "t-1", kind: .select, from: "a", to: "b", animator: "dt-slide", interactive: false,
                duration: 0.35)),
            .transitionUpdated(transition: "t-1", percent: 0.7),
            .interactionEnded(transition: "t-1", cancelled: true, completionVelocity: 1.5),
            .transitionCompleted(EngineEvent.TransitionCompletion(transition: "t-1", completed: true, forced: false)),
            .transitionCompleted(EngineEvent.TransitionCompletion(
                transition: "t-2", completed: false, forced: false, skipped: true, reason: "gone\nnow")),
            .transitionCompleted(EngineEvent.TransitionCompletion(
                transition: "t-3", completed: true, forced: false, skipped: true)),
            .failedOver(transition: "t-1", animator: "bad", reason: "boom \"x\""),
            .watchdog(transition: "t-1", animator: "never"),
            .pluginLoaded(name: "flip", file: "/p/flip.lua"), .pluginUnloaded(name: "flip", file: "/p/flip.lua"),
            .pluginFailed(name: "x", file: "x.lua", error: "syntax\terror"),
            .pluginWarning(name: "x", file: nil, message: "clamped"),
            .pluginWarning(name: "x", file: "x.lua", message: "é ü"),
            .log(level: "info", plugin: "flip", message: "hi"), .log(level: "info", plugin: nil, message: ""),
            .frame([full, perspective, boundsOnly, hiddenOnly, escaped, long]), .frame([]),
            .eventsDropped(count: 3, types: ["frame"]),
            .traitsChanged(Traits(horizontal: .regular, vertical: .compact),
                           previous: Traits(horizontal: .compact, vertical: .compact)),
            .viewWillTransitionToSize(vc: "a", size: Size(w: 390.5, h: 844), duration: 0.25),
            .sheetDetentChanged(presented: "m", detent: "medium"), .sheetDismissAttempted(presented: "m\"q"),
        ]
    }

    @Test("every event type's line is the bytes the JSON tree serializes to")
    func sameBytesAsTheTree() {
        var covered = Set<EngineEvent.Kind>()
        for (i, payload) in EventEncoderTests.samples.enumerated() {
            for scene in ["main", nil] as [String?] {
                let event = EngineEvent(scene: scene, seq: i + 1, time: Double(i) * 0.0083333, payload: payload)
                var out = JSONOutput()
                EventEncoder.writeLine(event, to: &out)
                let reference = JSONValue.object(JSONObject([
                    ("jsonrpc", "2.0"), ("method", "event"), ("params", .object(event.params)),
                ])).serialized()
                #expect(out.string == reference, "\(event.type)")
                covered.insert(event.kind)
            }
        }
        #expect(covered == Set(EngineEvent.Kind.allCases))
    }

    @Test("the line parses back to the event's params")
    func parsesBack() throws {
        let event = EngineEvent(scene: "s", seq: 7, time: 0.5, payload: EventEncoderTests.samples[0])
        var out = JSONOutput()
        EventEncoder.writeLine(event, to: &out)
        let parsed = try JSONParser.parse(out.string)
        #expect(parsed["params"]?["vc"] == "a")
        #expect(parsed["params"]?["type"] == "vc.will_move_to_parent")
    }

    @Test("a subscription's types resolve to kinds: categories, exact types, * and unknown names")
    func subscriptionKinds() {
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let connection = daemon.connect(output: RecordingOutput())
        let lifecycle = Subscription(id: 1, connection: connection, scene: nil, types: ["lifecycle"])
        #expect(lifecycle.wants(.vcViewDidAppear, scene: "s"))
        #expect(!lifecycle.wants(.frame, scene: "s"))
        let exact = Subscription(id: 2, connection: connection, scene: "s", types: ["transition.completed", "no.such"])
        #expect(exact.wants(.transitionCompleted, scene: "s"))
        #expect(!exact.wants(.transitionBegan, scene: "s"))
        #expect(!exact.wants(.transitionCompleted, scene: "other"))
        #expect(exact.wants(.transitionCompleted, scene: nil))
        let all = Subscription(id: 3, connection: connection, scene: nil, types: ["*"])
        #expect(EngineEvent.Kind.allCases.allSatisfy { all.wants($0, scene: "x") })
    }
}
