import Foundation
import SegueClient
import SegueJSON
import Testing

/// The socket file and the protocol's ids, against a real segued.
@Suite("The socket and request ids in a real segued")
struct SocketFileTests {
    @Test("stopping one daemon never deletes another's socket: A's file removed, B on the same path, SIGTERM A, B answers")
    func secondDaemonKeepsItsSocket() throws {
        let a = try DaemonProcess()
        #expect(unlink(a.socket) == 0)
        let b = try DaemonProcess(socket: a.socket)
        #expect(a.terminate() == 0)
        #expect(FileManager.default.fileExists(atPath: a.socket))
        let client = try b.client()
        #expect(try client.call("daemon.ping") == "pong")
        // B's own stop removes its own socket.
        #expect(b.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: a.socket))
    }

    @Test("under umask 000 the socket is still 0600, and segued's umask is still 000 once it serves")
    func socketModeWithoutUmask() throws {
        let daemon = try DaemonProcess(umask: "000")
        var st = stat()
        #expect(lstat(daemon.socket, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        #expect(status.split(separator: "\n").contains("Umask:\t0000"))
        // Nothing but the socket was left next to it (the private directory it was bound in is gone).
        let names = try FileManager.default.contentsOfDirectory(atPath: daemon.directory)
        #expect(!names.contains { $0.hasPrefix(".segued-") })
    }

    @Test("number ids come back exactly as sent, alone and in a batch")
    func idsAsSent() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        let ids = ["9007199254740993", "9223372036854775807", "12345678901234567890123", "1e3", "-0", "1.50"]
        for id in ids {
            try client.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"daemon.ping"}"#)
            #expect(try client.readLine(timeoutMs: 10_000) == #"{"jsonrpc":"2.0","id":\#(id),"result":"pong"}"#)
        }
        let batch = ids.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"daemon.ping"}"# }.joined(separator: ",")
        try client.send(line: "[" + batch + "]")
        let expected = ids.map { #"{"jsonrpc":"2.0","id":\#($0),"result":"pong"}"# }.joined(separator: ",")
        #expect(try client.readLine(timeoutMs: 10_000) == "[" + expected + "]")
    }
}
