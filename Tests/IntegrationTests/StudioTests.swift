import Foundation
import Testing

/// Whether the browser test can run here: headless Chromium, its driver and python3 (CI installs them through
/// `scripts/setup --tests`).
let studioBrowserAvailable: Bool = ["chromium", "chromedriver", "python3"].allSatisfy { name in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}

@Suite("seguectl studio", .serialized)
struct StudioTests {
    @Test("seguectl studio execs segue-studio, whose first line is the URL with its token; without it, 403")
    func startsAndRefuses() throws {
        let daemon = try DaemonProcess()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/seguectl")
        process.arguments = ["studio", "--socket", daemon.socket]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // SIGTERM ends the studio (a mask inherited from the test runner must not keep it alive).
            process.terminate()
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        }
        var bytes: [UInt8] = []
        while bytes.last != UInt8(ascii: "\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            bytes.append(first)
        }
        let url = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("/?token="))
        let token = url.components(separatedBy: "token=").last ?? ""
        #expect(token.count == 32)
        let base = url.components(separatedBy: "/?").first ?? url
        let (status, _, _) = try runCommand("/usr/bin/env", ["python3", "-c", """
            import sys, urllib.request, urllib.error
            try:
                urllib.request.urlopen(sys.argv[1], timeout=10)
                sys.exit(0)
            except urllib.error.HTTPError as e:
                sys.exit(e.code - 400)
            """, base + "/"])
        #expect(status == 3)  // 403
    }

    @Test("segue-studio run by itself reads SEGUED_SOCKET, as seguectl does")
    func studioReadsSeguedSocket() throws {
        let socket = "/tmp/sgs-env-\(getpid()).sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/segue-studio")
        process.environment = ProcessInfo.processInfo.environment.merging(["SEGUED_SOCKET": socket]) { $1 }
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Its stderr says which socket it serves, once it listens.
        var text = ""
        while !text.contains("serving the daemon at") || !text.hasSuffix("\n") {
            let byte = err.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            text += String(decoding: byte, as: UTF8.self)
        }
        #expect(text.contains("serving the daemon at \(socket);"), "\(text)")
    }

    @Test("seguectl studio without segue-studio beside it says so and exits 2")
    func missingStudio() throws {
        let (status, _, err) = try runCommand(binaryDirectory + "/seguectl", ["studio", "--studio", "/nonexistent/segue-studio"])
        #expect(status == 2)
        #expect(err.contains("cannot start /nonexistent/segue-studio"))
    }

    @Test("in headless Chromium: token refusal, the plugin list, playing, scrubbing, an interaction plugin scrubbing by gestures, a save changing what plays",
          .enabled(if: studioBrowserAvailable, "needs chromium, chromedriver and python3 (scripts/setup --tests)"))
    func browser() throws {
        var arguments = [repositoryRoot + "/Tests/Browser/studio_browser_test.py", "--bin", binaryDirectory]
        if let shot = ProcessInfo.processInfo.environment["SEGUE_STUDIO_SCREENSHOT"] {
            arguments += ["--screenshot", shot]
        }
        let (status, out, err) = try runCommand("/usr/bin/env", ["python3"] + arguments)
        #expect(status == 0, "\(out)\n\(err)")
    }
}
