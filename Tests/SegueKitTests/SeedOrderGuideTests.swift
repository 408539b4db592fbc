import Foundation
import Testing

@testable import SegueKit

/// The plugin guide's "Where a seed's order differs from UIKit's" shows the engine's order: it must be the one
/// the engine emits.
@Suite("The guide's lifecycle order")
struct SeedOrderGuideTests {
    static var guide: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = parts.joined(separator: "/") + "/plugins/README.md"
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// "a, b, c" as the guide writes a list of events: each in backticks, comma-separated.
    static func listed(_ events: [String]) -> String { events.map { "`\($0)`" }.joined(separator: ", ") }

    @Test("a select a → b, completed and cancelled, in the order the guide shows", arguments: [false, true])
    func selectOrder(cancel: Bool) throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        let t = try #require(try scene.select(container, index: 1, interactive: .percent).transition)
        let atStart = recorder.lifecycle
        try scene.updateTransition(t, percent: 0.5)
        try scene.endInteraction(t, cancel: cancel)
        _ = scene.advance(by: 2_000_000_000)
        #expect(t.isEnded)
        let atEnd = Array(recorder.lifecycle.dropFirst(atStart.count))
        let guide = Self.guide
        #expect(guide.contains(Self.listed(atStart)), "\(Self.listed(atStart))")
        #expect(guide.contains(Self.listed(atEnd)), "\(Self.listed(atEnd))")
    }
}
