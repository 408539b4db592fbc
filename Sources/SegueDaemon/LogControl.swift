import Logging
import Synchronization

/// The log level and format in force, shared by every logger the daemon made, so that `daemon.reload` (and SIGHUP)
/// can change them while the daemon runs. swift-log's bootstrap can run only once; the handlers read this instead.
public final class LogControl: Sendable {
    private let state: Mutex<(level: Logger.Level, json: Bool)>

    public init(level: Logger.Level, json: Bool) { state = Mutex((level, json)) }

    public var level: Logger.Level { state.withLock { $0.level } }
    public var json: Bool { state.withLock { $0.json } }

    public func set(level: Logger.Level, json: Bool) { state.withLock { $0 = (level, json) } }
}

/// A log handler whose level and format follow a `LogControl`: text through swift-log's stream handler (or, when
/// stderr is the systemd journal, `JournalLogHandler`'s `<N>`-prefixed lines), or one JSON object per line
/// (`JSONLogHandler`), all on stderr.
public struct ReloadableLogHandler: LogHandler {
    let control: LogControl
    private var text: any LogHandler
    private var json: JSONLogHandler

    /// `journal`: stderr is the journal (`JournalLogHandler.standardErrorIsJournal()`), so text goes without
    /// timestamps and with priority prefixes.
    public init(label: String, control: LogControl, journal: Bool = false) {
        self.control = control
        text = journal ? JournalLogHandler() : StreamLogHandler.standardError(label: label)
        json = JSONLogHandler(label: label)
        text.logLevel = .trace
        json.logLevel = .trace
    }

    /// The level in force; setting it on one logger changes it for all (it is the daemon's `log_level`).
    public var logLevel: Logger.Level {
        get { control.level }
        set { control.set(level: newValue, json: control.json) }
    }

    public var metadata: Logger.Metadata {
        get { text.metadata }
        set {
            text.metadata = newValue
            json.metadata = newValue
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { text[metadataKey: key] }
        set {
            text[metadataKey: key] = newValue
            json[metadataKey: key] = newValue
        }
    }

    public func log(event: LogEvent) {
        if control.json { json.log(event: event) } else { text.log(event: event) }
    }
}
