import Foundation
import Logging
import Testing

@testable import SegueDaemon

/// The metadata of the daemon's own log lines: a key with nothing to say is left out (`scene=` on a daemon-wide
/// event read as if the scene's name were empty), in every format.
@Suite("Log metadata")
struct LogMetadataTests {
    final class Capture: @unchecked Sendable {
        var lines: [(message: String, metadata: Logger.Metadata)] = []
    }

    struct CapturingHandler: LogHandler {
        let capture: Capture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            capture.lines.append((event.message.description, event.metadata ?? [:]))
        }
    }

    @Test("a plugin event with no scene and no plugin name logs neither key")
    func emptyValuesLeftOut() {
        let capture = Capture()
        var config = DaemonConfig()
        // A folder writable by every user is refused with a warning about the folder: no plugin named. (A folder
        // that does not exist gives no plugin event, only the daemon's warning naming the path.)
        let folder = "/tmp/sgl-" + String(UUID().uuidString.prefix(8))
        #expect(mkdir(folder, 0o777) == 0 && chmod(folder, 0o777) == 0)
        defer { rmdir(folder) }
        config.pluginsDir = folder
        let daemon = Daemon(config: config, logger: Logger(label: "t") { _ in CapturingHandler(capture: capture) })
        daemon.start()
        let failed = capture.lines.filter { $0.message.hasPrefix("plugin.warning") }
        #expect(!failed.isEmpty)
        for line in failed {
            #expect(line.metadata["scene"] == nil && line.metadata["plugin.name"] == nil, "\(line.metadata)")
        }
    }
}
