import Foundation
import SegueClient
import SegueJSON
import Testing

/// SIGTERM with many transitions running in several scenes (issue 23): every one completes and is reported to a
/// subscriber before the daemon exits 0. Finishing them used to filter the scene's running animations once per
/// transition (quadratic); the release figure (10 scenes × 1 000) is measured by hand, as the README says — here
/// the debug build runs a smaller number, without a timing assertion.
@Suite("Shutdown with many running transitions")
struct ShutdownManyTransitionsTests {
    @Test("SIGTERM with 4 scenes × 60 running dt-slide selects: 240 transition.completed, then exit 0")
    func allCompletedThenExit() throws {
        let scenes = 4, containers = 60
        let daemon = try DaemonProcess()
        let setup = try daemon.client()
        var lines: [String] = []
        func request(_ method: String, _ params: JSONObject) {
            lines.append(JSONValue.object(JSONObject([
                ("jsonrpc", "2.0"), ("id", .number(Double(lines.count + 1))), ("method", .string(method)),
                ("params", .object(params)),
            ])).serialized())
        }
        for s in 0..<scenes {
            let scene = JSONValue.string("s\(s)")
            request("scene.create", ["id": scene, "size": ["w": 320, "h": 480], "clock": "manual"])
            for i in 0..<containers {
                request("vc.create", ["scene": scene, "id": .string("a\(i)")])
                request("vc.create", ["scene": scene, "id": .string("b\(i)")])
                request("container.create", ["scene": scene, "id": .string("c\(i)"), "kind": "custom",
                                             "children": [.string("a\(i)"), .string("b\(i)")]])
            }
            request("container.create", ["scene": scene, "id": "root", "kind": "custom",
                                         "children": .array((0..<containers).map { .string("c\($0)") })])
            request("scene.set_root", ["scene": scene, "vc": "root"])
        }
        let setupCount = lines.count
        for s in 0..<scenes {
            for i in 0..<containers {
                request("container.select", ["scene": .string("s\(s)"), "container": .string("c\(i)"), "index": 1,
                                             "animator": "dt-slide"])
            }
        }
        // Sent in slices, each answered before the next, so neither side's socket buffer fills.
        var errors: [String] = []
        func run(_ range: Range<Int>) throws {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 200) {
                let slice = lines[start..<min(start + 200, range.upperBound)]
                try setup.send(line: slice.joined(separator: "\n"))
                var answered = 0
                while answered < slice.count {
                    guard let line = try setup.readLine(timeoutMs: 30_000) else {
                        throw DaemonFailure(message: "no answer")
                    }
                    if line.contains(#""error""#) { errors.append(line) }
                    if line.contains(#""id""#) { answered += 1 }
                }
            }
        }
        try run(0..<setupCount)
        let subscriber = try daemon.client()
        for s in 0..<scenes {
            _ = try subscriber.call("events.subscribe", ["scene": .string("s\(s)"), "types": ["transition"]])
        }
        try run(setupCount..<lines.count)
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(daemon.terminate(waitingUpTo: 60) == 0)
        var completed = 0, began = 0
        while let line = try? subscriber.readLine(timeoutMs: 10_000) {
            if line.contains(#""type":"transition.completed""#) { completed += 1 }
            if line.contains(#""type":"transition.began""#) { began += 1 }
        }
        #expect(began == scenes * containers)
        #expect(completed == scenes * containers)
    }
}
