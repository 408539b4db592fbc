import Foundation
import SegueClient
import SegueJSON
import Testing

/// docs/DESIGN.md §4 with the real binary: signals, the socket file, connections, logs.
@Suite("segued as a service", .serialized)
struct ServiceBehaviourTests {
    /// Polls `condition` every 20 ms for up to 10 s (a guard against a hang, not a timing requirement).
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return false
    }

    func rpcCode(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch let ClientError.rpc(code, _, _) {
            return code
        } catch {
            return nil
        }
    }

    @Test("SIGTERM drains: running transitions complete, their events and pending waits reach the clients, the socket goes, exit 0 within 2 s (docs/DESIGN.md §4)")
    func gracefulDrain() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpScene(client, types: ["lifecycle", "transition"])
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "dt-slide"])
        _ = client.takeEvents()
        let waiter = try daemon.client()
        try waiter.send(line: #"{"jsonrpc":"2.0","id":"w","method":"transition.wait","params":{"scene":"scene-1","transition":"t-1"}}"#)
        // Requests after a wait are answered at once, in order: once this pong is back the wait is registered.
        #expect(try waiter.call("daemon.ping") == "pong")
        let signalled = Date()
        let status = daemon.terminate(signal: SIGTERM, waitingUpTo: 10)
        let elapsed = Date().timeIntervalSince(signalled)
        #expect(status == 0)
        #expect(elapsed < 2.0, "docs/DESIGN.md §4: exit 0 within 2 s; took \(elapsed) s")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
        // What was sent before the close is still there to read, in order, and then the connection ends.
        var types: [String] = []
        while let event = try? client.nextEvent(timeoutMs: 2000) { types.append(event["type"]?.stringValue ?? "") }
        #expect(types == [
            "vc.view_did_disappear", "vc.view_did_appear", "vc.did_move_to_parent", "vc.did_move_to_parent",
            "transition.completed",
        ])
        let answer = try waiter.readLine(timeoutMs: 2000).map { try JSONParser.parse($0) }
        #expect(answer?["id"] == "w")
        #expect(answer?["result"]?["ended"] == true)
        #expect(answer?["result"]?["state"] == "completed")
        #expect(throws: ClientError.self) { _ = try waiter.readLine(timeoutMs: 2000) }
    }

    @Test("without --socket the socket is $XDG_RUNTIME_DIR/segued.sock")
    func defaultSocketPath() throws {
        let dir = "/tmp/sgx-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/segued")
        process.arguments = ["--plugins", repositoryRoot + "/plugins", "--log-level", "error"]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": dir]) { $1 }
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        let path = dir + "/segued.sock"
        #expect(eventually { (try? SegueClient(socketPath: path)) != nil })
        #expect(try SegueClient(socketPath: path).call("daemon.info")["socket"] == .string(path))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a file at the socket path that is not a socket is left alone, and start-up fails naming it")
    func notASocket() throws {
        let dir = "/tmp/sgn-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        try "precious".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runCommand(binaryDirectory + "/segued", ["--socket", path, "--plugins", repositoryRoot + "/plugins"])
        #expect(result.status != 0)
        #expect(result.err.contains("not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    }

    @Test("limits.max_connections: one more connection gets -32004 and is closed; a freed slot is usable again")
    func maxConnections() throws {
        let daemon = try DaemonProcess(config: "[limits]\nmax_connections = 2\n")
        var first: SegueClient? = try daemon.client()
        let second = try daemon.client()
        #expect(try first?.call("daemon.ping") == "pong")
        #expect(try second.call("daemon.ping") == "pong")
        let third = try daemon.client()
        let refusal = try third.readLine(timeoutMs: 5000).map { try JSONParser.parse($0) }
        #expect(refusal?["error"]?["code"] == -32004)
        #expect(refusal?["error"]?["data"]?["limit"] == 2)
        #expect(throws: ClientError.self) { _ = try third.readLine(timeoutMs: 5000) }
        first = nil
        #expect(eventually { (try? daemon.client().call("daemon.ping", timeoutMs: 2000)) == "pong" })
        #expect(try second.call("daemon.ping") == "pong")
    }

    @Test("out of file descriptors: the daemon keeps serving its connections, pauses accepting instead of spinning, and accepts again once some close")
    func outOfDescriptors() throws {
        let daemon = try DaemonProcess(fileLimit: 40)
        let first = try daemon.client()
        #expect(try first.call("daemon.ping") == "pong")
        // Far more clients than descriptors: the kernel queues them in the listen backlog.
        var crowd: [SegueClient] = []
        for _ in 0..<60 { if let client = try? daemon.client() { crowd.append(client) } }
        usleep(300_000)
        #expect(try first.call("daemon.ping") == "pong")
        // Closing some frees descriptors: those still waiting are taken and served.
        crowd.removeFirst(40)
        #expect(eventually { (try? crowd.last?.call("daemon.ping", timeoutMs: 500)) == "pong" })
        #expect(try first.call("daemon.ping") == "pong")
        #expect(daemon.terminate() == 0)
        let pauses = daemon.stderrText().components(separatedBy: "cannot accept a connection").count - 1
        // Each pause is 100 ms; a daemon spinning on the listener would log thousands.
        #expect(pauses >= 1)
        #expect(pauses < 200)
    }

    @Test("a line over limits.max_line_bytes on the real socket: -32004, then the connection closes; others go on")
    func lineTooLongOnTheSocket() throws {
        let daemon = try DaemonProcess(config: "[limits]\nmax_line_bytes = 256\n")
        let client = try daemon.client()
        let other = try daemon.client()
        try client.send(line: #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"pad":""# + String(repeating: "x", count: 1000) + "\"}}")
        let reply = try client.readLine(timeoutMs: 5000).map { try JSONParser.parse($0) }
        #expect(reply?["error"]?["code"] == -32004)
        #expect(throws: ClientError.self) { _ = try client.readLine(timeoutMs: 5000) }
        #expect(try other.call("daemon.ping") == "pong")
    }

    @Test("--log-format json writes one JSON object per line with level, label and message")
    func jsonLogs() throws {
        let daemon = try DaemonProcess(arguments: ["--log-format", "json", "--log-level", "debug"])
        #expect(try daemon.client().call("daemon.ping") == "pong")
        #expect(daemon.terminate() == 0)
        let lines = daemon.stderrText().split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        let objects = lines.compactMap { try? JSONParser.parse($0) }
        #expect(objects.count == lines.count, "every line is JSON: \(lines)")
        #expect(objects.allSatisfy { $0["level"]?.stringValue != nil && $0["message"]?.stringValue != nil && $0["ts"] != nil })
        let listening = objects.first { $0["message"] == "segued listening" }
        #expect(listening?["socket"] == .string(daemon.socket))
        #expect(objects.contains { $0["message"] == "plugin loaded" && $0["plugin.name"] == "dt-slide" })
    }

    @Test("deleting a plugin's file is logged as its unload, naming the plugin and the file")
    func unloadIsLogged() throws {
        let plugin = "return segue.animator { name = 'gone', duration = 0.1, animate = function(ctx) ctx:complete(true) end }"
        let daemon = try DaemonProcess(pluginFiles: ["gone.lua": plugin], arguments: ["--log-format", "json"])
        let client = try daemon.client()
        #expect(try client.call("plugins.list").arrayValue?.contains { $0["name"] == "gone" } == true)
        try FileManager.default.removeItem(atPath: daemon.directory + "/plugins/gone.lua")
        _ = try client.call("plugins.reload")
        #expect(try client.call("plugins.list").arrayValue?.contains { $0["name"] == "gone" && $0["status"] == "loaded" }
                == false)
        #expect(daemon.terminate() == 0)
        let objects = daemon.stderrText().split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let unloaded = objects.first { $0["message"] == "plugin unloaded" }
        #expect(unloaded?["plugin.name"] == "gone", "\(objects)")
        #expect(unloaded?["plugin.file"]?.stringValue?.hasSuffix("/plugins/gone.lua") == true)
    }

    @Test("--log-level warning keeps info lines out")
    func logLevel() throws {
        let daemon = try DaemonProcess(arguments: ["--log-level", "warning"])
        #expect(try daemon.client().call("daemon.ping") == "pong")
        #expect(daemon.terminate() == 0)
        let text = daemon.stderrText()
        #expect(!text.contains("segued listening"))
        #expect(!text.contains("plugin loaded"))
    }

    @Test("SIGHUP re-reads the config: a good file applies; a bad one is logged naming the key and the old config stays")
    func sighupReloads() throws {
        let daemon = try DaemonProcess(config: "[limits]\nmax_scenes = 1\n")
        let client = try daemon.client()
        _ = try client.call("scene.create", ["id": "s1", "size": ["w": 10, "h": 10], "clock": "manual"])
        #expect(rpcCode { _ = try client.call("scene.create", ["id": "s2", "size": ["w": 10, "h": 10], "clock": "manual"]) } == -32004)
        try "[limits]\nmax_scenes = 2\n[daemon]\nlog_format = \"json\"\n".write(toFile: daemon.configFile, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(try eventually { try client.call("daemon.info")["config"]?["reloads"] == 1 })
        _ = try client.call("scene.create", ["id": "s2", "size": ["w": 10, "h": 10], "clock": "manual"])
        try "[limits]\nmax_scenes = -3\n".write(toFile: daemon.configFile, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(try eventually { try client.call("daemon.info")["config"]?["last_reload_error"] != .null })
        #expect(rpcCode { _ = try client.call("scene.create", ["id": "s3", "size": ["w": 10, "h": 10], "clock": "manual"]) } == -32004)
        #expect(try client.call("daemon.info")["config"]?["reloads"] == 1)
        // daemon.reload over the socket reports the same refusal as an error.
        #expect(rpcCode { _ = try client.call("daemon.reload") } == -32002)
        #expect(daemon.terminate() == 0)
        let log = daemon.stderrText()
        #expect(log.contains("limits.max_scenes"))
        #expect(log.contains("old config stays in force"))
        // The reloaded log_format = "json" took effect: the lines after the reload are JSON.
        #expect(log.split(separator: "\n").last.map { (try? JSONParser.parse(String($0))) != nil } == true)
    }

    @Test("a client that sends requests without reading the answers is not read further: its unread answers stay bounded")
    func requesterThatNeverReads() throws {
        let daemon = try DaemonProcess()
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in daemon.socket.utf8.enumerated() { raw[i] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(connected == 0)
        // Write pings, never reading, until the daemon has stopped taking them for a whole second (or 200 MB).
        let chunk = Array(String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"# + "\n", count: 1000).utf8)
        var sent = 0
        var blockedSince: Date?
        while sent < 200 << 20 {
            let n = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                blockedSince = nil
                continue
            }
            if blockedSince == nil { blockedSince = Date() }
            if let since = blockedSince, Date().timeIntervalSince(since) > 1 { break }
            usleep(10_000)
        }
        #expect(sent < 100 << 20, "the daemon kept reading requests whose answers were never read (\(sent) bytes taken)")
        // Everyone else is served meanwhile.
        let other = try daemon.client()
        #expect(try other.call("daemon.ping") == "pong")
        let before = try other.call("daemon.stats")["requests"]?.doubleValue ?? 0
        usleep(200_000)
        let after = try other.call("daemon.stats")["requests"]?.doubleValue ?? 0
        #expect(after - before <= 2, "no more of the silent client's requests were taken")  // the two stats calls
        // When the client reads again, the daemon goes on with its requests.
        var drained = 0
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        let readUntil = Date().addingTimeInterval(5)
        while Date() < readUntil {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { drained += n } else { usleep(5_000) }
            if drained > 4 << 20 { break }
        }
        #expect(drained > 0)
        #expect(try other.call("daemon.stats")["requests"]?.doubleValue ?? 0 > after + 1000)
    }
}
