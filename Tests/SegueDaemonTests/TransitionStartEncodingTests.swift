import Testing
import SegueJSON
@testable import SegueDaemon
@testable import SegueKit

/// The response of a transition-starting method is written straight from the `TransitionStart`: the bytes must be
/// those of the JSON object it was built as before (keys in that order, numbers and strings as `JSONValue` writes
/// them), for a started transition, a queued request and a request with nothing to do.
@Suite("Transition start results")
struct TransitionStartEncodingTests {
    /// The object the result used to be.
    static func formerObject(_ start: TransitionStart) -> JSONValue {
        var result = JSONObject()
        if let t = start.transition {
            result["transition"] = .string(t.id)
            result["animator"] = .string(t.animatorName)
            result["duration"] = .number(t.duration)
            result["state"] = .string(t.state.rawValue)
        } else if let queued = start.queuedID {
            result["transition"] = .string(queued)
            result["animator"] = .null
            result["duration"] = 0
            result["state"] = "queued"
        } else {
            result["animator"] = .null
            result["duration"] = 0
        }
        return .object(result)
    }

    static func bytes(_ start: TransitionStart) -> (typed: String, former: String) {
        var typed = JSONOutput()
        MethodResult.started(start).write(to: &typed)
        var former = JSONOutput()
        formerObject(start).write(to: &former)
        return (typed.string, former.string)
    }

    @Test("started, queued and nothing-to-do results are byte for byte the former objects")
    func sameBytes() throws {
        let scene = Scene(id: "s", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        try scene.setRoot(container)

        let started = try scene.select(container, index: 1)
        #expect(started.transition != nil)
        let queued = try scene.select(container, index: 0, whenBusy: .queue)
        #expect(queued.queuedID != nil && queued.transition == nil)
        _ = scene.advance(by: 5_000_000_000)
        let nothing = try scene.select(container, index: 0)
        #expect(nothing.transition == nil && nothing.queuedID == nil)

        for start in [started, queued, nothing, TransitionStart.nothing] {
            let (typed, former) = TransitionStartEncodingTests.bytes(start)
            #expect(typed == former)
        }
        // A duration that is not a whole number, and a state after the transition ended.
        let again = try scene.select(container, index: 1, animated: true)
        let t = try #require(again.transition)
        scene.ledger.setDuration(t, 0.28, in: scene)
        _ = scene.advance(by: 5_000_000_000)
        let (typed, former) = TransitionStartEncodingTests.bytes(again)
        #expect(typed == former)
        #expect(typed.contains(#""duration":0.28"#))
    }
}
