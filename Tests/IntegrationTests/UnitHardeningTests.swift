import Foundation
import Testing

/// The user units' sandbox, as `systemd-analyze --user security --offline=true` rates it (systemd 252 and later).
@Suite("Unit hardening")
struct UnitHardeningTests {
    /// The overall exposure `systemd-analyze` gives a unit file (0 best, 10 worst).
    static func exposure(_ unit: String) throws -> (Double?, String) {
        let root = try TemporaryFolder()
        let result = try runCommand(InstallTests.analyze ?? "", ["--user", "security", "--offline=true",
                                                                 "--no-pager", unit],
                                    environment: ["XDG_RUNTIME_DIR": root.path, "HOME": root.path])
        let text = result.out + result.err
        // "→ Overall exposure level for segued.service: 1.6 OK 🙂"
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
            let score = line.split(separator: ":").last?.split(separator: " ").first.flatMap({ Double($0) })
        else { return (nil, text) }
        return (score, text)
    }

    @Test("systemd-analyze rates segued.service and segued.socket under 3.0 (9.8 without the sandbox)",
          .enabled(if: InstallTests.analyze != nil, "systemd-analyze is not installed (scripts/setup --tests)"),
          arguments: ["segued.service", "segued.socket"])
    func exposureUnderThree(unit: String) throws {
        let (score, text) = try UnitHardeningTests.exposure(repositoryRoot + "/config/" + unit)
        let value = try #require(score, "no score in: \(text)")
        #expect(value < 3.0, "\(text)")
    }

    @Test("the sandbox leaves what segued needs: its socket folder writable, config and plugins readable, Unix sockets")
    func needsKept() throws {
        let service = try String(contentsOfFile: repositoryRoot + "/config/segued.service", encoding: .utf8)
        let lines = Set(service.split(separator: "\n").map(String.init))
        #expect(lines.contains("ReadWritePaths=%t"))
        #expect(lines.contains("ProtectHome=read-only"), "the plugins and config in ~/.config are read")
        #expect(lines.contains("RestrictAddressFamilies=AF_UNIX"), "the socket, sd_notify and the journal")
        #expect(lines.contains("Type=notify") && lines.contains("NotifyAccess=main"))
        // Options a user manager refuses or cannot apply would fail the start (226/NAMESPACE) or be ignored.
        for option in ["ProtectProc=", "ProcSubset=", "ProtectControlGroups=", "User=", "DynamicUser=",
                       "ProtectKernelTunables=", "ProtectKernelLogs=", "ProtectClock="] {
            #expect(!lines.contains { $0.hasPrefix(option) }, "\(option)")
        }
        // inotify_init1 and inotify_add_watch are in @system-service, and nothing the daemon calls is denied.
        #expect(lines.contains("SystemCallFilter=@system-service"))
    }
}
