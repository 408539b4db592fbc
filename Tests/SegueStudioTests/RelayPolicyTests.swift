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
        #expect(policy.scenes.isEmpty && policy.pendingScenes == ["studio-1"])
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":1,"result":{"scene":"studio-1"}}"#)
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
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":1,"result":{"scene":"studio-1"}}"#)
        policy.forgetScenes()
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":2,"method":"scene.tree","params":{"scene":"studio-1"}}"#)) == -32602)
    }

    @Test("a scene.create the daemon refuses (another client's id) does not make the scene the page's")
    func refusedCreate() {
        var policy = RelayPolicy()
        let tree = #"{"jsonrpc":"2.0","id":9,"method":"scene.tree","params":{"scene":"studio-taken"}}"#
        _ = policy.admit(#"{"jsonrpc":"2.0","id":"c1","method":"scene.create","params":{"id":"studio-taken"}}"#)
        _ = policy.admit(#"{"jsonrpc":"2.0","id":2,"method":"scene.create","params":{"id":"studio-mine"}}"#)
        // Events and other answers leave the claims as they are.
        policy.daemonSaid(#"{"jsonrpc":"2.0","method":"event","params":{"type":"frame"}}"#)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"x"}}"#)
        #expect(policy.scenes.isEmpty && policy.pendingScenes == ["studio-taken", "studio-mine"])
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":"c1","error":{"code":-32602,"message":"scene exists"}}"#)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":2,"result":{"id":"studio-mine"}}"#)
        #expect(policy.scenes == ["studio-mine"])
        #expect(code(policy.admit(tree)) == -32602)
        // A second create of a scene the page has already: its refusal does not take the scene away.
        _ = policy.admit(#"{"jsonrpc":"2.0","id":3,"method":"scene.create","params":{"id":"studio-mine"}}"#)
        policy.daemonSaid(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"scene exists"}}"#)
        #expect(policy.scenes == ["studio-mine"])
        // A create with no id would never learn its answer: refused.
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","method":"scene.create","params":{"id":"studio-n"}}"#)) == -32600)
        #expect(!policy.scenes.contains("studio-n"))
    }

    @Test("daemon.metrics is not relayed: harmless to read, but its counts are the whole daemon's, not the page's")
    func metricsNotRelayed() {
        var policy = RelayPolicy()
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":1,"method":"daemon.metrics"}"#)) == -32601)
        #expect(code(policy.admit(#"{"jsonrpc":"2.0","id":2,"method":"daemon.stats"}"#)) == -32601)
    }
}
