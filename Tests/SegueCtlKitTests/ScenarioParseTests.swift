import SegueCtlKit
import SegueJSON
import Testing

@Suite("Scenario files")
struct ScenarioParseTests {
    @Test("a minimal scenario gets the default scene, subscription and tolerance")
    func defaults() throws {
        let scenarios = try Scenario.parse(text: #"{"name": "n", "steps": [{"call": "daemon.ping"}]}"#)
        #expect(scenarios.count == 1)
        let s = scenarios[0]
        #expect(s.scene == Scenario.defaultScene)
        #expect(s.subscribe == ["lifecycle", "transition"])
        #expect(s.tolerance == 1e-6)
        #expect(s.steps[0].method == "daemon.ping" && s.steps[0].number == 1)
    }

    @Test("every key of a step is read; an event type string is shorthand for {type}")
    func fullStep() throws {
        let text = """
            {"name": "n", "scene": {"size": {"w": 100, "h": 200}, "fps": 120}, "tolerance": 0.01, "subscribe": ["*"],
             "steps": [{"call": "container.select", "params": {"container": "c"}, "expect": {"a": 1},
                        "capture": {"t": "transition", "v": "views.subviews.0.id"},
                        "events": ["transition.began", {"type": "x", "vc": "a"}], "all_events": [],
                        "tolerance": 0.5, "note": "why"}]}
            """
        let s = try #require(try Scenario.parse(text: text).first)
        #expect(s.scene["size"] == ["w": 100, "h": 200] && s.scene["clock"] == "manual" && s.scene["fps"] == 120)
        #expect(s.subscribe == ["*"] && s.tolerance == 0.01)
        let step = s.steps[0]
        #expect(step.params == ["container": "c"])
        #expect(step.capture.map(\.name) == ["t", "v"])
        #expect(step.capture.map(\.path.description) == ["transition", "views.subviews.0.id"])
        #expect(step.events == [["type": "transition.began"], ["type": "x", "vc": "a"]])
        #expect(step.allEvents == [])
        #expect(step.tolerance == 0.5 && step.note == "why")
    }

    @Test("invalid JSON is reported with its line and column")
    func jsonPosition() {
        let error = #expect(throws: ScenarioError.self) { try Scenario.parse(text: "{\"name\": \"n\",\n  \"steps\": [}, ]}") }
        #expect(error?.message.hasPrefix("not valid JSON: ") == true)
        #expect(error?.message.hasSuffix(" at line 2, column 13") == true, "\(String(describing: error))")
    }

    @Test("a file may hold an array of scenarios")
    func arrayOfScenarios() throws {
        let text = #"[{"name": "a", "steps": [{"call": "x"}]}, {"name": "b", "steps": [{"call": "y"}]}]"#
        #expect(try Scenario.parse(text: text, file: "f.json").map(\.name) == ["a", "b"])
    }

    @Test("mistakes in a file are refused with a message that points at them",
          arguments: [
            (#"{"name": "n", "steps": [{"call": "x", "expcet": 1}]}"#, "step 1: unknown key 'expcet' (did you mean 'expect'?)"),
            (#"{"name": "n", "steps": []}"#, "'steps' (a non-empty array) is required"),
            (#"{"steps": [{"call": "x"}]}"#, "'name'"),
            (#"{"name": "n", "scene": {"id": "main"}, "steps": [{"call": "x"}]}"#, "'scene.id'"),
            (#"{"name": "n", "steps": [{"call": "x", "expect": 1, "error": {"code": 1}}]}"#, "exclude each other"),
            (#"{"name": "n", "steps": [{"call": "x", "error": {"message": "m"}}]}"#, "integer 'code'"),
            (#"{"name": "n", "steps": [{"call": "x", "capture": {"t": "a..b"}}]}"#, "capture 't'"),
            (#"{"name": "n", "steps": [{"call": "x", "events": [1]}]}"#, "each event"),
            (#"{"name": "n", "tolerance": -1, "steps": [{"call": "x"}]}"#, "'tolerance'"),
            (#"[{"name": "a", "steps": [{"call": "x"}]}, {"name": "b", "step": []}]"#, "scenario 2: unknown key 'step' (did you mean 'steps'?)"),
            (#"{"name": "n", "steps": [{"params": {}}]}"#, "'call'"),
            ("{not json", "not valid JSON"),
            ("[]", "empty array"),
            ("42", "not number"),
          ])
    func refused(text: String, message: String) {
        let error = #expect(throws: ScenarioError.self) { try Scenario.parse(text: text) }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
