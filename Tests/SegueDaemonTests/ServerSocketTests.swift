import Foundation
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// The process's umask, read without changing it (`umask()` can only be read by setting it).
func processUmask() -> String? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("Umask:") }?.split(separator: "\t").last.map(String.init)
}

/// Making the listening socket, and removing it at shutdown.
@Suite("The socket file")
struct ServerSocketTests {
    func temporaryDirectory() throws -> String {
        let dir = "/tmp/sst-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        return dir
    }

    func mode(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode : nil
    }

    @Test("the socket is 0600 and the process umask is never changed, not even around bind")
    func modeWithoutUmask() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try #require(processUmask())
        var duringBind: String?
        let socket = try Server.listen(on: dir + "/s.sock") { duringBind = processUmask() }
        defer { close(socket.fd) }
        #expect(duringBind == before)
        #expect(processUmask() == before)
        #expect(mode(dir + "/s.sock").map { $0 & S_IFMT == S_IFSOCK && $0 & 0o777 == 0o600 } == true)
        // The private directory it was bound in is gone; only the socket is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.sock"])
        #expect(Server.socketAcceptsConnections(dir + "/s.sock"))
    }

    @Test("a path near the 107-byte limit still binds (through the private directory's descriptor)")
    func longPath() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let deep = dir + "/" + String(repeating: "d", count: 95 - dir.utf8.count)
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: false)
        let path = deep + "/s.sock"
        #expect(path.utf8.count < 108 && (deep + "/.segued-XXXXXX/s").utf8.count >= 108)
        let socket = try Server.listen(on: path)
        defer { close(socket.fd) }
        #expect(mode(path).map { $0 & 0o777 == 0o600 } == true)
        #expect(Server.socketAcceptsConnections(path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: deep) == ["s.sock"])
    }

    @Test("something at the path when the socket is linked there: refused, and left as it was")
    func somethingThere() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "keep".write(toFile: dir + "/s.sock", atomically: false, encoding: .utf8)
        #expect(throws: ServerError.self) { try Server.listen(on: dir + "/s.sock") }
        #expect(try String(contentsOfFile: dir + "/s.sock", encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.sock"])
    }

    @Test("shutdown removes the path only while it is still the socket this server bound")
    func removesOnlyItsOwn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let a = try Server.listen(on: path)
        defer { close(a.fd) }
        unlink(path)
        let b = try Server.listen(on: path)
        defer { close(b.fd) }
        #expect(!Server.removeSocketFile(a))
        #expect(Server.socketAcceptsConnections(path))
        #expect(Server.removeSocketFile(b))
        #expect(mode(path) == nil)
        // Gone already: nothing to remove, nothing else touched.
        #expect(!Server.removeSocketFile(b))
    }
}
