import SegueClient
import SegueJSON

/// What the runner needs of a connection to the daemon; `SegueClient` is the real one, tests use canned ones.
public protocol ScenarioConnection: AnyObject {
    /// Sends a request and waits for its response; events that arrive first are kept for `takeEvents`.
    func request(_ method: String, _ params: JSONObject?) throws(ClientError) -> JSONValue
    /// The events received since the last call, oldest first.
    func takeEvents() -> [JSONValue]
}

extension SegueClient: ScenarioConnection {
    public func request(_ method: String, _ params: JSONObject?) throws(ClientError) -> JSONValue {
        try call(method, params)
    }
}
