/// A plugin's mistake that did not stop it (`plugin.warning`): what kind, the message, and where in the plugin's
/// file when known. `plugins.check` reports these as problems of severity `warning` (`raised_in_callback` as an
/// error); docs/PLUGIN_API.md lists the codes.
public struct PluginWarning: Sendable, Equatable {
    /// What kind of mistake; the raw value is the protocol's `code`.
    public enum Code: String, Sendable, CaseIterable {
        /// A name a host object or a description does not have (`to.alpah`, `durration`).
        case unknownName = "unknown_name"
        /// A curve name that is not one of the named curves.
        case unknownCurve = "unknown_curve"
        /// An option `segue.animate`, `segue.keyframes` or `segue.transition` does not read, or one that is ignored.
        case unknownOption = "unknown_option"
        /// A callback the host calls later (a timer, a completion, an interaction's or a presentation's callback)
        /// raised; the host went on.
        case raisedInCallback = "raised_in_callback"
        /// `complete` called again.
        case completedTwice = "completed_twice"
        /// Anything else (a duration clamped, a rule naming a plugin that is not loaded).
        case other = "warning"
    }

    public var code: Code
    public var message: String
    public var file: String?
    public var line: Int?

    public init(code: Code, message: String, file: String? = nil, line: Int? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// "X raised: …" for a callback's error whose message may already start with "X: " (the plugin layer names
    /// the function it called): said once, not "changed raised: changed: …".
    public static func raised(_ what: String, _ message: String) -> String {
        let prefix = what + ": "
        return what + " raised: " + (message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
    }

    /// The first `NAME.lua:LINE:` in an error message: where the plugin's code raised.
    public static func location(in message: String) -> (file: String, line: Int)? {
        let bytes = Array(message.utf8)
        var i = 0
        let suffix = Array(".lua:".utf8)
        while i + suffix.count <= bytes.count {
            guard bytes[i..<(i + suffix.count)].elementsEqual(suffix) else {
                i += 1
                continue
            }
            var start = i
            while start > 0, Self.isNameByte(bytes[start - 1]) { start -= 1 }
            var end = i + suffix.count
            var line = 0
            while end < bytes.count, bytes[end] >= 48, bytes[end] <= 57, line < 10_000_000 {
                line = line * 10 + Int(bytes[end] - 48)
                end += 1
            }
            if start < i, line > 0, end < bytes.count, bytes[end] == UInt8(ascii: ":") {
                return (String(decoding: bytes[start..<(i + 4)], as: UTF8.self), line)
            }
            i += 1
        }
        return nil
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45 || b == 46
            || b >= 128
    }
}
