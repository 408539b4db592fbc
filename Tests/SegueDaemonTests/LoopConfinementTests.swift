import Foundation
import Logging
import Testing

@testable import SegueDaemon
@testable import SegueTransport

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

    @Test("the first thread that touches it owns it: no other thread passes from then on (never 'unbound')")
    func firstTouchOwns() {
        let confinement = LoopConfinement()
        #expect(confinement.isOnLoop)
        #expect(!confinement.isOwnedByCurrentThread)
        confinement.check()
        #expect(confinement.isOwnedByCurrentThread)
        #expect(!onAnotherThread(confinement))
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

    @Test("a LoopBound value is read and changed on its loop's thread")
    func loopBoundOnLoop() {
        let confinement = LoopConfinement()
        confinement.bindToCurrentThread()
        var bound = LoopBound(1, confinement: confinement)
        bound.value += 1
        #expect(bound.value == 2)
    }

    @Test("a LoopBound value touched off its loop's thread stops the process, in release builds too")
    func loopBoundOffLoop() async {
        await #expect(processExitsWith: .failure) {
            let confinement = LoopConfinement()
            confinement.bindToCurrentThread()
            let bound = LoopBound(1, confinement: confinement)
            LoopConfinementTests.runOnAnotherThread { _ = bound.value }
        }
    }

    @Test("a daemon touched off its loop's thread stops the process: a request from another thread traps")
    func daemonOffLoop() async {
        await #expect(processExitsWith: .failure) {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let daemon = Daemon(config: DaemonConfig(), logger: logger)
            daemon.start()  // this thread owns it from here
            let connection = Unchecked(daemon.connect(output: DiscardedOutput()))
            LoopConfinementTests.runOnAnotherThread {
                _ = daemon.handle(line: #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#, from: connection.value)
            }
        }
    }

    @Test("the loop's descriptors and timers are touched on its thread only: scheduling from another thread traps")
    func socketLoopOffLoop() async {
        await #expect(processExitsWith: .failure) {
            let loop = try? SocketLoop()
            loop?.schedule(in: 1_000_000) {}  // this thread owns the loop from here
            let unchecked = Unchecked(loop)
            LoopConfinementTests.runOnAnotherThread { unchecked.value?.schedule(in: 1_000_000) {} }
        }
    }

    /// Runs `body` on a new thread and waits for it (an exit test's body: a trap there ends the process).
    static func runOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = ResultBox()
        let thread = Thread {
            body()
            done.set(true)
        }
        thread.start()
        while !done.isSet { usleep(1000) }
    }
}

/// Carries a value that is not Sendable to another thread (the point of these tests).
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

private final class DiscardedOutput: ConnectionOutput {
    var isWritable: Bool { true }
    func send(_ line: String) {}
    func flush() {}
    func close() {}
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var isSet: Bool { lock.withLock { stored != nil } }
    var value: Bool { lock.withLock { stored ?? false } }
}
