import Dispatch
import Foundation
import Testing

@testable import SegueKit

/// Containers of thousands of view controllers (a client may make up to `max_views_per_scene`): every step stays
/// linear. container.create, nav.set and a pop_to_root's completion each searched the whole stack (or every
/// container) once per view controller: 8 000 of them held the daemon's loop 5–15 s per request.
@Suite("Containers of thousands of view controllers")
struct LargeStackTests {
    static let count = 20_000

    @Test("create, nav.set (plain and animated, new and reversed), pop_to_root and a cancelled set, each linear")
    func thousandsStayLinear() {
        // The 20 s bound only turns minutes of quadratic work into a failure; the whole test takes about a second.
        let outcome = Self.withinTwentySeconds { () -> [Int] in
            var config = EngineConfig()
            config.maxViewsPerScene = 4 * Self.count
            let scene = Scene(id: "big", size: Size(w: 320, h: 480), clock: .manual, config: config)
            var vcs: [ViewController] = []
            for i in 0..<Self.count {
                guard let vc = try? scene.createViewController(id: "v\(i)", title: nil, color: nil) else { return [] }
                vcs.append(vc)
            }
            guard let tabs = try? scene.createContainer(id: "tabs", kind: .tab, items: vcs) else { return [-1] }
            var spare: [ViewController] = []
            for i in 0..<Self.count {
                guard let vc = try? scene.createViewController(id: "w\(i)", title: nil, color: nil) else { return [] }
                spare.append(vc)
            }
            guard let nav = try? scene.createContainer(id: "nav", kind: .navigation, items: [spare[0]]),
                (try? scene.setRoot(nav)) != nil,
                (try? scene.setStack(nav, spare, animated: false)) != nil
            else { return [-2] }
            var counts = [tabs.children.count, nav.items.count]
            _ = try? scene.pop(nav, toRoot: true)
            scene.advance(by: 2_000_000_000)
            counts += [nav.items.count, nav.children.count]
            _ = try? scene.setStack(nav, spare)
            scene.advance(by: 2_000_000_000)
            _ = try? scene.setStack(nav, spare.reversed())
            scene.advance(by: 2_000_000_000)
            counts += [nav.items.count, nav.children.count]
            let set = try? scene.setStack(nav, [spare[Self.count - 1]], interactive: .percent)
            if let t = set?.transition { try? scene.endInteraction(t, cancel: true) }
            scene.advance(by: 2_000_000_000)
            counts += [nav.items.count, nav.children.count]
            return counts
        }
        let n = Self.count
        #expect(outcome == [n, n, 1, 1, n, n, n, n])
    }

    static func withinTwentySeconds(_ body: @escaping @Sendable () -> [Int]) -> [Int]? {
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        Thread.detachNewThread {
            box.value = body()
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else {
            Issue.record("more than 20 s")
            return nil
        }
        return box.value
    }

    final class Box: @unchecked Sendable {
        var value: [Int]?
    }
}
