#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// Text logs for the systemd journal (when stderr is the journal, `JOURNAL_STREAM`): no timestamp, no label (the
/// journal records both), and a `<N>` syslog priority prefix on every line, which journald reads as the level
/// (`journalctl -p warning` then works). The metadata follows the message as `key=value` (empty values left out).
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        writeStandardError(JournalLogHandler.line(level: event.level, message: "\(event.message)",
                                                  metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }

    /// One record as journald reads it from a stream: every line of a multi-line message carries the prefix.
    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        let prefix = "<\(priority(level))>"
        var text = message
        for key in metadata.keys.sorted() {
            // An empty value says nothing in the journal (a daemon event with no scene): left out.
            guard let value = metadata[key].map({ "\($0)" }), !value.isEmpty else { continue }
            text += " \(key)=\(value)"
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
            + "\n"
    }

    /// syslog priorities (sd-daemon.h's SD_DEBUG … SD_CRIT).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Whether stderr is the journal: `JOURNAL_STREAM` is `DEVICE:INODE` of the stream systemd connected, and a
    /// child that inherited the variable but not the stream must not use the journal's format.
    public static func standardErrorIsJournal(_ value: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) })
        -> Bool
    {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }
}
