import Foundation
import Testing

@testable import SegueDaemon

@Suite("Loop confinement")
struct LoopConfinementTests {
    /// What `isOnLoop` says on a thread of its own.
    private func onAnotherThread(_ confinement: LoopConfinement) -> Bool {
        let box = ResultBox()
        let thread = Thread { box.set(confinement.isOnLoop) }
        thread.start()
        while !box.isSet { usleep(1000) }
        return box.value
    }

    @Test("unbound, any thread may touch the daemon (tests that step it by hand, start-up before the loop runs)")
    func unbound() {
        let confinement = LoopConfinement()
        #expect(confinement.isOnLoop)
        #expect(onAnotherThread(confinement))
    }

    @Test("bound to the loop's thread, that thread passes and any other fails the check")
    func bound() {
        let confinement = LoopConfinement()
        confinement.bindToCurrentThread()
        #expect(confinement.isOnLoop)
        #expect(!onAnotherThread(confinement))
    }

    @Test("a daemon bound to the calling thread serves its requests there, and no other thread passes")
    func boundDaemon() throws {
        let h = try Harness()
        #expect(h.daemon.confinement.isOnLoop)
        h.daemon.confinement.bindToCurrentThread()
        #expect(!onAnotherThread(h.daemon.confinement))
        #expect(try h.result("daemon.ping") == "pong")
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var isSet: Bool { lock.withLock { stored != nil } }
    var value: Bool { lock.withLock { stored ?? false } }
}
