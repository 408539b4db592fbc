#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import SegueJSON

/// One JSON object per line on stderr: `{ts, level, label, message, …metadata}` (`--log-format json`).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var object = JSONObject([
            ("ts", .number(Double(ts.tv_sec) + Double(ts.tv_nsec / 1000) / 1e6)), ("level", .string(event.level.rawValue)),
            ("label", .string(label)), ("message", .string("\(event.message)")),
        ])
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() { object[key] = .string("\(merged[key].map { "\($0)" } ?? "")") }
        writeStandardError(JSONValue.object(object).serialized() + "\n")
    }
}

/// Writes text to file descriptor 2 (stderr) without going through the C stdio globals.
public func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        offset += n
    }
}
