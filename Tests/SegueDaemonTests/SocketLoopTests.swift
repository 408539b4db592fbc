#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SegueJSON
import Synchronization
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// The hand-written event loop: timers, work handed over from other threads, and a connection's backpressure.
@Suite("The event loop")
struct SocketLoopTests {
    /// Records from the loop thread; read after `run()` returned.
    final class Log: @unchecked Sendable {
        var entries: [String] = []
    }

    @Test("timers run in deadline order whatever the order they were made in; a cancelled one never runs; a repeating one repeats")
    func timers() throws {
        let loop = try SocketLoop()
        let log = Log()
        loop.schedule(in: 30_000_000) { log.entries.append("30") }
        loop.schedule(in: 10_000_000) { log.entries.append("10") }
        let cancelled = loop.schedule(in: 20_000_000) { log.entries.append("20") }
        cancelled.cancel()
        var ticks = 0
        var repeating: LoopTimer?
        repeating = loop.schedule(in: 1_000_000, every: 2_000_000) {
            ticks += 1
            log.entries.append("tick")
            if ticks == 3 {
                repeating?.cancel()
                // Later than every other deadline, however late the loop runs.
                loop.schedule(in: 40_000_000) { loop.stop() }
            }
        }
        loop.schedule(in: 0) { log.entries.append("0") }
        loop.run()
        #expect(log.entries.filter { $0 != "tick" } == ["0", "10", "30"])
        #expect(log.entries.filter { $0 == "tick" }.count == 3)
        #expect(log.entries.firstIndex(of: "tick") ?? 99 < log.entries.firstIndex(of: "10") ?? 0)
    }

    @Test("work from other threads runs on the loop thread, all of it, in each thread's order")
    func executeFromThreads() throws {
        let loop = try SocketLoop()
        let log = Log()
        let group = DispatchGroup()
        for thread in 0..<4 {
            group.enter()
            Background.run {
                for i in 0..<500 {
                    loop.execute { log.entries.append("\(thread):\(i):\(loop.inLoop)") }
                }
                group.leave()
            }
        }
        Background.run {
            group.wait()
            loop.scheduleFromAnyThread(in: 1_000_000) { log.entries.append("timer:\(loop.inLoop)") }
            loop.execute { loop.schedule(in: 5_000_000) { loop.stop() } }
        }
        loop.run()
        #expect(log.entries.count == 2001)
        #expect(log.entries.allSatisfy { $0.hasSuffix(":true") })
        for thread in 0..<4 {
            let mine = log.entries.filter { $0.hasPrefix("\(thread):") }.map { $0.split(separator: ":")[1] }
            #expect(mine == (0..<500).map { Substring(String($0)) })
        }
    }

    @Test("a client that stops reading: output queues past the socket, reads pause over the high watermark, and once it reads again every answer arrives in order")
    func backpressure() throws {
        let h = try Harness(configure: { $0.limits.maxLineBytes = 1 << 20 })
        let peer = h.channel
        peer.reading = false
        let pad = String(repeating: "p", count: 200)
        let requests = (0..<6000).map { #"{"jsonrpc":"2.0","id":"\#(pad)\#($0)","method":"daemon.ping"}"# + "\n" }.joined()
        let unsent = try peer.writeInbound(requests)
        // Over 1 MiB unread: not writable, requests no longer read (those left in the socket wait there).
        #expect(!peer.connection.isWritable)
        #expect(!peer.connection.watchesReads)
        #expect(peer.connection.pendingBytes > Daemon.highWatermark)
        #expect(peer.isActive)
        // Reading again: the rest is sent, read and answered.
        peer.reading = true
        var lines = try h.readLines()
        if unsent > 0 {
            try peer.writeInbound(requests.utf8.suffix(unsent))
            lines += try h.readLines()
        }
        #expect(lines.count == 6000)
        #expect(lines.map { $0["id"]?.stringValue ?? "" } == (0..<6000).map { "\(pad)\($0)" })
        #expect(peer.connection.isWritable && peer.connection.watchesReads)
    }
}

/// Work on another thread (a global queue's).
enum Background {
    static func run(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
