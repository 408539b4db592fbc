import SegueClient
import SegueCtlKit
import SegueJSON
import Testing

@Suite("Running scenarios against a canned daemon")
struct ScenarioRunnerTests {
    /// A daemon whose container.select starts t-1 with the four will-calls and transition.began.
    static func daemon() -> FakeConnection {
        FakeConnection { method, params in
            switch method {
            case "container.select":
                if params?["container"] != "tabs" {
                    return (.failure(.rpc(code: -32001, message: "no container with id 'nope'",
                                          data: ["kind": "not_found", "param": "container", "id": "nope"])), [])
                }
                return (.success(["transition": "t-1", "animator": "dt-slide", "duration": 0.28]), [
                    ["seq": 1, "type": "vc.will_move_to_parent", "vc": "a", "parent": nil],
                    ["seq": 2, "type": "vc.will_move_to_parent", "vc": "b", "parent": "tabs"],
                    ["seq": 3, "type": "vc.view_will_disappear", "vc": "a"],
                    ["seq": 4, "type": "vc.view_will_appear", "vc": "b"],
                    ["seq": 5, "type": "transition.began", "transition": "t-1"],
                ])
            case "transition.get":
                return (.success(["transition": params?["transition"] ?? nil, "state": "completed", "percent": 1]), [])
            case "scene.create":
                return (.success(["scene": params?["id"] ?? "other"]), [])
            default:
                return (.success(["ok": true]), [])
            }
        }
    }

    func run(_ text: String, on connection: FakeConnection = daemon()) throws -> (ScenarioResult, FakeConnection) {
        let runner = ScenarioRunner { () throws(ClientError) in connection }
        return (runner.run(try scenario(text)), connection)
    }

    @Test("a passing scenario: scene made, subscribed, steps run, scene destroyed")
    func passes() throws {
        let (result, daemon) = try run("""
            {"name": "ok", "steps": [
              {"call": "container.select", "params": {"container": "tabs", "index": 1},
               "expect": {"animator": "dt-slide", "duration": 0.2800001}, "capture": {"t": "transition"},
               "events": [{"type": "vc.will_move_to_parent", "vc": "a", "parent": null}, "transition.began"]},
              {"call": "transition.get", "params": {"transition": "${t}"}, "expect": {"transition": "${t}", "state": "completed"}}
            ]}
            """)
        #expect(result.passed, "\(result.text)")
        #expect(result.stepsRun == 2)
        #expect(daemon.methods == ["scene.create", "events.subscribe", "container.select", "transition.get", "scene.destroy"])
        let sceneID = try #require(daemon.requests[0].params?["id"]?.stringValue)
        #expect(sceneID.hasPrefix("scn-"))
        #expect(daemon.requests[0].params?["clock"] == "manual")
        #expect(daemon.requests[1].params == ["scene": .string(sceneID), "types": ["lifecycle", "transition"]])
        #expect(daemon.requests[3].params == ["transition": "t-1"])
        #expect(daemon.requests[4].params == ["scene": .string(sceneID)])
        #expect(result.text == "PASS  ok")
    }

    @Test("each scenario gets a scene of its own, and ${scene} names it")
    func uniqueScenes() throws {
        let daemon = Self.daemon()
        let runner = ScenarioRunner { () throws(ClientError) in daemon }
        let s = try scenario(#"{"name": "s", "steps": [{"call": "vc.get", "params": {"scene": "${scene}", "vc": "a"}}]}"#)
        _ = runner.run(s)
        _ = runner.run(s)
        let created = daemon.requests.filter { $0.method == "scene.create" }.compactMap { $0.params?["id"] }
        let used = daemon.requests.filter { $0.method == "vc.get" }.compactMap { $0.params?["scene"] }
        #expect(created.count == 2 && created[0] != created[1])
        #expect(used == created)
    }

    @Test("a wrong value fails the step with its path, what was expected and what came; later steps do not run")
    func wrongValue() throws {
        let (result, daemon) = try run("""
            {"name": "bad", "tolerance": 0.001, "steps": [
              {"call": "vc.create", "params": {"id": "a"}},
              {"call": "container.select", "params": {"container": "tabs", "index": 1}, "expect": {"duration": 0.3}, "note": "why"},
              {"call": "daemon.ping"}
            ]}
            """)
        let failure = try #require(result.failure)
        #expect(failure.step == 2 && failure.method == "container.select")
        #expect(failure.mismatches == [Mismatch(path: "result.duration", expected: "0.3", got: "0.28")])
        #expect(result.stepsRun == 2)
        #expect(!daemon.methods.contains("daemon.ping"))
        #expect(daemon.methods.last == "scene.destroy")
        #expect(result.text == """
            FAIL  bad  (test.json)
                  step 2 container.select (why):
                    result.duration: expected 0.3, got 0.28
            """)
    }

    @Test("an expected event that did not come is reported with the nearest one of its type and the step's events")
    func missingEvent() throws {
        let (result, _) = try run("""
            {"name": "ev", "steps": [
              {"call": "container.select", "params": {"container": "tabs", "index": 1},
               "events": ["vc.view_will_disappear", {"type": "vc.view_will_appear", "vc": "a"}]}
            ]}
            """)
        let failure = try #require(result.failure)
        #expect(failure.mismatches.map(\.path) == ["expected event 2"])
        #expect(failure.mismatches.first?.got == #"event 4 differs: vc: expected "a", got "b""#)
        #expect(failure.events.count == 5)
        #expect(result.text.contains("4: vc.view_will_appear vc=b"))
        #expect(!result.text.contains("seq="))
    }

    @Test("events out of order fail a subsequence match")
    func outOfOrder() throws {
        let (result, _) = try run("""
            {"name": "order", "steps": [{"call": "container.select", "params": {"container": "tabs", "index": 1},
              "events": ["transition.began", "vc.view_will_appear"]}]}
            """)
        #expect(result.failure?.mismatches.first?.got.contains("only earlier") == true, "\(result.text)")
    }

    @Test("all_events wants exactly the step's events")
    func allEvents() throws {
        let (exact, _) = try run("""
            {"name": "all", "steps": [{"call": "container.select", "params": {"container": "tabs", "index": 1},
              "all_events": ["vc.will_move_to_parent", "vc.will_move_to_parent", "vc.view_will_disappear",
                             "vc.view_will_appear", {"type": "transition.began", "transition": "t-1"}]}]}
            """)
        #expect(exact.passed, "\(exact.text)")
        let (missing, _) = try run("""
            {"name": "all", "steps": [{"call": "container.select", "params": {"container": "tabs", "index": 1},
              "all_events": ["vc.will_move_to_parent"]}]}
            """)
        #expect(missing.failure?.mismatches == [Mismatch(path: "events", expected: "1 events", got: "5")])
        let (none, _) = try run(#"{"name": "none", "steps": [{"call": "daemon.ping", "all_events": []}]}"#)
        #expect(none.passed)
    }

    @Test("an expected error matches on code, message substring and data")
    func expectedError() throws {
        let (ok, _) = try run("""
            {"name": "e", "steps": [{"call": "container.select", "params": {"container": "nope", "index": 0},
              "error": {"code": -32001, "message": "no container", "data": {"kind": "not_found", "param": "container"}}}]}
            """)
        #expect(ok.passed, "\(ok.text)")
        let (wrong, _) = try run("""
            {"name": "e", "steps": [{"call": "container.select", "params": {"container": "nope", "index": 0},
              "error": {"code": -32602, "message": "busy", "data": {"param": "index"}}}]}
            """)
        let paths = wrong.failure?.mismatches.map(\.path) ?? []
        #expect(paths == ["error.code", "error.message", "error.data.param"])
        #expect(wrong.failure?.mismatches.first?.got == "-32001 (no container with id 'nope')")
    }

    @Test("an error where a result was expected fails, and so does a result where an error was expected")
    func errorVersusResult() throws {
        let (unexpected, _) = try run(#"{"name": "u", "steps": [{"call": "container.select", "params": {"container": "nope"}}]}"#)
        #expect(unexpected.failure?.message?.hasPrefix("unexpected error -32001: no container with id 'nope'") == true)
        let (missing, _) = try run(#"{"name": "m", "steps": [{"call": "daemon.ping", "error": {"code": -32002}}]}"#)
        #expect(missing.failure?.mismatches.first?.path == "error")
        #expect(missing.failure?.mismatches.first?.expected == "error -32002")
    }

    @Test("capturing a path that is not in the result fails the step")
    func badCapture() throws {
        let (result, _) = try run(#"{"name": "c", "steps": [{"call": "daemon.ping", "capture": {"t": "transition"}}]}"#)
        #expect(result.failure?.mismatches.first?.path == "result.transition")
    }

    @Test("an unknown variable fails the step before anything is sent")
    func unknownVariable() throws {
        let (result, daemon) = try run(#"{"name": "v", "steps": [{"call": "transition.get", "params": {"transition": "${t}"}}]}"#)
        #expect(result.failure?.message?.contains("unknown variable ${t}") == true)
        #expect(!daemon.methods.contains("transition.get"))
    }

    @Test("a lost connection fails the scenario with the reason")
    func lostConnection() throws {
        let broken = FakeConnection { method, _ in
            method == "daemon.ping" ? (.failure(.connection("the daemon closed the connection")), []) : (.success(nil), [])
        }
        let (result, _) = try run(#"{"name": "l", "steps": [{"call": "daemon.ping"}]}"#, on: broken)
        #expect(result.failure?.message == "no answer: connection: the daemon closed the connection")
        let runner = ScenarioRunner { () throws(ClientError) in throw .connection("cannot connect") }
        #expect(runner.run(try scenario(#"{"name": "n", "steps": [{"call": "x"}]}"#)).failure?.message?.hasPrefix("could not connect") == true)
    }

    @Test("a scene a step creates is destroyed at the end too")
    func extraScenes() throws {
        let (result, daemon) = try run(#"{"name": "s", "steps": [{"call": "scene.create", "params": {"id": "extra"}}]}"#)
        #expect(result.passed)
        let destroyed = daemon.requests.filter { $0.method == "scene.destroy" }.compactMap { $0.params?["scene"]?.stringValue }
        #expect(destroyed.count == 2 && destroyed.last == "extra")
    }

    @Test("a report counts passes and failures; an unreadable file is one failure")
    func report() throws {
        let runner = ScenarioRunner { () throws(ClientError) in Self.daemon() }
        let report = runner.run(files: ["/nonexistent/x.json"])
        #expect(report.summary == "0 passed, 1 failed (1 could not run)")
        #expect(report.errors == 1 && report.json["errors"] == 1)
        #expect(report.text.contains("FAIL  /nonexistent/x.json\n      invalid scenario file: cannot read /nonexistent/x.json"))
        let mixed = ScenarioReport(results: [
            ScenarioResult(name: "a", file: nil, stepsRun: 1, failure: nil),
            ScenarioResult(name: "b", file: nil, stepsRun: 1, failure: ScenarioFailure(message: "x")),
        ])
        #expect(mixed.summary == "1 passed, 1 failed")
        #expect(mixed.json["failed"] == 1 && mixed.json["scenarios"]?.arrayValue?.count == 2)
    }
}
