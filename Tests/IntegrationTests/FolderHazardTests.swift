import Foundation
import SegueClient
import SegueJSON
import Testing

/// What the plugins folder can hold besides plugin files, against a real segued: each is reported, none blocks it.
@Suite("Folder hazards in a real segued")
struct FolderHazardTests {
    /// Answers daemon.ping (on a fresh connection, as a client arriving after the hazard would).
    func pings(_ daemon: DaemonProcess) -> Bool {
        guard let client = try? daemon.client(), let answer = try? client.call("daemon.ping", timeoutMs: 10_000)
        else { return false }
        return answer == "pong"
    }

    @Test("a FIFO moved over a loaded plugin, rm + mkfifo + daemon.reload, a link to a FIFO: the daemon answers after each")
    func fifos() throws {
        let daemon = try DaemonProcess(pluginFiles: ["good.lua": animatorSource(alpha: 0.5)])
        let folder = daemon.directory + "/plugins"
        let client = try daemon.client()
        _ = try client.call("events.subscribe", ["types": ["plugin"]])
        defer {
            // Whatever happened, nothing stays stuck on a FIFO.
            for path in [folder + "/good.lua", daemon.directory + "/pipe"] {
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
        }

        // mkfifo f.lua; mv f.lua plugins/good.lua (the watcher's change check).
        #expect(mkfifo(daemon.directory + "/f.lua", 0o644) == 0)
        #expect(rename(daemon.directory + "/f.lua", folder + "/good.lua") == 0)
        let failed = try waitForPluginEvent(client, "plugin.failed", name: "good")
        #expect(failed?["error"] == "not a regular file (it is a FIFO)")
        #expect(pings(daemon))
        #expect(try plugin(client, "good")?["error"] == "the new version failed to load: not a regular file (it is a FIFO)")

        // rm, mkfifo in its place, daemon.reload.
        unlink(folder + "/good.lua")
        _ = try waitForPluginEvent(client, "plugin.unloaded", name: "good")
        #expect(mkfifo(folder + "/good.lua", 0o644) == 0)
        let reload = try client.call("daemon.reload", timeoutMs: 10_000)
        #expect(reload["plugins"]?["failed"] == 1)
        #expect(pings(daemon))
        #expect(try plugin(client, "good")?["status"] == "failed")
        #expect(try client.call("plugins.reload", ["name": "good"], timeoutMs: 10_000)["failed"]?.arrayValue?.count == 1)
        #expect(pings(daemon))

        // A symbolic link to a FIFO outside the folder (the watcher sees it at once: no close-write comes).
        #expect(mkfifo(daemon.directory + "/pipe", 0o644) == 0)
        #expect(symlink(daemon.directory + "/pipe", folder + "/piped.lua") == 0)
        let piped = try waitForPluginEvent(client, "plugin.failed", name: "piped")
        #expect(piped?["error"]
            == .string("the symbolic link leads to \(daemon.directory)/pipe, which is not a regular file (it is a FIFO)"))
        #expect(pings(daemon))
    }

    @Test("a file whose name is not UTF-8: plugin.failed, a plugins.list entry with \\xHH, valid JSON, a log line")
    func undecodableName() throws {
        let daemon = try DaemonProcess(pluginFiles: ["good.lua": animatorSource(alpha: 0.5)])
        let folder = daemon.directory + "/plugins"
        let client = try daemon.client()
        _ = try client.call("events.subscribe", ["types": ["plugin"]])
        let name: [UInt8] = Array("na".utf8) + [0xEF, 0xFF] + Array("ve.lua".utf8)
        let fd = (Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(fd >= 0)
        _ = Array(animatorSource(alpha: 0.5).utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let shown = #"na\xEF\xFFve"#
        let failed = try waitForPluginEvent(client, "plugin.failed", name: shown)
        #expect(failed?["file"] == .string(folder + "/" + shown + ".lua"))
        #expect(failed?["error"]?.stringValue?.contains("not valid UTF-8") == true)
        // plugins.list is read as a raw line: it must parse (SegueClient would fail on invalid JSON anyway).
        let entry = try plugin(client, shown)
        #expect(entry?["status"] == "failed")
        #expect(pings(daemon))
        #expect(daemon.terminate() == 0)
        let log = daemon.stderrText()
        #expect(log.contains("plugin.failed") && log.contains(#"na\xEF\xFFve"#), "\(log)")
    }

    @Test("symbolic links: a good one loads; one to a world-writable file outside is refused without quoting it")
    func links() throws {
        let daemon = try DaemonProcess(pluginFiles: [:])
        let folder = daemon.directory + "/plugins"
        let outside = daemon.directory + "/checkout"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        try write(animatorSource(alpha: 0.25), to: outside + "/fade.lua")
        try write("password hunter3", to: outside + "/notes.lua")
        #expect(chmod(outside + "/notes.lua", 0o646) == 0)
        let client = try daemon.client()
        _ = try client.call("events.subscribe", ["types": ["plugin"]])
        #expect(symlink(outside + "/fade.lua", folder + "/linked.lua") == 0)
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "linked") != nil)
        #expect(try plugin(client, "linked")?["version"] == "0.25")
        #expect(symlink(outside + "/notes.lua", folder + "/notes.lua") == 0)
        let failed = try waitForPluginEvent(client, "plugin.failed", name: "notes")
        let error = failed?["error"]?.stringValue ?? ""
        #expect(error.hasPrefix("refused: the symbolic link leads to \(outside)/notes.lua"), "\(error)")
        #expect(!error.contains("hunter3"))
        #expect(try plugin(client, "notes")?["error"]?.stringValue?.contains("hunter3") == false)
        #expect(pings(daemon))
        // A file of another user (root can make one), linked in: refused, not quoted.
        if geteuid() == 0 {
            try write("password hunter4", to: outside + "/theirs.lua")
            #expect(chown(outside + "/theirs.lua", 4242, 4242) == 0)
            #expect(symlink(outside + "/theirs.lua", folder + "/theirs.lua") == 0)
            let theirs = try waitForPluginEvent(client, "plugin.failed", name: "theirs")
            let message = theirs?["error"]?.stringValue ?? ""
            #expect(message.contains("owned by uid 4242") && !message.contains("hunter4"), "\(message)")
            #expect(pings(daemon))
        }
    }

    @Test("a Latin-1 byte in a string literal is one byte in a real segued too")
    func latin1Bytes() throws {
        let daemon = try DaemonProcess(pluginFiles: [:])
        let client = try daemon.client()
        _ = try client.call("events.subscribe", ["types": ["plugin"]])
        let bytes = Array("return segue.animator { version = tostring(#\"".utf8) + [0xE1]
            + Array("\"), animate = function(ctx) ctx:complete(true) end }\n".utf8)
        FileManager.default.createFile(atPath: daemon.directory + "/plugins/latin.lua", contents: Data(bytes))
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "latin") != nil)
        #expect(try plugin(client, "latin")?["version"] == "1")
    }
}
