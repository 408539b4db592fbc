import Foundation
import SegueJSON
import Testing

/// Whether ffmpeg and rsvg-convert are on the PATH (`scripts/setup --tests` installs them).
let studioMovieToolsAvailable: Bool = ["ffmpeg", "rsvg-convert", "python3"].allSatisfy { name in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}

@Suite("The studio's Movie button (GET /movie) against a real segued", .serialized,
       .enabled(if: studioMovieToolsAvailable, "needs ffmpeg, rsvg-convert and python3 (scripts/setup --tests)"))
struct StudioMovieTests {
    /// GETs each of `paths` from the studio; per path, `status content-type content-disposition size first-bytes-hex`.
    func get(_ base: String, _ paths: [String]) throws -> [String] {
        let (status, out, err) = try runCommand("/usr/bin/env", ["python3", "-c", """
            import sys, urllib.request, urllib.error
            for path in sys.argv[2:]:
                try:
                    r = urllib.request.urlopen(sys.argv[1] + path, timeout=120)
                    body = r.read()
                    print(r.status, r.headers.get("Content-Type"), r.headers.get("Content-Disposition"), len(body), body[:6].hex())
                except urllib.error.HTTPError as e:
                    body = e.read()
                    print(e.code, e.headers.get("Content-Type"), None, len(body), body.decode("utf-8", "replace").strip().replace(" ", "_"))
            """, base] + paths)
        #expect(status == 0, "\(err)")
        return out.split(separator: "\n").map(String.init)
    }

    @Test("/movie answers a GIF download of the spec; a bad query is 400 saying why; an unknown animator is 400 with the daemon's error")
    func movie() throws {
        let daemon = try DaemonProcess()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/segue-studio")
        process.arguments = ["--socket", daemon.socket]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var bytes: [UInt8] = []
        while bytes.last != UInt8(ascii: "\n") {
            guard let byte = out.fileHandleForReading.readData(ofLength: 1).first else { break }
            bytes.append(byte)
        }
        let url = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let base = try #require(url.components(separatedBy: "/?").first)
        let token = url.components(separatedBy: "token=").last ?? ""
        func spec(_ animator: String) -> String {
            let json = #"{"animator":"\#(animator)","kind":"push","size":{"w":160,"h":240}}"#
            return json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        }
        let lines = try get(base, [
            "/movie?token=\(token)&format=gif&fps=10&spec=\(spec("flip"))",
            "/movie?token=\(token)&format=avi&fps=10&spec=\(spec("flip"))",
            "/movie?token=\(token)&format=gif&fps=51&spec=\(spec("flip"))",
            "/movie?token=\(token)&format=gif&fps=10&spec=\(spec("no-such"))",
            "/movie?format=gif&fps=10&spec=\(spec("flip"))",
        ])
        #expect(lines.count == 5)
        guard lines.count == 5 else { return }
        // GIF89a
        #expect(lines[0].hasPrefix("200 image/gif attachment; filename=\"flip-push.gif\" "), "\(lines[0])")
        #expect(lines[0].hasSuffix(" 474946383961"), "\(lines[0])")
        #expect(lines[1].hasPrefix("400 text/plain") && lines[1].contains("format_must_be_gif,_webm_or_mp4"), "\(lines[1])")
        #expect(lines[2].hasPrefix("400 text/plain") && lines[2].contains("fps_must_be_1…50_for_a_GIF"), "\(lines[2])")
        #expect(lines[3].hasPrefix("400 text/plain") && lines[3].contains("spec.animator"), "\(lines[3])")
        #expect(lines[4].hasPrefix("403"), "\(lines[4])")
    }
}
