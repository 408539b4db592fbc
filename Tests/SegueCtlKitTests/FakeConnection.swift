import SegueClient
import SegueCtlKit
import SegueJSON

/// A daemon in a box: answers each request from a handler and queues the events the handler says it caused.
final class FakeConnection: ScenarioConnection {
    typealias Handler = (String, JSONObject?) -> (Result<JSONValue, ClientError>, [JSONValue])

    var handler: Handler
    /// Every request, in order, with its params after substitution.
    var requests: [(method: String, params: JSONObject?)] = []
    private var pending: [JSONValue] = []

    init(_ handler: @escaping Handler) { self.handler = handler }

    func request(_ method: String, _ params: JSONObject?) throws(ClientError) -> JSONValue {
        requests.append((method, params))
        let (result, events) = handler(method, params)
        pending += events
        return try result.get()
    }

    func takeEvents() -> [JSONValue] {
        defer { pending.removeAll() }
        return pending
    }

    var methods: [String] { requests.map(\.method) }
}

/// A scenario from its JSON text; the test fails (and a dummy is returned) if it does not parse.
func scenario(_ text: String) throws -> Scenario {
    guard let first = try Scenario.parse(text: text, file: "test.json").first else { throw ScenarioError("empty") }
    return first
}
