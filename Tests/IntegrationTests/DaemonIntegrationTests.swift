import Foundation
import SegueClient
import SegueJSON
import Testing

@Suite("The real segued on a socket", .serialized)
struct DaemonIntegrationTests {
    @Test("the README's quick start runs as written")
    func quickStart() throws {
        let daemon = try DaemonProcess()
        let result = try runCommand("/bin/bash", [repositoryRoot + "/scripts/quickstart.sh"], environment: [
            "SEGUECTL": binaryDirectory + "/seguectl", "SEGUED_SOCKET": daemon.socket,
        ])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let types = lines.compactMap { $0["type"]?.stringValue }
        #expect(types == [
            "vc.will_move_to_parent", "vc.will_move_to_parent", "vc.view_will_disappear", "vc.view_will_appear",
            "transition.began", "vc.view_did_disappear", "vc.view_did_appear", "vc.did_move_to_parent",
            "vc.did_move_to_parent", "transition.completed",
        ])
        #expect(lines.contains { $0["transition"] == "t-1" && $0["state"] == "completed" && $0["animator"] == "dt-slide" })
        #expect(lines.contains { $0["container"] == "tabs" && $0["selected"] == 1 })
    }

    @Test("the socket is mode 0600; SIGTERM and SIGINT remove it and exit 0", arguments: [SIGTERM, SIGINT])
    func socketModeAndSignals(signal: Int32) throws {
        let daemon = try DaemonProcess()
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socket)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
        #expect(mode == 0o600)
        #expect(daemon.terminate(signal: signal) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test("a second daemon on a live socket refuses to start")
    func liveSocket() throws {
        let daemon = try DaemonProcess()
        let second = try runCommand(binaryDirectory + "/segued", ["--socket", daemon.socket, "--plugins", repositoryRoot + "/plugins"])
        #expect(second.status != 0)
        #expect(second.err.contains("already listening"))
        #expect(try daemon.client().call("daemon.ping") == "pong")
    }

    @Test("a stale socket file left by a killed daemon is replaced")
    func staleSocket() throws {
        let first = try DaemonProcess()
        #expect(first.terminate(signal: SIGKILL) != nil)
        #expect(FileManager.default.fileExists(atPath: first.socket))  // SIGKILL leaves it behind
        #expect((try? SegueClient(socketPath: first.socket)) == nil)
        let second = try DaemonProcess(socket: first.socket)
        #expect(try second.client().call("daemon.ping") == "pong")
    }

    @Test("a peer whose uid is not in security.allowed_uids is disconnected")
    func peerCredentials() throws {
        let daemon = try DaemonProcess(config: "[plugins]\ndir = \"plugins\"\n[security]\nallowed_uids = [4242]\n")
        let client = try SegueClient(socketPath: daemon.socket)
        let error = #expect(throws: ClientError.self) { try client.call("daemon.ping", timeoutMs: 5000) }
        if case .connection? = error {} else { Issue.record("expected the connection to be closed, got \(String(describing: error))") }
    }

    @Test("events a request causes arrive before its response")
    func ordering() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpScene(client, types: ["lifecycle", "transition"])
        _ = client.takeEvents()
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "cross-dissolve"])
        #expect(client.takeEvents().compactMap { $0["type"]?.stringValue }.last == "transition.began")
        _ = try client.call("clock.advance", ["ms": 600])
        let after = client.takeEvents().compactMap { $0["type"]?.stringValue }
        #expect(after.last == "transition.completed")
        #expect(after.count == 5)
    }

    @Test("an animator looping forever does not stall the daemon: the transition ends and ping answers")
    func infiniteLoopDoesNotStall() throws {
        let daemon = try DaemonProcess(pluginFiles: [
            "spin.lua": """
                return segue.animator {
                  duration = function(ctx) return 0.3 end,
                  animate = function(ctx) while true do pcall(function() while true do end end) end end,
                }
                """,
        ])
        let client = try daemon.client()
        let other = try daemon.client()
        try setUpScene(client, types: ["transition"])
        let start = try client.call("container.select", ["container": "c", "index": 1, "animator": "spin"])
        #expect(start["transition"] == "t-1")
        #expect(try other.call("daemon.ping") == "pong")
        _ = try client.call("clock.advance", ["ms": 1100])
        let types = client.takeEvents().compactMap { $0["type"]?.stringValue }
        #expect(types == ["transition.began", "transition.failed_over", "transition.completed"])
        let transition = try client.call("transition.get", ["transition": "t-1"])
        #expect(transition["state"] == "completed")
        #expect(transition["failed_over"] == true)
    }

    @Test("a realtime scene's clock runs by itself: a select completes without clock.advance")
    func realtimeScene() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpScene(client, types: ["transition"], clock: "realtime", fps: 120)
        let error = #expect(throws: ClientError.self) { try client.call("clock.advance", ["ms": 10]) }
        if case .rpc(let code, _, _)? = error { #expect(code == -32002) } else { Issue.record("expected -32002") }
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "dt-slide"])
        var types: [String] = []
        while let event = try client.nextEvent(timeoutMs: 5000) {
            types.append(event["type"]?.stringValue ?? "")
            if types.last == "transition.completed" { break }
        }
        #expect(types == ["transition.began", "transition.completed"])
        let time = try client.call("clock.now")["time"]?.doubleValue ?? 0
        #expect(time >= 0.28)
    }

    @Test("a realtime scene's frames fall on its frame grid, one per frame, like a display link's")
    func realtimeFramesOnTheGrid() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpScene(client, types: ["frame", "transition"], clock: "realtime", fps: 60)
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "dt-slide"])
        var times: [Double] = []
        while let event = try client.nextEvent(timeoutMs: 5000), event["type"] != "transition.completed" {
            if event["type"] == "frame", let time = event["time"]?.doubleValue { times.append(time) }
        }
        #expect(times.count >= 10)
        for time in times {
            let frames = time * 60
            #expect(abs(frames - frames.rounded()) < 1e-6, "frame at \(time) s is off the 60 fps grid")
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("a subscriber that stops reading never stalls the daemon: frames are coalesced, then events.dropped")
    func slowSubscriber() throws {
        let daemon = try DaemonProcess(pluginFiles: ["busy.lua": """
            return segue.animator {
              duration = function(ctx) return 20 end,
              animate = function(ctx)
                local views = {}
                for i = 1, 300 do
                  local v = segue.view { frame = segue.rect(i, i, 10, 10), color = "#336699" }
                  ctx.container:add(v)
                  views[i] = v
                end
                ctx.container:add(ctx:view("to"))
                segue.animate({ duration = 20, curve = "linear" }, function()
                  for i = 1, 300 do views[i].frame = segue.rect(300 - i, i * 2, 20, 20) views[i].alpha = 0 end
                end, function() ctx:complete(not ctx.cancelled) end)
              end,
            }
            """])
        let slow = try daemon.client()
        let fast = try daemon.client()
        try setUpScene(slow, types: ["frame", "transition"], clock: "realtime", fps: 120)
        _ = try slow.call("container.select", ["container": "c", "index": 1, "animator": "busy"])
        // The slow client now reads nothing for at least 3 s and 20 pings while the fast one keeps asking; each ping
        // must be answered (a count, not a rate: a loaded machine answers fewer per second, a stalled daemon none).
        var pings = 0
        let until = Date().addingTimeInterval(3)
        while Date() < until || pings < 20 {
            #expect(try fast.call("daemon.ping", timeoutMs: 5000) == "pong")
            pings += 1
            usleep(20_000)
        }
        let stats = try fast.call("daemon.stats")
        #expect((stats["events_dropped"]?.doubleValue ?? 0) > 0)
        // When the slow client reads again it learns what it missed, and its connection still works.
        var sawDropped = false
        while let event = try slow.nextEvent(timeoutMs: 5000) {
            if event["type"] == "events.dropped" {
                sawDropped = true
                #expect((event["count"]?.doubleValue ?? 0) > 0)
                #expect(event["types"] == ["frame"])
                break
            }
        }
        #expect(sawDropped)
        #expect(try slow.call("daemon.ping", timeoutMs: 5000) == "pong")
    }

    @Test("seguectl call prints the result, or the error with exit status 1")
    func seguectlCall() throws {
        let daemon = try DaemonProcess()
        let ok = try runCommand(binaryDirectory + "/seguectl", ["call", "--socket", daemon.socket, "daemon.ping"])
        #expect(ok.status == 0 && ok.out == "\"pong\"\n")
        let bad = try runCommand(binaryDirectory + "/seguectl", ["call", "--socket", daemon.socket, "vc.get", #"{"scene":"x","vc":"y"}"#])
        #expect(bad.status == 1)
        #expect(bad.err.contains("-32001"))
        let down = try runCommand(binaryDirectory + "/seguectl", ["call", "--socket", daemon.directory + "/none.sock", "daemon.ping"])
        #expect(down.status == 2)
    }

    @Test("a bad config file stops start-up naming the key and the file")
    func badConfig() throws {
        let dir = "/tmp/sgc-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "[engine]\nfsp = 60\n".write(toFile: dir + "/bad.toml", atomically: true, encoding: .utf8)
        let result = try runCommand(binaryDirectory + "/segued", ["--config", dir + "/bad.toml", "--socket", dir + "/s.sock"])
        #expect(result.status != 0)
        #expect(result.err.contains("engine.fsp"))
        #expect(result.err.contains("bad.toml"))
    }
}

@Suite("Documentation")
struct DocumentationTests {
    @Test("the README shows scripts/quickstart.sh word for word")
    func readmeShowsQuickStart() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let script = try String(contentsOfFile: repositoryRoot + "/scripts/quickstart.sh", encoding: .utf8)
        #expect(readme.contains(script.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

/// A scene with a custom container "c" of "a" and "b" on screen, and a subscription on this connection.
func setUpScene(_ client: SegueClient, types: [JSONValue], clock: String = "manual", fps: Int = 60) throws {
    _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": .string(clock), "fps": .number(Double(fps))])
    _ = try client.call("events.subscribe", ["types": .array(types)])
    _ = try client.call("vc.create", ["id": "a"])
    _ = try client.call("vc.create", ["id": "b"])
    _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
    _ = try client.call("scene.set_root", ["vc": "c"])
    _ = client.takeEvents()
}
