#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// The plugins folder's inotify descriptor in the event loop: changes arrive on the loop's thread, debounced by a
/// loop timer, with no watcher thread.
@Suite("The plugin folder watcher on the event loop")
struct PluginWatcherTests {
    final class Log: @unchecked Sendable {
        var batches: [PluginWatcher.Batch] = []
        var onLoop: [Bool] = []
    }

    static func folder() throws -> String {
        let dir = "/tmp/sgw-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Watches a fresh folder on a fresh loop, runs `change` on the loop, and hands each batch to `onBatch` (true:
    /// stop the loop) until it says so — or a 20 s backstop, so a broken watcher fails the test instead of hanging.
    static func watch(change: @escaping (String) -> Void, onBatch: @escaping (String, SocketLoop, Log) -> Bool)
        throws -> (folder: String, log: Log)
    {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loop = try SocketLoop()
        let log = Log()
        let watcher = PluginWatcher(directory: dir, loop: loop, quietMs: 5, maxDelayMs: 50) { batch in
            log.batches.append(batch)
            log.onLoop.append(loop.inLoop)
            if onBatch(dir, loop, log) { loop.stop() }
        }
        #expect(watcher != nil)
        loop.schedule(in: 0) { change(dir) }
        loop.schedule(in: 20_000_000_000) { loop.stop() }
        loop.run()
        watcher?.stop()
        return (dir, log)
    }

    @Test("a plugin file written in the folder is delivered once, on the loop thread; other names are ignored")
    func fileWritten() throws {
        let (dir, log) = try Self.watch(change: { dir in
            FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("x".utf8))
            FileManager.default.createFile(atPath: dir + "/a.lua", contents: Data("return {}".utf8))
        }, onBatch: { _, _, _ in true })
        #expect(log.batches.count == 1)
        #expect(log.batches.first?.paths == [dir + "/a.lua"])
        #expect(log.batches.first?.rescan == false)
        #expect(log.onLoop == [true])
    }

    @Test("the folder deleted and made again asks for a rescan once it is back")
    func folderReplaced() throws {
        let (_, log) = try Self.watch(change: { dir in try? FileManager.default.removeItem(atPath: dir) },
                                      onBatch: { dir, _, log in
            // The first batch (the folder gone) comes while it is still missing: make it again.
            guard log.batches.count == 1 else { return true }
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            return false
        })
        #expect(log.batches.count == 2)
        #expect(log.batches.allSatisfy { $0.rescan })
        #expect(log.onLoop.allSatisfy { $0 })
    }

    @Test("a folder that cannot be watched gives no watcher")
    func missingFolder() throws {
        let loop = try SocketLoop()
        #expect(PluginWatcher(directory: "/tmp/sgw-none-" + UUID().uuidString, loop: loop) { _ in } == nil)
    }
}
