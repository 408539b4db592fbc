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
        case .pluginWarning(let name, let file, let message, let line, let code):
            string("name", name, to: &out)
            if let code { string("code", code.rawValue, to: &out) }
            if let file { string("file", file, to: &out) }
            if let line { number("line", Double(line), to: &out) }
            string("message", message, to: &out)
        case .log(let level, let plugin, let message):
            string("level", level, to: &out)
            if let plugin { string("plugin", plugin, to: &out) }
            string("message", message, to: &out)
        case .frame(let views):
            writeFrame(views, to: &out)
        case .traitsChanged(let traits, let previous):
            string("horizontal", traits.horizontal.rawValue, to: &out)
            string("vertical", traits.vertical.rawValue, to: &out)
            out.append(#","previous":{"horizontal":"#)
            JSONValue.writeString(previous.horizontal.rawValue, to: &out)
            out.append(#","vertical":"#)
            JSONValue.writeString(previous.vertical.rawValue, to: &out)
            out.append(UInt8(ascii: "}"))
        case .viewWillTransitionToSize(let vc, let size, let duration):
            string("vc", vc, to: &out)
            out.append(#","size":{"w":"#)
            JSONValue.writeNumber(size.w, to: &out)
            out.append(#","h":"#)
            JSONValue.writeNumber(size.h, to: &out)
            out.append(UInt8(ascii: "}"))
            number("duration", duration, to: &out)
        case .sheetDetentChanged(let presented, let detent):
            string("presented", presented, to: &out)
            string("detent", detent, to: &out)
        case .sheetDismissAttempted(let presented):
            string("presented", presented, to: &out)
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

    /// `,"views":[…]`: each view's `id`, then what changed, in the protocol's order, read from the packed values.
    ///
    /// The hot path of a subscribed scene (thousands of views per tick): the fixed text of a view goes in after one
    /// `reserve`, numbers are printed straight into `out` (`JSONOutput.appendNumber`), and a property's kind and key
    /// come from flat tables fetched once per frame (`ViewPropertyLayout`, `FrameKeys`).
    static func writeFrame(_ views: FrameViews, to out: inout JSONOutput) {
        out.append(#","views":["#)
        let layout = ViewPropertyLayout.shared
        let keys = FrameKeys.shared
        views.ids.withUnsafeBufferPointer { ids in
            views.entries.withUnsafeBufferPointer { entries in
                views.values.withUnsafeBufferPointer { values in
                    for index in 0..<ids.count {
                        var id = ids[index]
                        id.withUTF8 { utf8 in
                            // An escaped byte takes at most 6 (`\u00XX`); the punctuation around it 9.
                            out.reserve(16 + 6 * utf8.count)
                            if index > 0 { out.appendReserved(UInt8(ascii: ",")) }
                            out.appendReserved(#"{"id":""#)
                            out.appendEscapedReserved(utf8)
                            out.appendReserved(UInt8(ascii: "\""))
                        }
                        writeFrameValues(entries[index], values, layout, keys, to: &out)
                    }
                }
            }
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"x":…,"y":…,"w":…,"h":…}` from four packed values (a view's frame and every rect property alike); the
    /// caller reserved the room.
    @inline(__always)
    private static func appendRect(_ values: UnsafeBufferPointer<Double>, at i: Int, to out: inout JSONOutput) {
        out.appendReserved(#"{"x":"#)
        out.appendNumber(values[i])
        out.appendReserved(#","y":"#)
        out.appendNumber(values[i + 1])
        out.appendReserved(#","w":"#)
        out.appendNumber(values[i + 2])
        out.appendReserved(#","h":"#)
        out.appendNumber(values[i + 3])
        out.appendReserved(UInt8(ascii: "}"))
    }

    /// A view's fields after its id, and its closing brace: the frame, then each changed property that frame
    /// events carry, in change-flag order, in the shape of its kind (`ViewProperty.info`, through `layout`).
    ///
    /// One loop over the change bits with its counters in locals: the nested functions and the per-property
    /// closure this was written with made Swift check exclusive access to the captured counter and output at run
    /// time, per number.
    @inline(__always)
    private static func writeFrameValues(_ entry: FrameViews.Entry, _ values: UnsafeBufferPointer<Double>,
                                         _ layout: ViewPropertyLayout, _ keys: FrameKeys,
                                         to out: inout JSONOutput) {
        // Room for all a view's fixed text with its numbers (24 bytes each at most): the `appendReserved` pieces
        // between the numbers need no check of their own.
        out.reserve(keys.room)
        var i = Int(entry.start)
        let changes = entry.changes.rawValue
        if changes & layout.frame != 0 {
            out.appendReserved(#","frame":"#)
            appendRect(values, at: i, to: &out)
            i += 4
        }
        var bits = changes & layout.sent
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            bits &= bits &- 1
            out.append(UnsafeBufferPointer(start: keys.bytes + keys.starts[bit], count: keys.starts[bit + 1] - keys.starts[bit]))
            switch layout.kinds[bit] {
            case .number:
                out.appendNumber(values[i])
                i += 1
            case .boolean:
                out.append(values[i] != 0 ? "true" : "false")
                i += 1
            case .point:
                out.appendReserved(#"{"x":"#)
                out.appendNumber(values[i])
                out.appendReserved(#","y":"#)
                out.appendNumber(values[i + 1])
                out.appendReserved(UInt8(ascii: "}"))
                i += 2
            case .size:
                out.appendReserved(#"{"w":"#)
                out.appendNumber(values[i])
                out.appendReserved(#","h":"#)
                out.appendNumber(values[i + 1])
                out.appendReserved(UInt8(ascii: "}"))
                i += 2
            case .rect:
                appendRect(values, at: i, to: &out)
                i += 4
            case .transform:
                if entry.affine.rawValue & (1 << UInt64(bit)) != 0 {
                    out.appendReserved(#"{"a":"#)
                    out.appendNumber(values[i])
                    out.appendReserved(#","b":"#)
                    out.appendNumber(values[i + 1])
                    out.appendReserved(#","c":"#)
                    out.appendNumber(values[i + 2])
                    out.appendReserved(#","d":"#)
                    out.appendNumber(values[i + 3])
                    out.appendReserved(#","tx":"#)
                    out.appendNumber(values[i + 4])
                    out.appendReserved(#","ty":"#)
                    out.appendNumber(values[i + 5])
                    out.appendReserved(UInt8(ascii: "}"))
                    i += 6
                } else {
                    out.appendReserved(#"{"m":["#)
                    for k in 0..<16 {
                        if k > 0 { out.append(UInt8(ascii: ",")) }
                        out.appendNumber(values[i + k])
                    }
                    out.append("]}")
                    i += 16
                }
            case .color:
                let color = Color(r: values[i], g: values[i + 1], b: values[i + 2], a: values[i + 3])
                i += 4
                JSONValue.writeString(color.hex, to: &out)
            case .colorList, .numberList, .gradientType:
                // A gradient view's part (only gradient views have these bits): a list as its length, then its values.
                i = writeGradientPart(layout.kinds[bit], values, at: i, to: &out)
                out.reserve(keys.room)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A gradient part from the packed values at `i` (`FrameViews.appendGradient`): colours as `["#rrggbb", …]`,
    /// locations as `[…]` or null (evenly spaced), the type as its name; returns the index after it.
    private static func writeGradientPart(_ kind: ViewValueKind, _ values: UnsafeBufferPointer<Double>, at start: Int,
                                          to out: inout JSONOutput) -> Int {
        var i = start
        switch kind {
        case .gradientType:
            JSONValue.writeString((GradientType(code: values[i]) ?? .axial).rawValue, to: &out)
            return i + 1
        case .colorList:
            let n = Int(values[i])
            i += 1
            out.append(UInt8(ascii: "["))
            for k in 0..<n {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(Color(r: values[i], g: values[i + 1], b: values[i + 2], a: values[i + 3]).hex, to: &out)
                i += 4
            }
            out.append(UInt8(ascii: "]"))
            return i
        default:
            let n = Int(values[i])
            i += 1
            if n == 0 {
                out.append("null")
                return i
            }
            out.append(UInt8(ascii: "["))
            for k in 0..<n {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeNumber(values[i], to: &out)
                i += 1
            }
            out.append(UInt8(ascii: "]"))
            return i
        }
    }

    /// `,"name":` of each property, by raw value, end to end in storage made once and never freed (a copy of this
    /// value is two pointers and a count: no reference counting per use).
    struct FrameKeys: @unchecked Sendable {
        let bytes: UnsafePointer<UInt8>
        /// Where each property's key starts in `bytes`, by raw value; one more entry for the end of the last.
        let starts: UnsafePointer<Int>
        /// The most bytes a view's fields after its id take: every key, 24 per number, and the punctuation.
        let room: Int

        static let shared = FrameKeys()

        private init() {
            let keys = ViewProperty.allCases.map { Array(#","\#($0.name)":"#.utf8) }
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: keys.reduce(0) { $0 + $1.count })
            let starts = UnsafeMutablePointer<Int>.allocate(capacity: keys.count + 1)
            var at = 0
            for (k, key) in keys.enumerated() {
                starts[k] = at
                for byte in key {
                    bytes[at] = byte
                    at += 1
                }
            }
            starts[keys.count] = at
            self.bytes = UnsafePointer(bytes)
            self.starts = UnsafePointer(starts)
            room = 64 + at + 32 * (4 + ViewProperty.allCases.reduce(0) { $0 + $1.count })
        }
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
