import Foundation
import Logging
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// The conventions an operator expects: XDG base directories, config-relative paths, systemd's environment.
@Suite("Service conventions")
struct ServiceConventionTests {
    @Test("XDG_CONFIG_HOME and XDG_RUNTIME_DIR place the config, the plugins and the socket")
    func xdgVariables() {
        let paths = XDGPaths(environment: ["XDG_CONFIG_HOME": "/c", "XDG_RUNTIME_DIR": "/run/user/7", "HOME": "/h"],
                             uid: 7)
        #expect(paths.configFile == "/c/segued/segued.toml")
        #expect(paths.pluginsDirectory == "/c/segued/plugins")
        #expect(paths.socketPath == "/run/user/7/segued.sock")
    }

    @Test("without XDG variables: ~/.config and /tmp/segued-UID.sock; relative values are ignored")
    func xdgFallbacks() {
        let plain = XDGPaths(environment: ["HOME": "/home/ann"], uid: 1234)
        #expect(plain.configFile == "/home/ann/.config/segued/segued.toml")
        #expect(plain.pluginsDirectory == "/home/ann/.config/segued/plugins")
        #expect(plain.socketPath == "/tmp/segued-1234.sock")
        let relative = XDGPaths(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "cfg", "XDG_RUNTIME_DIR": "run"],
                                uid: 1234)
        #expect(relative == plain)
    }

    @Test("the XDG config file is used only when it exists")
    func discovery() throws {
        let home = "/tmp/sgx-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let paths = XDGPaths(environment: ["XDG_CONFIG_HOME": home])
        #expect(DaemonConfig.discoverFile(paths) == nil)
        try FileManager.default.createDirectory(atPath: home + "/segued", withIntermediateDirectories: true)
        try "".write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        #expect(DaemonConfig.discoverFile(paths) == paths.configFile)
    }

    @Test("paths in a config file are relative to its folder; absolute and ~ paths are not", arguments: [
        ("plugins", "/etc/segued/plugins"),
        ("./anim/../plugins/", "/etc/segued/plugins"),
        ("../common/plugins", "/etc/common/plugins"),
        ("/opt/plugins", "/opt/plugins"),
        ("//opt//plugins/.", "/opt/plugins"),
    ])
    func relativePaths(path: String, resolved: String) {
        #expect(DaemonConfig.resolve(path, relativeTo: "/etc/segued") == resolved)
    }

    @Test("~/ in a config path is the home folder")
    func homePath() {
        let home = XDGPaths.current.home
        #expect(DaemonConfig.resolve("~/plugins", relativeTo: "/etc") == DaemonConfig.normalize(home + "/plugins"))
    }

    @Test("a config file's plugins.dir and daemon.socket resolve against the file's folder, not the working directory")
    func fileRelative() throws {
        let folder = "/tmp/sgr-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: folder + "/conf", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "[plugins]\ndir = \"anim\"\n[daemon]\nsocket = \"../s.sock\"\n"
            .write(toFile: folder + "/conf/segued.toml", atomically: true, encoding: .utf8)
        let real = DaemonConfig.folder(of: folder + "/conf/segued.toml")
        let config = try DaemonConfig.load(file: folder + "/conf/segued.toml")
        #expect(config.pluginsDir == real + "/anim")
        #expect(config.socketPath == DaemonConfig.normalize(real + "/../s.sock"))
        // Flags are not in a file: the daemon takes them as given (relative to its working directory).
        let flagged = try DaemonConfig.resolve(file: folder + "/conf/segued.toml",
                                               overrides: ConfigOverrides(pluginsDir: "p"))
        #expect(flagged.pluginsDir == "p")
    }

    @Test("a relative socket that resolves to 108 bytes or more is refused naming daemon.socket")
    func resolvedSocketTooLong() throws {
        let folder = "/tmp/sgr-" + String(repeating: "d", count: 80)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "[daemon]\nsocket = \"a-socket-name-of-thirty-bytes.sock\"\n"
            .write(toFile: folder + "/segued.toml", atomically: true, encoding: .utf8)
        do {
            _ = try DaemonConfig.load(file: folder + "/segued.toml")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.key == "daemon.socket")
            #expect(error.message.contains("108"))
        }
    }

    @Test("journal lines: a <N> priority per line, no timestamp, metadata as key=value")
    func journalFormat() {
        #expect(JournalLogHandler.line(level: .info, message: "segued listening", metadata: ["socket": "/s", "a": "1"])
            == "<6>segued listening a=1 socket=/s\n")
        #expect(JournalLogHandler.line(level: .warning, message: "two\nlines", metadata: [:]) == "<4>two\n<4>lines\n")
        #expect(JournalLogHandler.line(level: .error, message: "m", metadata: ["scene": "", "b": "2"]) == "<3>m b=2\n")
        #expect(JournalLogHandler.priority(.critical) == 2 && JournalLogHandler.priority(.error) == 3)
        #expect(JournalLogHandler.priority(.notice) == 5 && JournalLogHandler.priority(.debug) == 7)
    }

    @Test("JOURNAL_STREAM counts only when it names stderr itself")
    func journalDetection() {
        #expect(!JournalLogHandler.standardErrorIsJournal(nil))
        #expect(!JournalLogHandler.standardErrorIsJournal("nonsense"))
        var st = stat()
        guard fstat(2, &st) == 0 else { return }
        #expect(JournalLogHandler.standardErrorIsJournal("\(st.st_dev):\(st.st_ino)"))
        #expect(!JournalLogHandler.standardErrorIsJournal("\(st.st_dev):\(UInt64(st.st_ino) &+ 1)"))
    }

    @Test("the watchdog pings every WATCHDOG_USEC / 2, and only for the process WATCHDOG_PID names")
    func watchdogInterval() {
        #expect(SystemdNotifier.watchdogInterval(usec: "10000000", pid: nil) == 5_000_000_000)
        #expect(SystemdNotifier.watchdogInterval(usec: "10000000", pid: "\(getpid())") == 5_000_000_000)
        #expect(SystemdNotifier.watchdogInterval(usec: "10000000", pid: "\(getpid() + 1)") == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: nil, pid: nil) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "0", pid: nil) == nil)
        #expect(SystemdNotifier.watchdogInterval(usec: "soon", pid: nil) == nil)
    }

    @Test("NOTIFY_SOCKET must be an absolute path or @name")
    func notifySocketNames() {
        #expect(SystemdNotifier(socketName: "") == nil)
        #expect(SystemdNotifier(socketName: "relative/notify") == nil)
        #expect(SystemdNotifier(socketName: "/" + String(repeating: "n", count: 200)) == nil)
        #expect(SystemdNotifier(socketName: "/run/systemd/notify") != nil)
        #expect(SystemdNotifier(socketName: "@abstract") != nil)
    }

    @Test("without a listener, a notification fails quietly")
    func notifyNobody() throws {
        let notifier = try #require(SystemdNotifier(socketName: "/tmp/sgn-nobody-\(getpid())"))
        #expect(!notifier.send("READY=1"))
    }

    @Test("socket activation refuses a descriptor that is not a listening Unix stream socket")
    func activationChecks() throws {
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(throws: ServerError.self) { try ActivatedSocket.check(file) }
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(datagram) }
        #expect(throws: ServerError.self) { try ActivatedSocket.check(datagram) }
        let unbound = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(unbound) }
        #expect(throws: ServerError.self) { try ActivatedSocket.check(unbound) }
        let inet = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(inet) }
        _ = listen(inet, 1)
        #expect(throws: ServerError.self) { try ActivatedSocket.check(inet) }
        // Bound at its path, as systemd binds a socket unit's (segued's own listen binds in a private directory
        // first, so its socket's name is not the path).
        let path = "/tmp/sga-\(getpid()).sock"
        let listening = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Server.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(listening, 1) == 0)
        defer {
            close(listening)
            unlink(path)
        }
        try ActivatedSocket.check(listening)
        #expect(ActivatedSocket.boundPath(listening) == path)
    }
}
