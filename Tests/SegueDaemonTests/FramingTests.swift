import SegueJSON
import Testing

@testable import SegueDaemon

/// The connection handler frames lines itself: requests split across reads, several in one read, CRLF, a last line
/// without its newline.
@Suite("Line framing")
struct FramingTests {
    @Test("a request split across three reads is answered once, when its newline arrives")
    func splitAcrossReads() throws {
        let h = try Harness()
        let line = #"{"jsonrpc":"2.0","id":7,"method":"daemon.ping"}"#
        let bytes = Array(line.utf8)
        try h.channel.writeInbound(bytes[0..<10])
        #expect(try h.readLines().isEmpty)
        try h.channel.writeInbound(bytes[10...])
        #expect(try h.readLines().isEmpty)
        try h.channel.writeInbound("\n")
        #expect(try h.readLines() == [["jsonrpc": "2.0", "id": 7, "result": "pong"]])
    }

    @Test("several requests in one read are answered in order; CRLF line ends work")
    func pipelined() throws {
        let h = try Harness()
        let text = (1...3).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"daemon.ping"}"# }.joined(separator: "\r\n") + "\r\n"
        try h.channel.writeInbound(text + #"{"jsonrpc":"2.0","id":4,"#)
        #expect(try h.readLines().map { $0["id"] ?? .null } == [1, 2, 3])
        try h.channel.writeInbound(#""method":"daemon.ping"}"# + "\n")
        #expect(try h.readLines().map { $0["id"] ?? .null } == [4])
    }

    @Test("a last line without its newline still counts when the peer closes")
    func lastLineAtEOF() throws {
        let h = try Harness()
        try h.channel.writeInbound(#"{"jsonrpc":"2.0","method":"scene.create","params":{"id":"eof","size":{"w":1,"h":1},"clock":"manual"}}"#)
        #expect(h.daemon.scenes.isEmpty)
        h.channel.close()
        #expect(h.daemon.scenes["eof"] != nil)
    }

    @Test("a line over the limit split across reads is refused once it passes the limit")
    func longLineAcrossReads() throws {
        let h = try Harness(maxLineBytes: 256)
        try h.channel.writeInbound(String(repeating: " ", count: 200))
        #expect(try h.readLines().isEmpty)
        #expect(h.channel.isActive)
        _ = try? h.channel.writeInbound(String(repeating: " ", count: 100))
        #expect(try h.readLines().first?["error"]?["code"] == -32004)
        #expect(!h.channel.isActive)
    }
}
