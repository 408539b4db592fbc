import SegueClient
import SegueCtlKit
import SegueJSON

/// Replays a golden case on one connection and records every line the daemon sends, in order.
///
/// The case's scene is `golden` (a fixed id, so records do not vary), made with the scenario's `scene` parameters
/// (a manual clock: every scenario and plugin case uses one; a realtime one would not replay the same), and
/// subscribed to every event type (`*`, frames included). Steps are replayed as ScenarioRunner does —
/// `${name}` substituted by ScenarioVariables, captures taken from results — but nothing is matched: the record is
/// the check. Errors are recorded like results. At the end the scene is destroyed (also recorded).
struct GoldenRecorder {
    static let sceneID = "golden"

    let client: SegueClient
    private(set) var lines: [GoldenLine] = []
    private var nextID = 1

    init(client: SegueClient) { self.client = client }

    /// Fields dropped from each line because they legitimately vary between runs. None so far: the scene id is
    /// fixed, each case has a daemon of its own (subscription numbers, scene-less `seq`), the clock is manual, and
    /// no case calls daemon.info/daemon.stats (pids, uptimes, paths, versions). Add a key here with the reason.
    static let varyingKeys: Set<String> = []

    static func record(_ golden: GoldenCase, socket: String) throws -> [GoldenLine] {
        var recorder = GoldenRecorder(client: try SegueClient(socketPath: socket))
        try recorder.run(golden.scenario)
        return recorder.lines
    }

    mutating func run(_ scenario: Scenario) throws {
        var create = scenario.scene
        create["id"] = .string(Self.sceneID)
        _ = try request("scene.create", create, cause: "setup scene.create")
        _ = try request("events.subscribe", ["scene": .string(Self.sceneID), "types": ["*"]],
                        cause: "setup events.subscribe")
        var variables = ScenarioVariables(["scene": .string(Self.sceneID)])
        for step in scenario.steps {
            let params = try step.params.map { (p) throws(ScenarioError) in try variables.substitute(p) }
            let response = try request(step.method, params, cause: "step \(step.number) \(step.method)")
            guard let result = response["result"] else { continue }
            for (name, path) in step.capture {
                if let value = path.value(in: result) { variables[name] = value }
            }
        }
        _ = try request("scene.destroy", ["scene": .string(Self.sceneID)], cause: "teardown scene.destroy")
    }

    /// Sends a request; records every line up to and including its response; returns the response.
    mutating func request(_ method: String, _ params: JSONObject?, cause: String) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var message = JSONObject([("jsonrpc", "2.0"), ("id", .number(Double(id))), ("method", .string(method))])
        if let params { message["params"] = .object(params) }
        try client.send(line: JSONValue.object(message).serialized())
        while true {
            guard let text = try client.readLine(timeoutMs: 20_000) else {
                throw ScenarioError("no response to \(cause) within 20 s")
            }
            let line = Self.dropVarying(try JSONParser.parse(text))
            lines.append(GoldenLine(value: line, cause: cause))
            if line["method"] == nil, line["id"]?.intValue == id { return line }
        }
    }

    static func dropVarying(_ value: JSONValue) -> JSONValue {
        guard !varyingKeys.isEmpty else { return value }
        switch value {
        case .object(let o):
            var out = JSONObject()
            for (key, element) in o where !varyingKeys.contains(key) { out[key] = dropVarying(element) }
            return .object(out)
        case .array(let a):
            return .array(a.map(dropVarying))
        default:
            return value
        }
    }
}
