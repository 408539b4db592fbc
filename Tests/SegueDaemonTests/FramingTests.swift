import SegueJSON
import Testing

@testable import SegueDaemon
@testable import SegueTransport

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

    @Test("a client that shuts down its sending side (as socat does) still gets every answer, even those the socket could not take at once; then the connection closes")
    func halfCloseGetsEveryAnswer() throws {
        let h = try Harness()
        let peer = h.channel
        peer.reading = false
        let pad = String(repeating: "p", count: 200)
        // About 750 KB of answers: more than the socket holds, less than the high watermark (reads never pause).
        let requests = (0..<3000).map { #"{"jsonrpc":"2.0","id":"\#(pad)\#($0)","method":"daemon.ping"}"# + "\n" }.joined()
        #expect(try peer.writeInbound(requests) == 0)
        peer.close()
        #expect(peer.isActive)  // still owed answers
        #expect(peer.connection.pendingBytes > 0)
        peer.reading = true
        let lines = try h.readLines()
        #expect(lines.map { $0["id"]?.stringValue ?? "" } == (0..<3000).map { "\(pad)\($0)" })
        #expect(!peer.isActive)
    }

    @Test("a client that sends transition.wait and shuts down its sending side gets the answer when the transition ends")
    func halfCloseWaitsForTransitionWait() throws {
        let h = try Harness()
        try h.setUpScene()
        let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"])
        let waiter = try Harness.connect(h.daemon)
        try waiter.writeInbound(#"{"jsonrpc":"2.0","id":5,"method":"transition.wait","params":{"scene":"main","transition":\#(t.serialized())}}"# + "\n")
        waiter.close()
        #expect(waiter.isActive)
        #expect(waiter.readOutbound() == nil)
        try h.call("clock.advance", ["ms": 1100])
        let answer = try #require(waiter.readOutbound()).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(answer == [["jsonrpc": "2.0", "id": 5, "result": ["ended": true, "state": "completed"]]])
        #expect(!waiter.isActive)
    }
}
