import Dispatch
import Foundation
import SegueJSON
import Testing

@testable import SegueLua

/// Runs `body` on another thread and waits up to 20 s for it (a generous bound: it turns a hang into a failure, it
/// measures nothing). On a timeout `unblock` runs (it opens what the body is stuck on) and nil comes back.
func withoutBlocking<T>(_ body: @escaping () -> T, unblock: () -> Void = {}) -> T? {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    let work = UncheckedSendable(body)
    Thread.detachNewThread {
        box.value = work.value()
        done.signal()
    }
    if done.wait(timeout: .now() + 20) == .timedOut {
        unblock()
        done.wait()
        return nil
    }
    return box.value
}

final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Why reading was refused, or nil.
func refusal(_ result: Result<OpenedFile, FileProblem>?) -> String? {
    guard case .failure(.refused(let message))? = result else { return nil }
    return message
}

/// Opens a FIFO's writing end and closes it again, which lets a reader stuck in `open` or `read` go on.
func unblockFIFO(_ path: String) {
    let fd = open(path, O_WRONLY | O_NONBLOCK)
    if fd >= 0 { close(fd) }
}

/// A path given as bytes (a file name that is not UTF-8), made into a file with `text`.
func createFile(pathBytes: [UInt8], text: String) -> Bool {
    let fd = (pathBytes + [0]).withUnsafeBufferPointer { p in
        p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    guard fd >= 0 else { return false }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return written == bytes.count
}

func unlink(pathBytes: [UInt8]) {
    _ = (pathBytes + [0]).withUnsafeBufferPointer { p in p.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
}

/// A Unix socket bound at `path` (left open for the test's life).
func bindSocket(at path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    return bound == 0 ? fd : -1
}

/// A plugin record's texts written as JSON and read back (what plugins.list and events carry must be valid JSON; the
/// daemon writes the record, its texts are what could break it).
func roundTrips(_ record: PluginRecord) -> Bool {
    let texts = [record.name, record.kind?.rawValue ?? "unknown", record.file, record.status] + [record.version, record.error].compactMap { $0 }
    return texts.allSatisfy { (try? JSONParser.parse(JSONValue.string($0).serialized())) != nil }
}

@Suite("Plugin files: what is opened, how, and what a refusal says")
struct PluginFileTests {
    let good = versioned(0.5)

    // MARK: Files that are not regular files never block

    @Test("a FIFO renamed over a loaded plugin: the change check does not block; the new version is refused, named")
    func fifoRenamedOverLoadedFile() throws {
        let dir = try makePluginFolder(["good.lua": good])
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map(\.type) == ["plugin.loaded"])
        #expect(mkfifo(dir + "/.f.tmp", 0o644) == 0)
        #expect(rename(dir + "/.f.tmp", dir + "/good.lua") == 0)
        let path = dir + "/good.lua"
        let events = withoutBlocking({ host.fileChanged(path) },
                                     unblock: { unblockFIFO(path) })
        let failed = try #require(events, "the change check blocked on the FIFO")
        #expect(failed.map(\.type) == ["plugin.failed"])
        #expect(failed.first?.message == "not a regular file (it is a FIFO)")
        // The working version stays loaded, and plugins.list says why the new one was refused.
        let record = try #require(host.record(named: "good"))
        #expect(record.status == "loaded" && record.error?.contains("it is a FIFO") == true)
        // A full rescan (daemon.reload, SIGHUP) does not block on it either.
        let rescan = withoutBlocking({ host.rescan(force: true) },
                                     unblock: { unblockFIFO(path) })
        #expect(rescan?.map(\.type) == ["plugin.failed"])
    }

    @Test("rm, then mkfifo in its place, then a rescan: no block, the file is reported failed")
    func fifoAfterRemove() throws {
        let dir = try makePluginFolder(["good.lua": good])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let path = dir + "/good.lua"
        unlink(path)
        #expect(mkfifo(path, 0o644) == 0)
        let events = withoutBlocking({ host.rescan() }, unblock: { unblockFIFO(path) })
        #expect(events?.map(\.type) == ["plugin.failed"])
        #expect(events?.first?.message == "not a regular file (it is a FIFO)")
        // A new FIFO (nothing was loaded from that name) is listed failed.
        #expect(mkfifo(dir + "/other.lua", 0o644) == 0)
        let other = withoutBlocking({ host.rescan() },
                                    unblock: { unblockFIFO(dir + "/other.lua") })
        #expect(other?.map(\.type) == ["plugin.failed", "plugin.failed"])
        #expect(host.record(named: "other")?.status == "failed")
        #expect(host.record(named: "other")?.error == "not a regular file (it is a FIFO)")
    }

    @Test("a symbolic link to a FIFO, a directory named x.lua, a socket and a link to /dev/zero are refused, named")
    func otherNonRegularFiles() throws {
        let dir = try makePluginFolder([:])
        let outside = try makePluginFolder([:])
        #expect(mkfifo(outside + "/pipe", 0o644) == 0)
        #expect(symlink(outside + "/pipe", dir + "/piped.lua") == 0)
        try FileManager.default.createDirectory(atPath: dir + "/folder.lua", withIntermediateDirectories: false)
        let listener = bindSocket(at: dir + "/sock.lua")
        #expect(listener >= 0)
        defer { close(listener) }
        #expect(symlink("/dev/zero", dir + "/zero.lua") == 0)
        let host = PluginHost(directory: dir)
        let events = withoutBlocking({ host.loadAll() },
                                     unblock: { unblockFIFO(outside + "/pipe") })
        #expect(events?.map(\.type) == Array(repeating: "plugin.failed", count: 4))
        #expect(host.record(named: "piped")?.error
            == "the symbolic link leads to \(outside)/pipe, which is not a regular file (it is a FIFO)")
        #expect(host.record(named: "folder")?.error == "not a regular file (it is a directory)")
        #expect(host.record(named: "sock")?.error == "not a regular file (it is a socket)")
        #expect(host.record(named: "zero")?.error
            == "the symbolic link leads to /dev/zero, which is not a regular file (it is a character device)")
    }

    @Test("the descriptor is what is checked: a FIFO opened without the look-ahead is refused without blocking")
    func descriptorCheck() throws {
        // As if the name changed between the look at the entry and the open: only the open and fstat remain.
        let dir = try makePluginFolder([:])
        let path = dir + "/late.lua"
        #expect(mkfifo(path, 0o644) == 0)
        let result = withoutBlocking({ FileSystem.readRegularFile(path, limit: 1 << 20) }, unblock: { unblockFIFO(path) })
        #expect(refusal(result) == "not a regular file (it is a FIFO)")
        #expect(FileSystem.read(path) == nil)
    }

    @Test("a file over 4 MiB is refused before it is read; a missing one is gone")
    func sizeBound() throws {
        let dir = try makePluginFolder([:])
        let big = "-- " + String(repeating: "x", count: 4 << 20) + "\nreturn 1\n"
        try big.write(toFile: dir + "/big.lua", atomically: true, encoding: .utf8)
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(host.record(named: "big")?.error == "the file is over 4 MiB")
        #expect(PluginFile.read(dir + "/nothing.lua") == .failure(.gone))
    }

    // MARK: Bytes

    @Test("a plugin file runs as its bytes: a Latin-1 byte in a string literal is one byte (#\"á\" == 1)")
    func bytesAsOnDisk() throws {
        let dir = try makePluginFolder([:])
        // "\u{E1}" written as Latin-1 is the single byte 0xE1; "é" in UTF-8 is two bytes.
        var bytes = Array("local latin = \"".utf8) + [0xE1] + Array("\"\nlocal utf8 = \"é\"\n".utf8)
        bytes += Array("""
            assert(latin:byte(1) == 0xE1, "the byte changed")
            return segue.animator {
              version = #latin .. "," .. #utf8 .. "," .. #("\\xE1"),
              animate = function(ctx) ctx:complete(true) end,
            }
            """.utf8)
        FileManager.default.createFile(atPath: dir + "/bytes.lua", contents: Data(bytes))
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map(\.type) == ["plugin.loaded"])
        #expect(host.record(named: "bytes")?.version == "1,2,1")
        // A rescan compares bytes: the same bytes are no change.
        #expect(host.rescan().isEmpty)
    }

    @Test("an error that quotes a byte that is not UTF-8 shows it as \\xHH, and stays valid JSON")
    func invalidBytesInErrors() throws {
        let dir = try makePluginFolder([:])
        let bytes = Array("return \"abc".utf8) + [0xE1, 0xFF] + Array(" unfinished\n".utf8)
        FileManager.default.createFile(atPath: dir + "/broken.lua", contents: Data(bytes))
        let host = PluginHost(directory: dir)
        host.loadAll()
        let record = try #require(host.record(named: "broken"))
        #expect(record.status == "failed")
        #expect(record.error?.contains(#"abc\xE1\xFF unfinished"#) == true, "\(record.error ?? "")")
        #expect(roundTrips(record))
    }

    // MARK: Names

    @Test("a file whose name is not valid UTF-8 is listed failed, its name with each invalid byte as \\xHH")
    func undecodableName() throws {
        let dir = try makePluginFolder(["good.lua": good])
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array("-".utf8) + [0xFF, 0xC3] + Array(".lua".utf8)
        let pathBytes = Array(dir.utf8) + [UInt8(ascii: "/")] + name
        #expect(createFile(pathBytes: pathBytes, text: versioned(0.5)))
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        let shown = #"caf\xE9-\xFF\xC3"#
        #expect(events.map { "\($0.type) \($0.name)" } == ["plugin.failed \(shown)", "plugin.loaded good"])
        let failed = try #require(events.first)
        #expect(failed.file == dir + "/" + shown + ".lua")
        #expect(failed.message?.contains("not valid UTF-8") == true)
        let record = try #require(host.record(named: shown))
        #expect(record.status == "failed" && record.file == failed.file)
        #expect(roundTrips(record))
        // plugins.reload by that name looks again (still failed); once the file is gone, it unloads.
        #expect(host.reload(named: shown)?.map(\.type) == ["plugin.failed"])
        unlink(pathBytes: pathBytes)
        #expect(host.rescan().map { "\($0.type) \($0.name)" } == ["plugin.unloaded \(shown)"])
        #expect(host.record(named: shown) == nil)
        // A batch from the watcher for its (shown) path unloads nothing else and fails nothing.
        #expect(host.filesChanged([failed.file]).isEmpty)
    }

    @Test("a file literally named like another's shown name (caf\\xE9.lua beside caf+0xE9.lua) loads: both are kept")
    func shownNameCollision() throws {
        let dir = try makePluginFolder([#"caf\xE9.lua"#: versioned(0.5, name: "literal")])
        let raw: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".lua".utf8)
        let rawPath = Array(dir.utf8) + [UInt8(ascii: "/")] + raw
        #expect(createFile(pathBytes: rawPath, text: versioned(0.5)))
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        let shown = dir + "/" + #"caf\xE9.lua"#
        #expect(events.map { "\($0.type) \($0.name) \($0.file)" }.sorted()
            == ["plugin.failed " + #"caf\xE9 "# + shown, "plugin.loaded literal " + shown])
        #expect(host.record(named: "literal")?.status == "loaded")
        // A change to either one leaves the other as it is.
        #expect(host.rescan().map { "\($0.type) \($0.name)" } == [#"plugin.failed caf\xE9"#])
        unlink(pathBytes: rawPath)
        #expect(host.rescan().map { "\($0.type) \($0.name)" } == [#"plugin.unloaded caf\xE9"#])
        #expect(host.record(named: "literal")?.status == "loaded")
        #expect(host.filesChanged([shown]).isEmpty)
        #expect(createFile(pathBytes: rawPath, text: versioned(0.5)))
        #expect(host.rescan().map { "\($0.type) \($0.name)" } == [#"plugin.failed caf\xE9"#])
        #expect(unlink(shown) == 0)
        #expect(host.filesChanged([shown]).map { "\($0.type) \($0.name)" } == ["plugin.unloaded literal"])
        #expect(host.record(named: #"caf\xE9"#)?.status == "failed")
    }

    @Test("a plugins folder that does not exist, or is no folder, gives no event (the daemon's warning names it)")
    func missingFolderNoEvent() throws {
        let dir = try makePluginFolder(["good.lua": good])
        #expect(PluginHost(directory: dir + "/nope").loadAll().isEmpty)
        #expect(PluginHost(directory: dir + "/good.lua").loadAll().isEmpty)
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map(\.type) == ["plugin.loaded"])
    }

    @Test("plugin file names are judged on their bytes")
    func namesAsBytes() {
        #expect(PluginHost.isPluginFileName(bytes: Array("a.lua".utf8) ))
        #expect(PluginHost.isPluginFileName(bytes: [0xFF] + Array(".lua".utf8)))
        #expect(!PluginHost.isPluginFileName(bytes: Array(".a.lua".utf8)))
        #expect(!PluginHost.isPluginFileName(bytes: Array(".lua".utf8)))
        #expect(!PluginHost.isPluginFileName(bytes: Array("a.lua~".utf8)))
        #expect(FileSystem.displayText([0x61, 0xE1, 0x62, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x98]) == #"a\xE1bé\xED\xA0\x80\xF0\x9F\x98"#)
    }

    // MARK: Symbolic links

    @Test("a symbolic link to a good plugin outside the folder loads, named after the link")
    func goodLink() throws {
        let dir = try makePluginFolder([:])
        let checkout = try makePluginFolder(["fade.lua": versioned(0.75)])
        #expect(symlink(checkout + "/fade.lua", dir + "/linked.lua") == 0)
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map { "\($0.type) \($0.name)" } == ["plugin.loaded linked"])
        #expect(host.record(named: "linked")?.version == "0.75")
        // Editing the target is a change of the plugin.
        try versioned(0.25).write(toFile: checkout + "/fade.lua", atomically: true, encoding: .utf8)
        #expect(host.fileChanged(dir + "/linked.lua").map(\.type) == ["plugin.loaded"])
        #expect(host.record(named: "linked")?.version == "0.25")
    }

    @Test("a link to a world-writable file is refused, and the file's content is never quoted")
    func linkToWorldWritable() throws {
        let dir = try makePluginFolder([:])
        let outside = try makePluginFolder(["secret.lua": "SECRET-TOKEN ="])
        #expect(chmod(outside + "/secret.lua", 0o666) == 0)
        #expect(symlink(outside + "/secret.lua", dir + "/evil.lua") == 0)
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        #expect(events.map(\.type) == ["plugin.failed"])
        let message = try #require(events.first?.message)
        #expect(message == "refused: the symbolic link leads to \(outside)/secret.lua, which is writable by other users (chmod o-w)")
        #expect(!message.contains("SECRET"))
        // The same file in the folder itself is refused by the same rule.
        try "SECRET-TOKEN =".write(toFile: dir + "/plain.lua", atomically: true, encoding: .utf8)
        #expect(chmod(dir + "/plain.lua", 0o666) == 0)
        #expect(host.fileChanged(dir + "/plain.lua").first?.message
            == "refused: the file is writable by other users (chmod o-w)")
    }

    @Test("a file owned by another user is refused, through a link or not; so is a link whose owner is not the file's",
          .enabled(if: geteuid() == 0, "needs root to chown"))
    func otherOwners() throws {
        let dir = try makePluginFolder([:])
        let outside = try makePluginFolder(["theirs.lua": "SECRET-TOKEN =", "mine.lua": "SECRET-TOKEN ="])
        #expect(chown(outside + "/theirs.lua", 4242, 4242) == 0)
        #expect(symlink(outside + "/theirs.lua", dir + "/theirs.lua") == 0)
        // A link made by another user to a file of segued's user.
        #expect(symlink(outside + "/mine.lua", dir + "/planted.lua") == 0)
        #expect(lchown(dir + "/planted.lua", 4242, 4242) == 0)
        try "SECRET-TOKEN =".write(toFile: dir + "/owned.lua", atomically: true, encoding: .utf8)
        #expect(chown(dir + "/owned.lua", 4242, 4242) == 0)
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        #expect(events.map(\.type) == ["plugin.failed", "plugin.failed", "plugin.failed"])
        for event in events { #expect(event.message?.contains("SECRET") == false, "\(event.message ?? "")") }
        let me = geteuid()
        #expect(host.record(named: "theirs")?.error == "refused: the symbolic link leads to \(outside)/theirs.lua, "
            + "which is owned by uid 4242, not by segued's user (uid \(me)) or root")
        #expect(host.record(named: "planted")?.error == "refused: the symbolic link leads to \(outside)/mine.lua, "
            + "which is owned by uid \(me), but the link by uid 4242 (a link must have the owner of the file it leads to)")
        #expect(host.record(named: "owned")?.error
            == "refused: the file is owned by uid 4242, not by segued's user (uid \(me)) or root")
        // The folder itself owned by another user: nothing in it loads.
        #expect(chown(dir, 4242, 4242) == 0)
        let refused = host.rescan()
        #expect(refused.map(\.type) == ["plugin.warning"])
        #expect(refused.first?.message?.contains("is owned by uid 4242") == true)
    }

    @Test("a link outside the folder to a file with a syntax error that fails the rules: the error quotes nothing of it")
    func syntaxErrorNotEchoed() throws {
        let dir = try makePluginFolder([:])
        let outside = try makePluginFolder(["notes.lua": "password hunter3"])
        #expect(symlink(outside + "/notes.lua", dir + "/notes.lua") == 0)
        // Passing the rules, the syntax error is an ordinary one (the file is the link owner's).
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(host.record(named: "notes")?.error?.contains("hunter3") == true)
        // Failing them (writable by others), the error names the rule and nothing of the content.
        #expect(chmod(outside + "/notes.lua", 0o646) == 0)
        let events = host.fileChanged(dir + "/notes.lua")
        let message = try #require(events.first?.message)
        #expect(!message.contains("hunter") && !message.contains("password") && message.hasPrefix("refused:"))
        #expect(host.record(named: "notes")?.error == message)
    }
}

/// Carries a value that is not Sendable across the thread hop of `withoutBlocking` (the test waits for it).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
