import Foundation
import SegueClient
import SegueJSON
import SegueVersion
import Testing

/// segued as an operator runs it: versions, XDG defaults with no flags, systemd socket activation and sd_notify,
/// the journal's log format.
@Suite("segued as a service")
struct ServiceIntegrationTests {
    static let plugin = """
        return segue.animator {
          duration = function(ctx) return 0.1 end,
          animate = function(ctx) ctx.container:add(ctx:view("to")) ctx:complete(true) end,
        }
        """

    @Test("segued --version, seguectl --version and daemon.info report the one version")
    func versions() throws {
        let segued = try runCommand(binaryDirectory + "/segued", ["--version"])
        let seguectl = try runCommand(binaryDirectory + "/seguectl", ["--version"])
        #expect(segued.status == 0 && seguectl.status == 0)
        #expect(segued.out == SegueVersion.string + "\n")
        #expect(seguectl.out == SegueVersion.string + "\n")
        let daemon = try DaemonProcess()
        #expect(try daemon.client().call("daemon.info")["version"] == .string(SegueVersion.string))
    }

    @Test("with no flags: the config and plugins under XDG_CONFIG_HOME, the socket under XDG_RUNTIME_DIR")
    func xdgDefaults() throws {
        let root = try TemporaryFolder()
        try root.write("[engine]\nfps = 30\n", to: "cfg/segued/segued.toml")
        try root.write(ServiceIntegrationTests.plugin, to: "cfg/segued/plugins/quick.lua")
        try root.makeFolder("run")
        let daemon = try ServiceProcess(arguments: [], environment: [
            "HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/cfg", "XDG_RUNTIME_DIR": root.path + "/run",
        ], logFile: root.path + "/log")
        let socket = root.path + "/run/segued.sock"
        try daemon.waitForSocket(socket)
        let client = try SegueClient(socketPath: socket)
        let info = try client.call("daemon.info")
        #expect(info["config"]?["file"] == .string(root.path + "/cfg/segued/segued.toml"))
        #expect(info["plugins_dir"] == .string(root.path + "/cfg/segued/plugins"))
        #expect(info["socket"] == .string(socket))
        #expect(try client.call("plugins.list").arrayValue?.compactMap { $0["name"]?.stringValue } == ["quick"])
        #expect(try client.call("scene.create", ["size": ["w": 10, "h": 10], "clock": "manual"])["fps"] == 30)
        #expect(daemon.terminate() == 0)
        #expect(daemon.log.contains("config from \(root.path)/cfg/segued/segued.toml (the XDG default)"))
        #expect(daemon.log.contains("plugins from \(root.path)/cfg/segued/plugins"))
    }

    @Test("without XDG_CONFIG_HOME: ~/.config/segued, and a relative plugins.dir is relative to the file")
    func homeConfigRelativePlugins() throws {
        let root = try TemporaryFolder()
        try root.write("[plugins]\ndir = \"animators\"\n[daemon]\nsocket = \"../../s.sock\"\n",
                       to: "home/.config/segued/segued.toml")
        try root.write(ServiceIntegrationTests.plugin, to: "home/.config/segued/animators/quick.lua")
        let daemon = try ServiceProcess(arguments: [], environment: ["HOME": root.path + "/home"],
                                        logFile: root.path + "/log")
        let socket = root.path + "/home/s.sock"
        try daemon.waitForSocket(socket)
        let info = try SegueClient(socketPath: socket).call("daemon.info")
        #expect(info["plugins_dir"] == .string(root.path + "/home/.config/segued/animators"))
        #expect(try SegueClient(socketPath: socket).call("plugins.list").arrayValue?.count == 1)
        #expect(daemon.terminate() == 0)
    }

    @Test("no config file and no plugins folder: built-in defaults, and a warning that names the missing folder")
    func nothingThere() throws {
        let root = try TemporaryFolder()
        let daemon = try ServiceProcess(arguments: ["--socket", root.path + "/s.sock"],
                                        environment: ["HOME": root.path], logFile: root.path + "/log")
        try daemon.waitForSocket(root.path + "/s.sock")
        #expect(try SegueClient(socketPath: root.path + "/s.sock").call("daemon.info")["config"]?["file"] == .null)
        #expect(daemon.terminate() == 0)
        #expect(daemon.log.contains("no config file at \(root.path)/.config/segued/segued.toml: built-in defaults"))
        #expect(daemon.log.contains("warning"))
        #expect(daemon.log.contains("the plugins folder \(root.path)/.config/segued/plugins does not exist"))
    }

    @Test("a broken XDG config file stops start-up naming the file (status 78)")
    func brokenXDGConfig() throws {
        let root = try TemporaryFolder()
        try root.write("[engine]\nfps = 0\n", to: "cfg/segued/segued.toml")
        let result = try runCommand(binaryDirectory + "/segued", ["--socket", root.path + "/s.sock"],
                                    environment: ["XDG_CONFIG_HOME": root.path + "/cfg"])
        #expect(result.status == 78)
        #expect(result.err.contains(root.path + "/cfg/segued/segued.toml"))
        #expect(result.err.contains("engine.fps"))
    }

    @Test("socket activation: segued serves the socket it is passed and leaves its path and mode to the unit")
    func socketActivation() throws {
        let root = try TemporaryFolder()
        let path = root.path + "/activated.sock"
        let fd = try listeningSocket(path, mode: 0o660)
        let daemon = try ServiceProcess(arguments: ["--plugins", repositoryRoot + "/plugins"],
                                        environment: ["HOME": root.path], logFile: root.path + "/log", passing: fd)
        close(fd)
        try daemon.waitForSocket(path)
        let info = try SegueClient(socketPath: path).call("daemon.info")
        #expect(info["socket"] == .string(path))
        #expect(daemon.terminate() == 0)
        // The unit's socket stays, with the unit's mode, for the next activation.
        var st = stat()
        #expect(lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFSOCK)
        #expect(st.st_mode & 0o777 == 0o660)
        #expect(daemon.log.contains("socket.from=systemd"))
    }

    @Test("socket activation with a descriptor that is not a listening socket is refused (status 1)")
    func activationRefused() throws {
        let root = try TemporaryFolder()
        let null = open("/dev/null", O_RDONLY)
        let daemon = try ServiceProcess(arguments: ["--plugins", repositoryRoot + "/plugins"],
                                        environment: ["HOME": root.path], logFile: root.path + "/log", passing: null)
        close(null)
        #expect(daemon.waitForExit(seconds: 10) == 1)
        #expect(daemon.log.contains("socket activation: descriptor 3 is not a socket"))
    }

    @Test("sd_notify: READY=1 once serving, WATCHDOG=1 from the loop, RELOADING=1 then READY=1 on SIGHUP, STOPPING=1")
    func notify() throws {
        let root = try TemporaryFolder()
        for name in [root.path + "/notify", "@sgv-notify-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"] {
            let receiver = try DatagramReceiver(name: name)
            let socket = root.path + "/s.sock"
            let daemon = try ServiceProcess(
                arguments: ["--socket", socket, "--plugins", repositoryRoot + "/plugins"],
                environment: ["HOME": root.path, "NOTIFY_SOCKET": name, "WATCHDOG_USEC": "200000"],
                logFile: root.path + "/log")
            let ready = receiver.receive()
            #expect(ready?.hasPrefix("READY=1\n") == true, "\(daemon.log)")
            #expect(ready?.contains("STATUS=serving on \(socket)") == true)
            // Ready means serving: the socket answers now, with every plugin loaded.
            #expect(try SegueClient(socketPath: socket).call("plugins.list").arrayValue?.isEmpty == false)
            #expect(receiver.receive() == "WATCHDOG=1")
            kill(daemon.pid, SIGHUP)
            #expect(receiver.receiveState()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
            #expect(receiver.receiveState() == "READY=1")
            #expect(daemon.terminate() == 0)
            #expect(receiver.receiveState() == "STOPPING=1")
        }
    }

    static let socketActivate = ["/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("under systemd-socket-activate: activated on the first connection, READY=1 on NOTIFY_SOCKET",
          .enabled(if: socketActivate != nil, "systemd-socket-activate is not installed"))
    func systemdSocketActivate() throws {
        let root = try TemporaryFolder()
        let path = root.path + "/a.sock"
        let notify = root.path + "/notify"
        let receiver = try DatagramReceiver(name: notify)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServiceIntegrationTests.socketActivate ?? "")
        // It passes only the variables named with -E.
        process.arguments = ["-l", path, "-E", "NOTIFY_SOCKET=" + notify, "-E", "HOME=" + root.path,
                             binaryDirectory + "/segued", "--plugins", repositoryRoot + "/plugins"]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        for _ in 0..<400 where !FileManager.default.fileExists(atPath: path) { usleep(25_000) }
        // The first connection waits in the socket's backlog while segued starts, then is served.
        #expect(try SegueClient(socketPath: path).call("daemon.ping", timeoutMs: 20_000) == "pong")
        #expect(receiver.receive()?.hasPrefix("READY=1") == true)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(receiver.receiveState() == "STOPPING=1")
    }

    @Test("when stderr is the journal (JOURNAL_STREAM): <N> priorities, no timestamps")
    func journalLogs() throws {
        let root = try TemporaryFolder()
        let log = root.path + "/journal"
        FileManager.default.createFile(atPath: log, contents: nil)
        var st = stat()
        #expect(stat(log, &st) == 0)
        let daemon = try ServiceProcess(arguments: ["--socket", root.path + "/s.sock"], environment: [
            "HOME": root.path, "JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)",
        ], logFile: log)
        try daemon.waitForSocket(root.path + "/s.sock")
        #expect(daemon.terminate() == 0)
        let lines = daemon.log.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            #expect(line.hasPrefix("<6>") || line.hasPrefix("<4>"), "\(line)")
            #expect(!line.contains("+0000"), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<4>the plugins folder ") })
        #expect(lines.contains { $0.hasPrefix("<6>segued listening") })
    }
}
