import SegueJSON
import SegueVersion
import Testing

@testable import SegueStudio

/// Messages a hostile page sends to reach past its scenes or the methods it may use (issue 23's cases and their
/// neighbours), held to the policy alone (StudioServerTests sends some of them over the real sockets).
@Suite("What the studio's relay refuses from a hostile page")
struct RelayHostileTests {
    func refusal(_ admission: RelayPolicy.Admission) -> JSONValue? {
        guard case .refuse(let line) = admission else { return nil }
        return try? JSONParser.parse(line)
    }

    func code(_ admission: RelayPolicy.Admission) -> Int? { refusal(admission)?["error"]?["code"]?.intValue }

    /// A policy whose page owns `studio-a` (created and confirmed).
    func owning(_ scenes: String...) -> RelayPolicy {
        var policy = RelayPolicy()
        for (i, scene) in scenes.enumerated() {
            _ = policy.admit(#"{"jsonrpc":"2.0","id":"own\#(i)","method":"scene.create","params":{"id":"\#(scene)"}}"#)
            policy.daemonSaid(#"{"jsonrpc":"2.0","id":"own\#(i)","result":{"scene":"\#(scene)"}}"#)
        }
        return policy
    }

    @Test("a message with a raw LF or CR anywhere is refused whole, with the id as sent", arguments: [
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\",\"params\":\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"daemon.shutdown\"}\n}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"daemon.shutdown\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\"}\r{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"daemon.shutdown\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\"\r\n}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\r\"method\":\"daemon.ping\"}",
        "\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\"}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.tree\",\"params\":{\"scene\":\"studio-a\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"scene.destroy\",\"params\":{\"scene\":\"victim\"}}",
    ])
    func rawLineBreak(_ text: String) throws {
        var policy = owning("studio-a")
        let answer = try #require(refusal(policy.admit(text)))
        #expect(answer["error"]?["code"] == -32600)
        #expect(answer["error"]?["message"] == "raw line break in message")
        // When the whole is one JSON request its id is answered; otherwise null.
        #expect(answer["id"] == 1 || answer["id"] == .null)
        #expect(policy.scenes == ["studio-a"])
    }

    @Test("escaped line breaks inside strings are not raw: the message goes through as its own bytes")
    func escapedLineBreak() {
        var policy = owning("studio-a")
        let text = #"{"jsonrpc":"2.0","id":1,"method":"vc.create","params":{"scene":"studio-a","title":"a\nb\r\u000a"}}"#
        #expect(policy.admit(text) == .forward(text))
    }

    @Test("what is relayed is the page's text byte for byte: big ids, spacing, escapes, key order", arguments: [
        #"{"jsonrpc":"2.0","id":9007199254740993,"method":"daemon.ping"}"#,
        #"{"id":18446744073709551617,"method":"daemon.ping","jsonrpc":"2.0"}"#,
        "{ \"jsonrpc\" : \"2.0\" ,\t\"id\" : -0.0e-0 , \"method\" : \"daemon.ping\" }",
        #"{"jsonrpc":"2.0","id":"\u0041\ud83d\ude00","method":"plugins.list","params":{}}"#,
        #"{"jsonrpc":"2.0","id":1.0,"method":"daemon.ping","params":{"x":1e300}}"#,
    ])
    func unchanged(_ text: String) {
        var policy = RelayPolicy()
        #expect(policy.admit(text) == .forward(text))
    }

    @Test("a refusal carries a big id as the page wrote it")
    func bigIDInRefusal() throws {
        var policy = RelayPolicy()
        guard case .refuse(let line) = policy.admit(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"daemon.shutdown"}"#)
        else {
            Issue.record("not refused")
            return
        }
        #expect(line.hasPrefix(#"{"jsonrpc":"2.0","id":9007199254740993,"error":"#))
        guard case .refuse(let crlf) = policy.admit("{\"jsonrpc\":\"2.0\",\"id\":9007199254740995,\n\"method\":\"daemon.ping\"}")
        else {
            Issue.record("not refused")
            return
        }
        #expect(crlf.hasPrefix(#"{"jsonrpc":"2.0","id":9007199254740995,"error":"#))
    }

    @Test("scene.create then scene.destroy of another page's scene in one go: the destroy waits on the claim")
    func claimBeforeAnswer() throws {
        var policy = RelayPolicy()
        let create = #"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"studio-x"}}"#
        #expect(policy.admit(create) == .forward(create))
        for request in [
            #"{"jsonrpc":"2.0","id":2,"method":"scene.destroy","params":{"scene":"studio-x"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"scene.use","params":{"scene":"studio-x"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"clock.advance","params":{"scene":"studio-x","ms":5}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"scene.create","params":{"id":"studio-x"}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"gesture.pan","params":{"scene":"studio-x","phase":"began"}}"#,
        ] {
            let answer = try #require(refusal(policy.admit(request)))
            #expect(answer["error"]?["code"] == -32002)
            #expect(answer["error"]?["data"]?["param"] == "scene")
            let message = answer["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("pending scene.create") && message.contains("studio-x"))
        }
        // The daemon refuses the create (page A owns studio-x): the page never owns it.
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"scene 'studio-x' exists"}}"#)
        #expect(policy.scenes.isEmpty && policy.pendingScenes.isEmpty)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":7,"method":"scene.destroy","params":{"scene":"studio-x"}}"#))
                == -32602)
    }

    @Test("a create's id cannot be shared with another unanswered request, so no other answer confirms the claim")
    func claimIDUnique() throws {
        var policy = RelayPolicy()
        // A ping with id 5 sent first, then the create with id 5: the ping's answer would look like the create's.
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":5,"method":"daemon.ping"}"#)) == nil)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":5,"method":"scene.create","params":{"id":"studio-x"}}"#))
                == -32600)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":5.0,"method":"scene.create","params":{"id":"studio-x"}}"#))
                == -32600)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":5,"result":"pong"}"#)
        // Answered: the id is free again.
        let create = #"{"jsonrpc":"2.0","id":5,"method":"scene.create","params":{"id":"studio-x"}}"#
        #expect(policy.admit(create) == .forward(create))
        // And the other way round: while the create waits, no request may take its id.
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":5,"method":"daemon.ping"}"#)) == -32600)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":"x","method":"scene.create","params":{"id":"studio-y"}}"#))
                == nil)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":"x","method":"plugins.list"}"#)) == -32600)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":5,"result":{"scene":"studio-x"}}"#)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":"x","error":{"code":-32004,"message":"full"}}"#)
        #expect(policy.scenes == ["studio-x"])
    }

    @Test("gesture.pan's start naming another scene is refused; its own scene, or none, goes through")
    func nestedScene() throws {
        var policy = owning("studio-mine")
        func pan(_ start: String, scene: String = "studio-mine") -> String {
            #"{"jsonrpc":"2.0","id":1,"method":"gesture.pan","params":{"scene":"\#(scene)","phase":"began","start":\#(start)}}"#
        }
        for start in [
            #"{"method":"container.select","params":{"scene":"victim","container":"tabs","index":1,"interactive":"swipe-up"}}"#,
            #"{"method":"nav.push","params":{"scene":"studio-other","container":"nav","vc":"b","interactive":"x"}}"#,
            #"{"method":"container.select","params":{"scene":5,"container":"tabs"}}"#,
            #"{"method":"container.select","params":{"scene":null}}"#,
            #"{"method":"container.select","params":{"scene":"studio-mine","scene":"victim"}}"#,
        ] {
            let answer = try #require(refusal(policy.admit(pan(start))), "not refused: \(start)")
            #expect(answer["error"]?["code"] == -32602)
            #expect(answer["error"]?["data"]?["param"] == "start.params.scene")
        }
        for start in [
            #"{"method":"container.select","params":{"scene":"studio-mine","container":"tabs","index":1}}"#,
            #"{"method":"container.select","params":{"container":"tabs","index":1}}"#,
            #"{"method":"container.select","params":{"scene":"victim","scene":"studio-mine"}}"#,
            #"{"method":"container.select"}"#,
        ] {
            #expect(policy.admit(pan(start)) == .forward(pan(start)))
        }
        // The gesture's own scene is checked as before.
        #expect(code(policy.admit(pan(#"{"method":"container.select"}"#, scene: "victim"))) == -32602)
    }

    @Test("every method has one decision; an unknown method is refused; a nested path is checked wherever it is")
    func table() {
        #expect(RelayPolicy.rules["gesture.pan"]?.sceneFields == [["scene"], ["start", "params", "scene"]])
        #expect(RelayPolicy.rules["daemon.info"]?.route == .answeredByStudio)
        #expect(!RelayPolicy.methods.contains("daemon.info"))
        var policy = RelayPolicy()
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.frobnicate","params":{}}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"transition.wait","params":{}}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.list"}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"daemon.stats"}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":{"a":1},"method":"daemon.ping"}"#)) == -32600)
    }

    @Test("daemon.info is answered by the studio: version and api only; a notification gets no answer")
    func info() throws {
        var policy = RelayPolicy()
        guard case .answer(let line) = policy.admit(#"{"jsonrpc":"2.0","id":9007199254740993,"method":"daemon.info"}"#)
        else {
            Issue.record("not answered by the studio")
            return
        }
        #expect(line.hasPrefix(#"{"jsonrpc":"2.0","id":9007199254740993,"result":"#))
        let result = try JSONParser.parse(line)["result"]
        #expect(result == ["version": .string(SegueVersion.string), "api": 1])
        #expect(policy.admit(#"{"jsonrpc":"2.0","method":"daemon.info"}"#) == .drop)
        #expect(policy.admit(#"{"jsonrpc":"2.0","id":2,"method":"daemon.info","params":{}}"#) != .forward(""))
    }
}
