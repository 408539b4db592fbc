import SegueJSON
import SegueKit

/// What a method answers: a JSON value, or the transition a transition-starting method started (or queued), which
/// the response writes straight from its fields (`TransitionStart+JSON.swift`) — no object built and taken apart on
/// the busiest request there is — and which `startFromGesture` reads as the transition itself.
enum MethodResult {
    case value(JSONValue)
    case started(TransitionStart)

    /// The result as JSON text, after `"result":`.
    func write(to out: inout JSONOutput) {
        switch self {
        case .value(let value): value.write(to: &out)
        case .started(let start): start.write(to: &out)
        }
    }
}
