import Foundation
import SegueClient

/// A `segued` started the way a service manager starts it: an environment of our choosing (nothing inherited),
/// a working directory, stderr to a file, and optionally a descriptor passed as fd 3 with `LISTEN_PID` set to the
/// daemon's own pid (socket activation). Through `/bin/sh`, which sets `LISTEN_PID=$$` and execs: the pid is
/// segued's.
final class ServiceProcess {
    let pid: pid_t
    let logFile: String
    private(set) var status: Int32?

    init(arguments: [String], environment: [String: String], directory: String = "/", logFile: String,
         passing fd: Int32? = nil) throws
    {
        self.logFile = logFile
        var environment = environment
        if fd != nil {
            environment["LISTEN_FDS"] = "1"
            environment["SEGUE_TEST_ACTIVATE"] = "1"
        }
        let script = "cd \"$1\" || exit 97; shift; "
            + "if [ -n \"$SEGUE_TEST_ACTIVATE\" ]; then unset SEGUE_TEST_ACTIVATE; export LISTEN_PID=$$; fi; "
            + "exec \"$@\""
        let argv = ["/bin/sh", "-c", script, "sh", directory, binaryDirectory + "/segued"] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        if let fd { posix_spawn_file_actions_adddup2(&actions, fd, 3) }
        var child: pid_t = 0
        let result = ServiceProcess.withCStrings(argv) { cArgv in
            ServiceProcess.withCStrings(envp) { cEnvp in posix_spawn(&child, "/bin/sh", &actions, nil, cArgv, cEnvp) }
        }
        guard result == 0 else { throw DaemonFailure(message: "posix_spawn: \(String(cString: strerror(result)))") }
        pid = child
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(seconds: 5)
        }
    }

    var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Waits until `socket` answers (up to 10 s, while the daemon lives).
    func waitForSocket(_ socket: String) throws {
        for _ in 0..<400 {
            if (try? SegueClient(socketPath: socket)) != nil { return }
            if waitForExit(seconds: 0) != nil { break }
            usleep(25_000)
        }
        throw DaemonFailure(message: "segued did not serve \(socket): \(log)")
    }

    /// The exit status once the process has exited (waiting up to `seconds`), nil if it is still running.
    func waitForExit(seconds: Double) -> Int32? {
        if let status { return status }
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                return status
            }
            if seconds > 0 { usleep(10_000) }
        } while Date() < deadline
        return nil
    }

    /// Sends `signal` and waits (up to 5 s) for the exit status.
    func terminate(signal: Int32 = SIGTERM) -> Int32? {
        if status == nil { kill(pid, signal) }
        return waitForExit(seconds: 5)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        return body(pointers)
    }
}

/// A bound datagram socket standing in for systemd's notify socket (`@name`: the abstract namespace).
final class DatagramReceiver {
    let fd: Int32
    let name: String

    init(name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if name.hasPrefix("@") { raw[0] = 0 }
        }
        let length = socklen_t(2 + bytes.count + (name.hasPrefix("@") ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw DaemonFailure(message: "cannot bind \(name)") }
    }

    deinit {
        close(fd)
        if !name.hasPrefix("@") { unlink(name) }
    }

    /// The next datagram, waiting up to `seconds` (a bound on a hang, not a timing assertion); nil if none came.
    func receive(seconds: Double = 10) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
    }

    /// The next datagram that is not a watchdog ping.
    func receiveState(seconds: Double = 10) -> String? {
        while let message = receive(seconds: seconds) {
            if message != "WATCHDOG=1" { return message }
        }
        return nil
    }
}

/// A listening Unix socket made by the test, as a socket unit makes it (the path and its mode are the unit's).
func listeningSocket(_ path: String, mode: mode_t) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0, chmod(path, mode) == 0 else {
        close(fd)
        throw DaemonFailure(message: "cannot listen on \(path)")
    }
    return fd
}

/// A temporary folder (removed when released), with its symbolic links resolved so paths compare as segued's do.
final class TemporaryFolder {
    let path: String

    init() throws {
        let made = "/tmp/sgv-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        path = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
    }

    func write(_ text: String, to relative: String) throws {
        let file = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
    }

    func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/" + relative, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
