import SegueJSON
import Testing

@testable import SegueDaemon

/// Built from the JSON-RPC 2.0 specification's own examples (section 7), adapted to segued's methods.
@Suite("JSON-RPC 2.0 conformance")
struct JSONRPCConformanceTests {
    @Test("a call answers with the same id, string or number")
    func ids() throws {
        let h = try Harness()
        #expect(try h.call("daemon.ping", id: 1) == [["jsonrpc": "2.0", "id": 1, "result": "pong"]])
        #expect(try h.call("daemon.ping", id: "abc") == [["jsonrpc": "2.0", "id": "abc", "result": "pong"]])
    }

    @Test("invalid JSON is a parse error with id null, and the connection stays open")
    func parseError() throws {
        let h = try Harness()
        let lines = try h.send(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
        #expect(lines.count == 1)
        #expect(lines[0]["error"]?["code"] == -32700)
        #expect(lines[0]["id"] == .null)
        #expect(h.channel.isActive)
        #expect(try h.call("daemon.ping").last?["result"] == "pong")
    }

    @Test("invalid UTF-8 is a parse error")
    func invalidUTF8() throws {
        let h = try Harness()
        try h.channel.writeInbound(Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":""#.utf8) + [0xC3, 0x28] + Array("\"}}\n".utf8))
        let lines = try h.readLines()
        #expect(lines.first?["error"]?["code"] == -32700)
    }

    @Test("a request object with a wrong method type is an invalid request")
    func invalidRequest() throws {
        let h = try Harness()
        let lines = try h.send(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#)
        #expect(lines.first?["error"]?["code"] == -32600)
        let wrongVersion = try h.send(#"{"jsonrpc": "1.0", "method": "daemon.ping", "id": 3}"#)
        #expect(wrongVersion.first?["error"]?["code"] == -32600)
        #expect(wrongVersion.first?["id"] == 3)
        let badID = try h.send(#"{"jsonrpc": "2.0", "method": "daemon.ping", "id": {"a": 1}}"#)
        #expect(badID.first?["error"]?["code"] == -32600)
    }

    @Test("a non-existent method is -32601")
    func methodNotFound() throws {
        let h = try Harness()
        #expect(try h.errorCode("foobar") == -32601)
    }

    @Test("a batch that is not valid JSON is one parse error, not an array")
    func batchInvalidJSON() throws {
        let h = try Harness()
        let lines = try h.send("""
            [{"jsonrpc": "2.0", "method": "daemon.ping", "id": "1"},{"jsonrpc": "2.0", "method"]
            """)
        #expect(lines == [["jsonrpc": "2.0", "id": .null, "error": lines.first?["error"] ?? .null]])
        #expect(lines.first?["error"]?["code"] == -32700)
        #expect(try h.call("daemon.ping").last?["result"] == "pong")
    }

    @Test("an empty batch is one invalid-request error")
    func emptyBatch() throws {
        let h = try Harness()
        let lines = try h.send("[]")
        #expect(lines.count == 1)
        #expect(lines[0]["error"]?["code"] == -32600)
    }

    @Test("an invalid batch answers an error per element")
    func invalidBatch() throws {
        let h = try Harness()
        let lines = try h.send("[1,2,3]")
        #expect(lines.count == 1)
        let array = lines[0].arrayValue ?? []
        #expect(array.count == 3)
        #expect(array.allSatisfy { $0["error"]?["code"] == -32600 })
        let one = try h.send("[1]")
        #expect(one.first?.arrayValue?.count == 1)
    }

    @Test("a mixed batch answers the calls, not the notifications, in one array")
    func mixedBatch() throws {
        let h = try Harness()
        let lines = try h.send("""
            [{"jsonrpc":"2.0","method":"daemon.ping","id":"1"},{"jsonrpc":"2.0","method":"daemon.ping"},\
            {"jsonrpc":"2.0","method":"daemon.info","id":"2"},{"foo":"boo"},\
            {"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},\
            {"jsonrpc":"2.0","method":"daemon.ping","id":"9"}]
            """)
        #expect(lines.count == 1)
        let array = lines[0].arrayValue ?? []
        #expect(array.count == 5)
        #expect(array[0] == ["jsonrpc": "2.0", "id": "1", "result": "pong"])
        #expect(array[1]["id"] == "2" && array[1]["result"]?["api"] == 1)
        #expect(array[2]["error"]?["code"] == -32600 && array[2]["id"] == .null)
        #expect(array[3]["error"]?["code"] == -32601 && array[3]["id"] == "5")
        #expect(array[4]["result"] == "pong")
    }

    @Test("notifications, alone or in a batch, get no answer")
    func notifications() throws {
        let h = try Harness()
        #expect(try h.send(#"{"jsonrpc":"2.0","method":"daemon.ping"}"#).isEmpty)
        #expect(try h.send(#"[{"jsonrpc":"2.0","method":"daemon.ping"},{"jsonrpc":"2.0","method":"nope"}]"#).isEmpty)
    }

    @Test("by-position params are refused with -32602")
    func positionalParams() throws {
        let h = try Harness()
        let lines = try h.send(#"{"jsonrpc":"2.0","method":"daemon.ping","params":[1,2],"id":1}"#)
        #expect(lines.first?["error"]?["code"] == -32602)
    }

    @Test("a line over limits.max_line_bytes gets -32004, then the connection closes")
    func lineTooLong() throws {
        let h = try Harness(maxLineBytes: 256)
        try? h.channel.writeInbound(String(repeating: "x", count: 1000))
        let lines = try h.readLines()
        #expect(lines.first?["error"]?["code"] == -32004)
        #expect(lines.first?["error"]?["data"]?["limit"] == 256)
        #expect(!h.channel.isActive)
    }
}

