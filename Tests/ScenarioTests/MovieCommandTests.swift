import Foundation
import SegueJSON
import Testing

/// Whether ffmpeg, ffprobe and rsvg-convert are on the PATH (`scripts/setup --tests` installs them).
let movieToolsAvailable: Bool = ["ffmpeg", "ffprobe", "rsvg-convert"].allSatisfy { name in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}

/// What ffprobe says of a movie's first video stream, with its frames counted by decoding them.
func probe(_ path: String) throws -> JSONValue {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                         "stream=codec_name,width,height,pix_fmt,nb_read_frames,r_frame_rate", "-of", "json", path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let json = try JSONParser.parse(String(decoding: data, as: UTF8.self))
    return json["streams"]?.arrayValue?.first ?? .null
}

@Suite("seguectl movie: a GIF, WebM or MP4 made with rsvg-convert and ffmpeg against a real segued", .serialized,
       .enabled(if: movieToolsAvailable, "needs ffmpeg, ffprobe and rsvg-convert (scripts/setup --tests)"))
struct MovieCommandTests {
    func temporaryFile(_ name: String) -> String {
        NSTemporaryDirectory() + "segue-movie-test-\(UUID().uuidString.prefix(8))-" + name
    }

    @Test("a 0.5 s flip at 30 fps is a 320×480 GIF of 15 frames")
    func gif() throws {
        let path = temporaryFile("flip.gif")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try ctl(["movie", "flip", "--kind", "push", "--fps", "30", "--out", path, "--spawn"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("wrote \(path): 15 frames at 30 fps, 320×480, 0.5 s"), "\(run.out)")
        let stream = try probe(path)
        #expect(stream["codec_name"] == "gif")
        #expect(stream["width"] == 320 && stream["height"] == 480)
        #expect(stream["nb_read_frames"] == "15")
    }

    @Test("WebM is VP9 and MP4 is H.264 yuv420p, an odd scene padded to even sides; --fps sets the frame count")
    func webmAndMP4() throws {
        let webm = temporaryFile("slide.webm"), mp4 = temporaryFile("slide.mp4")
        defer {
            try? FileManager.default.removeItem(atPath: webm)
            try? FileManager.default.removeItem(atPath: mp4)
        }
        let a = try ctl(["movie", "default-slide", "--fps", "10", "--size", "161x241", "--out", webm, "--spawn"])
        #expect(a.status == 0, "\(a.err)")
        let vp9 = try probe(webm)
        #expect(vp9["codec_name"] == "vp9" && vp9["width"] == 161 && vp9["height"] == 241)
        #expect(a.out.contains("10 frames at 10 fps, 161×241, 1 s"), "\(a.out)")  // the default slide's 1 s × 10
        #expect(vp9["nb_read_frames"] == "10")
        let b = try ctl(["movie", "default-slide", "--fps", "10", "--size", "161x241", "--out", mp4, "--spawn"])
        #expect(b.status == 0, "\(b.err)")
        let h264 = try probe(mp4)
        #expect(h264["codec_name"] == "h264" && h264["pix_fmt"] == "yuv420p")
        #expect(h264["width"] == 162 && h264["height"] == 242)
        #expect(h264["nb_read_frames"] == "10")
    }

    @Test("errors: an unknown animator is the daemon's (exit 1); bad fps or extension is usage (exit 2); nothing is written")
    func errors() throws {
        let path = temporaryFile("x.gif")
        let unknown = try ctl(["movie", "no-such", "--out", path, "--spawn"])
        #expect(unknown.status == 1)
        #expect(unknown.err.contains("spec.animator"), "\(unknown.err)")
        #expect(!FileManager.default.fileExists(atPath: path))
        for fps in ["0", "61", "x"] {
            let bad = try ctl(["movie", "flip", "--fps", fps, "--out", temporaryFile("x.mp4")])
            #expect(bad.status == 2, "--fps \(fps)")
        }
        let fastGIF = try ctl(["movie", "flip", "--fps", "55", "--out", path])
        #expect(fastGIF.status == 2 && fastGIF.err.contains("--fps must be 1…50 for a GIF"), "\(fastGIF.err)")
        let avi = try ctl(["movie", "flip", "--out", temporaryFile("x.avi")])
        #expect(avi.status == 2 && avi.err.contains("--out must end in .gif, .webm or .mp4"), "\(avi.err)")
        let noOut = try ctl(["movie", "flip"])
        #expect(noOut.status == 2 && noOut.err.contains("--out"), "\(noOut.err)")
        let kind = try ctl(["movie", "flip", "--kind", "sideways", "--out", path])
        #expect(kind.status == 2)
        let huge = try ctl(["movie", "flip", "--size", "5000x100", "--out", path, "--spawn"])
        #expect(huge.status == 2 && huge.err.contains("5000×100 pixels is larger than the 4096"), "\(huge.err)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("without ffmpeg on the PATH: an error naming the Debian package, exit 2, before any daemon is started")
    func missingFFmpeg() throws {
        // A PATH holding rsvg-convert only.
        let folder = temporaryFile("bin")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rsvg = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/rsvg-convert", withDestinationPath: try #require(rsvg))
        let path = temporaryFile("x.gif")
        let run = try ctl(["movie", "flip", "--out", path, "--spawn"], environment: ["PATH": folder])
        #expect(run.status == 2)
        #expect(run.err.contains("ffmpeg is not installed") && run.err.contains("apt-get install ffmpeg"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: path))
        let none = try ctl(["movie", "flip", "--out", path], environment: ["PATH": "/nonexistent"])
        #expect(none.status == 2 && none.err.contains("librsvg2-bin"), "\(none.err)")
    }
}
