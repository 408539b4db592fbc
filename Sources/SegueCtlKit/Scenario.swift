import SegueKit
import SegueJSON

/// One scripted integration test: a fresh scene, then steps run in order on one connection.
///
/// See the README's "Scripted integration tests" for the file format; `Scenario.parse` is its definition.
public struct Scenario: Sendable {
    public var name: String
    /// The file it came from, for messages.
    public var file: String?
    /// `scene.create`'s parameters, without `id` (the runner picks a unique one).
    public var scene: JSONObject
    /// The event types the runner subscribes to for the scenario's scene.
    public var subscribe: [String]
    /// Absolute tolerance for numbers in `expect`, `events` and `error.data`.
    public var tolerance: Double
    public var steps: [ScenarioStep]

    public static let defaultScene: JSONObject = [
        "size": ["w": 320, "h": 480], "clock": "manual",
    ]
    public static let defaultSubscribe = ["lifecycle", "transition"]
    public static let defaultTolerance = 1e-6

    public init(name: String, file: String? = nil, scene: JSONObject = Scenario.defaultScene,
                subscribe: [String] = Scenario.defaultSubscribe, tolerance: Double = Scenario.defaultTolerance,
                steps: [ScenarioStep])
    {
        self.name = name
        self.file = file
        self.scene = scene
        self.subscribe = subscribe
        self.tolerance = tolerance
        self.steps = steps
    }

    static let keys = ["name", "scene", "subscribe", "tolerance", "steps", "description"]

    /// The scenarios in a file's text: one scenario object, or an array of them.
    public static func parse(text: String, file: String? = nil) throws(ScenarioError) -> [Scenario] {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(text)
        } catch {
            throw ScenarioError("not valid JSON: \(error.message) at \(position(ofByte: error.offset, in: text))")
        }
        return try parse(value, file: file)
    }

    public static func parse(_ value: JSONValue, file: String? = nil) throws(ScenarioError) -> [Scenario] {
        var out: [Scenario] = []
        for parsed in try parseEach(value, file: file) {
            switch parsed {
            case .valid(let scenario): out.append(scenario)
            case .invalid(_, let error): throw error
            }
        }
        return out
    }

    /// One scenario of a file as read: valid, or invalid with its name (its `name` when it has one, else
    /// `scenario N`, 1-based) and why. A mistake in one scenario leaves the others of its file valid.
    public enum Parsed: Sendable {
        case valid(Scenario)
        case invalid(name: String, error: ScenarioError)
    }

    /// The file's scenarios, each validated on its own; throws only for a file that holds no scenarios at all
    /// (not JSON, not an object or array, an empty array).
    public static func parseEach(text: String, file: String? = nil) throws(ScenarioError) -> [Parsed] {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(text)
        } catch {
            throw ScenarioError("not valid JSON: \(error.message) at \(position(ofByte: error.offset, in: text))")
        }
        return try parseEach(value, file: file)
    }

    public static func parseEach(_ value: JSONValue, file: String? = nil) throws(ScenarioError) -> [Parsed] {
        let list: [JSONValue]
        switch value {
        case .object: list = [value]
        case .array(let given):
            guard !given.isEmpty else { throw ScenarioError("the file holds an empty array: no scenarios") }
            list = given
        default:
            throw ScenarioError("a scenario file holds a scenario object or an array of them, not \(value.typeName)")
        }
        var out: [Parsed] = []
        for (i, element) in list.enumerated() {
            let at = list.count == 1 && value.arrayValue == nil ? "" : "scenario \(i + 1)"
            do throws(ScenarioError) {
                out.append(.valid(try parseOne(element, file: file, at: at)))
            } catch {
                let given = element["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                out.append(.invalid(name: given ?? "scenario \(i + 1)", error: error))
            }
        }
        return out
    }

    static func parseOne(_ value: JSONValue, file: String?, at where_: String) throws(ScenarioError) -> Scenario {
        let prefix = where_.isEmpty ? "" : where_ + ": "
        guard case .object(let o) = value else { throw ScenarioError("\(prefix)a scenario must be an object") }
        try checkKeys(o, allowed: keys, what: where_.isEmpty ? "scenario" : where_)
        guard let name = o["name"]?.stringValue, !name.isEmpty else {
            throw ScenarioError("\(prefix)'name' (a non-empty string) is required")
        }
        var scene = defaultScene
        if let given = o["scene"] {
            guard case .object(let s) = given else { throw ScenarioError("\(prefix)'scene' must be an object") }
            if s["id"] != nil {
                throw ScenarioError("\(prefix)'scene.id': the runner names the scene (unique per run); use ${scene}")
            }
            for (k, v) in s { scene[k] = v }
        }
        var subscribe = defaultSubscribe
        if let given = o["subscribe"] {
            guard case .array(let a) = given, a.allSatisfy({ $0.stringValue != nil }) else {
                throw ScenarioError("\(prefix)'subscribe' must be an array of event types or categories")
            }
            subscribe = a.compactMap(\.stringValue)
        }
        let tolerance = try parseTolerance(o["tolerance"], what: "\(prefix)'tolerance'") ?? defaultTolerance
        guard case .array(let list)? = o["steps"], !list.isEmpty else {
            throw ScenarioError("\(prefix)'steps' (a non-empty array) is required")
        }
        var steps: [ScenarioStep] = []
        for (i, step) in list.enumerated() {
            steps.append(try ScenarioStep.parse(step, number: i + 1, prefix: prefix))
        }
        return Scenario(name: name, file: file, scene: scene, subscribe: subscribe, tolerance: tolerance, steps: steps)
    }

    /// `line L, column C` (1-based, columns in bytes) of a byte offset.
    static func position(ofByte offset: Int, in text: String) -> String {
        var line = 1, column = 1
        for byte in text.utf8.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }

    static func parseTolerance(_ value: JSONValue?, what: String) throws(ScenarioError) -> Double? {
        guard let value else { return nil }
        guard let t = value.doubleValue, t >= 0, t.isFinite else {
            throw ScenarioError("\(what) must be a number ≥ 0")
        }
        return t
    }

    static func checkKeys(_ o: JSONObject, allowed: [String], what: String) throws(ScenarioError) {
        for key in o.keys where !allowed.contains(key) {
            let hint = NearestName.nearest(to: key, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScenarioError("\(what): unknown key '\(key)'\(hint); known: \(allowed.joined(separator: ", "))")
        }
    }
}
