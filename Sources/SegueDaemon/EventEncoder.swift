import SegueJSON
import SegueKit

/// Writes an event's JSON-RPC notification line straight from the typed event: no JSON tree in between.
///
/// The text is byte for byte what `JSONValue.object(EngineEvent.params)` serializes to (the same key order, the
/// same number formatting: numbers go through `JSONValue.writeNumber`); `EventEncoderTests` hold the two equal for
/// every event type.
public enum EventEncoder {
    /// The whole line, without its newline: `{"jsonrpc":"2.0","method":"event","params":{…}}`.
    public static func writeLine(_ event: EngineEvent, to out: inout JSONOutput) {
        out.append(#"{"jsonrpc":"2.0","method":"event","params":"#)
        writeParams(event, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The `params` object: `seq`, `scene` (when there is one), `type`, `time`, then the event's own fields.
    static func writeParams(_ event: EngineEvent, to out: inout JSONOutput) {
        out.append(#"{"seq":"#)
        JSONValue.writeNumber(Double(event.seq), to: &out)
        if let scene = event.scene {
            out.append(#","scene":"#)
            JSONValue.writeString(scene, to: &out)
        }
        out.append(#","type":""#)
        writeTypeName(event.kind, to: &out)
        out.append(#"","time":"#)
        JSONValue.writeNumber(event.time, to: &out)
        writeFields(event.payload, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The type name, unquoted (the names need no escaping).
    static func writeTypeName(_ kind: EngineEvent.Kind, to out: inout JSONOutput) {
        var name = kind.name
        name.withUTF8 { out.append($0) }
    }

    /// Each field as `,"key":value`.
    static func writeFields(_ payload: EngineEvent.Payload, to out: inout JSONOutput) {
        switch payload {
        case .willMoveToParent(let vc, let parent), .didMoveToParent(let vc, let parent):
            string("vc", vc, to: &out)
            if let parent { string("parent", parent, to: &out) } else { out.append(#","parent":null"#) }
        case .viewWillAppear(let vc, let animated), .viewDidAppear(let vc, let animated),
            .viewWillDisappear(let vc, let animated), .viewDidDisappear(let vc, let animated):
            string("vc", vc, to: &out)
            bool("animated", animated, to: &out)
        case .transitionBegan(let b):
            string("transition", b.transition, to: &out)
            string("kind", b.kind.rawValue, to: &out)
            string("from", b.from, to: &out)
            string("to", b.to, to: &out)
            string("animator", b.animator, to: &out)
            bool("interactive", b.interactive, to: &out)
            number("duration", b.duration, to: &out)
        case .transitionUpdated(let transition, let percent):
            string("transition", transition, to: &out)
            number("percent", percent, to: &out)
        case .interactionEnded(let transition, let cancelled, let velocity):
            string("transition", transition, to: &out)
            bool("cancelled", cancelled, to: &out)
            number("completion_velocity", velocity, to: &out)
        case .transitionCompleted(let c):
            string("transition", c.transition, to: &out)
            bool("completed", c.completed, to: &out)
            bool("forced", c.forced, to: &out)
            if c.skipped {
                out.append(#","skipped":true"#)
                if let reason = c.reason { string("reason", reason, to: &out) }
            }
        case .failedOver(let transition, let animator, let reason):
            string("transition", transition, to: &out)
            string("animator", animator, to: &out)
            string("reason", reason, to: &out)
        case .watchdog(let transition, let animator):
            string("transition", transition, to: &out)
            string("animator", animator, to: &out)
        case .pluginLoaded(let name, let file), .pluginUnloaded(let name, let file):
            string("name", name, to: &out)
            string("file", file, to: &out)
        case .pluginFailed(let name, let file, let error):
            string("name", name, to: &out)
            string("file", file, to: &out)
            string("error", error, to: &out)
        case .pluginWarning(let name, let file, let message):
            string("name", name, to: &out)
            if let file { string("file", file, to: &out) }
            string("message", message, to: &out)
        case .log(let level, let plugin, let message):
            string("level", level, to: &out)
            if let plugin { string("plugin", plugin, to: &out) }
            string("message", message, to: &out)
        case .frame(let views):
            out.append(#","views":["#)
            var first = true
            for view in views {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeFrameView(view, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .eventsDropped(let count, let types):
            number("count", Double(count), to: &out)
            out.append(#","types":["#)
            for (i, type) in types.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(type, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// One view of a frame event: `id`, then what changed, in the protocol's order.
    static func writeFrameView(_ view: FrameView, to out: inout JSONOutput) {
        out.append(#"{"id":"#)
        JSONValue.writeString(view.id, to: &out)
        let changes = view.changes
        if view.sendsFrame {
            out.append(#","frame":"#)
            writeRect(view.frame, to: &out)
            if changes.contains(.bounds) {
                out.append(#","bounds":"#)
                writeRect(view.bounds, to: &out)
            }
        }
        if changes.contains(.alpha) { number("alpha", view.alpha, to: &out) }
        if changes.contains(.transform) {
            out.append(#","transform":"#)
            writeTransform(view.transform, to: &out)
        }
        if changes.contains(.color) { string("color", view.color.hex, to: &out) }
        if changes.contains(.cornerRadius) { number("corner_radius", view.cornerRadius, to: &out) }
        if changes.contains(.z) { number("z", view.z, to: &out) }
        if changes.contains(.hidden) { bool("hidden", view.hidden, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// `{x, y, w, h}`.
    static func writeRect(_ r: Rect, to out: inout JSONOutput) {
        out.append(#"{"x":"#)
        JSONValue.writeNumber(r.x, to: &out)
        out.append(#","y":"#)
        JSONValue.writeNumber(r.y, to: &out)
        out.append(#","w":"#)
        JSONValue.writeNumber(r.w, to: &out)
        out.append(#","h":"#)
        JSONValue.writeNumber(r.h, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{a, b, c, d, tx, ty}` when the matrix is affine, else `{m: [16]}` (`Shapes.transform`).
    static func writeTransform(_ t: Transform3D, to out: inout JSONOutput) {
        if t.isAffine {
            let a = t.affine
            out.append(#"{"a":"#)
            JSONValue.writeNumber(a.a, to: &out)
            out.append(#","b":"#)
            JSONValue.writeNumber(a.b, to: &out)
            out.append(#","c":"#)
            JSONValue.writeNumber(a.c, to: &out)
            out.append(#","d":"#)
            JSONValue.writeNumber(a.d, to: &out)
            out.append(#","tx":"#)
            JSONValue.writeNumber(a.tx, to: &out)
            out.append(#","ty":"#)
            JSONValue.writeNumber(a.ty, to: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        out.append(#"{"m":["#)
        withUnsafeBytes(of: t.m) { raw in
            for (i, value) in raw.bindMemory(to: Double.self).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeNumber(value, to: &out)
            }
        }
        out.append("]}")
    }

    private static func string(_ key: StaticString, _ value: String, to out: inout JSONOutput) {
        writeKey(key, to: &out)
        JSONValue.writeString(value, to: &out)
    }

    private static func number(_ key: StaticString, _ value: Double, to out: inout JSONOutput) {
        writeKey(key, to: &out)
        JSONValue.writeNumber(value, to: &out)
    }

    private static func bool(_ key: StaticString, _ value: Bool, to out: inout JSONOutput) {
        writeKey(key, to: &out)
        out.append(value ? "true" : "false")
    }

    /// `,"key":`.
    @inline(__always)
    private static func writeKey(_ key: StaticString, to out: inout JSONOutput) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(key)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }
}
