import Testing
@testable import SegueKit

@Suite("Transition ids")
struct TransitionIDTests {
    @Test("a transition id is t- and the number's decimal digits, the same text interpolation gives")
    func matchesInterpolation() {
        var numbers = [0, 1, 9, 10, 99, 100, 12_345, 999_999, 1_000_000, Int.max, -1, -42, Int.min]
        var n = 1
        while n < Int.max / 7 { numbers.append(n); numbers.append(n - 1); n *= 7 }
        for number in numbers {
            #expect(TransitionLedger.transitionID(number) == "t-\(number)")
        }
    }

    @Test("new transition ids count up and skip an id a request already gave a transition")
    func skipsTakenIDs() throws {
        let scene = Scene(id: "s", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        try scene.setRoot(container)
        let first = try #require(try scene.select(container, index: 1).transition)
        #expect(first.id == "t-1")
        _ = scene.advance(by: 2_000_000_000)
        let named = try #require(try scene.select(container, index: 0, id: "t-2").transition)
        #expect(named.id == "t-2")
        _ = scene.advance(by: 2_000_000_000)
        let next = try #require(try scene.select(container, index: 1).transition)
        #expect(next.id == "t-3")
    }
}
