import SegueJSON
import SegueKit

/// The result of a request that may start a transition (`transition_start` in docs/PROTOCOL.md): the transition's
/// id, animator, duration and state; for a queued request its future id, `"animator":null`, `"duration":0` and
/// `"state":"queued"`; `{"animator":null,"duration":0}` when there was nothing to do.
extension TransitionStart {
    func write(to out: inout JSONOutput) {
        if let t = transition {
            out.append(#"{"transition":"#)
            JSONValue.writeString(t.id, to: &out)
            out.append(#","animator":"#)
            JSONValue.writeString(t.animatorName, to: &out)
            out.append(#","duration":"#)
            JSONValue.writeNumber(t.duration, to: &out)
            out.append(#","state":"#)
            JSONValue.writeString(t.state.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        } else if let queued = queuedID {
            out.append(#"{"transition":"#)
            JSONValue.writeString(queued, to: &out)
            out.append(#","animator":null,"duration":0,"state":"queued"}"#)
        } else {
            out.append(#"{"animator":null,"duration":0}"#)
        }
    }

}
