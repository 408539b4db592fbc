import SegueJSON
import Testing

@testable import SegueStudio

@Suite("What the studio relays to the daemon")
struct RelayPolicyTests {
    func code(_ admission: RelayPolicy.Admission) -> Int? {
        guard case .refuse(let line) = admission else { return nil }
        return (try? JSONParser.parse(line))?["error"]?["code"]?.intValue
    }

    @Test("a studio scene's requests go through unchanged; scene.destroy forgets it")
    func forwards() {
        var policy = RelayPolicy()
        let create = #"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"studio-1","clock":"manual"}}"#
        #expect(policy.admit(create) == .forward(create))
        #expect(policy.scenes == ["studio-1"])
        let advance = #"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"scene":"studio-1","ms":16}}"#
        #expect(policy.admit(advance) == .forward(advance))
        let list = #"{"jsonrpc":"2.0","id":3,"method":"plugins.list"}"#
        #expect(policy.admit(list) == .forward(list))
        let spec = #"{"jsonrpc":"2.0","id":4,"method":"render.filmstrip","params":{"spec":{"animator":"flip"}}}"#
        #expect(policy.admit(spec) == .forward(spec))
        _ = policy.admit(#"{"jsonrpc":"2.0","id":5,"method":"scene.destroy","params":{"scene":"studio-1"}}"#)
        #expect(policy.scenes.isEmpty)
        #expect(code(policy.admit(advance)) == -32602)
    }

    @Test("methods a page does not need, other clients' scenes, batches and bad JSON are answered by the studio")
    func refuses() {
        var policy = RelayPolicy()
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"daemon.shutdown"}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"plugins.reload"}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"main"}}"#)) == -32602)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{}}"#)) == -32602)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.tree","params":{"scene":"main"}}"#)) == -32602)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.use","params":{}}"#)) == -32602)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.destroy","params":{"scene":5}}"#)) == -32602)
        #expect(code(policy.admit(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}]"#)) == -32600)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1}"#)) == -32600)
        #expect(code(policy.admit("{nope")) == -32700)
        // The answer carries the request's id.
        guard case .refuse(let line) = policy.admit(#"{"jsonrpc":"2.0","id":"x7","method":"daemon.shutdown"}"#) else {
            Issue.record("not refused")
            return
        }
        #expect((try? JSONParser.parse(line))?["id"] == "x7")
    }

    @Test("after the daemon restarts, the page's old scenes are forgotten")
    func forgets() {
        var policy = RelayPolicy()
        _ = policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"studio-1"}}"#)
        policy.forgetScenes()
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":2,"method":"scene.tree","params":{"scene":"studio-1"}}"#)) == -32602)
    }
}
