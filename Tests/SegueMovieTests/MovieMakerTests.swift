import Foundation
import SegueJSON
import Testing

@testable import SegueMovie

/// A folder of stand-in tools: shell scripts named as the real ones, so the runner's paths are exercised without
/// ffmpeg's cost (the real tools are exercised by ScenarioTests' MovieCommandTests).
final class FakeTools {
    let folder: String

    init(_ scripts: [MovieTool: String]) throws {
        folder = NSTemporaryDirectory() + "segue-fake-tools-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (tool, body) in scripts {
            let path = folder + "/" + tool.command
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}

func frames(_ count: Int, fps: Int = 10) -> MovieFrames {
    MovieFrames(fps: fps, width: 3, height: 2, span: Double(count) / Double(fps), svgs: (0..<count).map { i in
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3\" height=\"2\"><rect width=\"\(i + 1)\" height=\"2\"/></svg>"
    })
}

@Suite("Movies: formats, the tool runner, the maker")
struct MovieMakerTests {
    @Test("the extension picks the format, in any case; anything else is no format")
    func formats() {
        #expect(MovieFormat(path: "flip.gif") == .gif)
        #expect(MovieFormat(path: "/tmp/a.b/flip.WebM") == .webm)
        #expect(MovieFormat(path: "flip.mp4") == .mp4)
        #expect(MovieFormat(path: "flip.avi") == nil)
        #expect(MovieFormat(path: "flip") == nil)
        #expect(MovieFormat(path: "/tmp/x.gif/flip") == nil)
        #expect(MovieFormat.gif.maxFPS == 50)
    }

    @Test("GIF uses palettegen and paletteuse; MP4 is H.264 yuv420p, padded to even sides only when odd; WebM is VP9")
    func encoderArguments() {
        let gif = MovieFormat.gif.encoderArguments(output: "m.gif", width: 320, height: 480).joined(separator: " ")
        #expect(gif.contains("palettegen") && gif.contains("paletteuse") && gif.contains("-loop 0"))
        let even = MovieFormat.mp4.encoderArguments(output: "m.mp4", width: 320, height: 480)
        #expect(even.joined(separator: " ").contains("-c:v libx264 -pix_fmt yuv420p"))
        #expect(!even.contains("-vf"))
        let odd = MovieFormat.mp4.encoderArguments(output: "m.mp4", width: 321, height: 241)
        #expect(odd.contains("pad=322:242:0:0:color=0xe5e5ea"))
        let webm = MovieFormat.webm.encoderArguments(output: "m.webm", width: 321, height: 241).joined(separator: " ")
        #expect(webm.contains("-c:v libvpx-vp9") && webm.contains("-pix_fmt yuv420p"))
        #expect(MovieFormat.allCases.allSatisfy { $0.encoderArguments(output: "o", width: 2, height: 2).last == "o" })
    }

    @Test("a tool not on the PATH is an error naming its Debian package")
    func missingTool() throws {
        let tools = try FakeTools([.rsvgConvert: "exit 0"])
        let runner = ToolRunner(path: tools.folder)
        #expect(throws: MovieError.missingTool(.ffmpeg)) { try runner.locate(.ffmpeg) }
        #expect(MovieError.missingTool(.ffmpeg).description.contains("apt-get install ffmpeg"))
        #expect(MovieError.missingTool(.rsvgConvert).description.contains("librsvg2-bin"))
        let base = try FakeTools([:])
        let maker = MovieMaker(runner: runner, temporaryBase: base.folder)
        #expect(throws: MovieError.missingTool(.ffmpeg)) {
            try maker.make(frames(2), format: .gif, output: base.folder + "/m.gif")
        }
        // Nothing was made: no movie, no temporary folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.folder) == [])
    }

    @Test("a tool that fails is an error with its exit status and what it wrote to stderr; the temporary folder goes")
    func toolFails() throws {
        let tools = try FakeTools([.rsvgConvert: "touch \"$4\"", .ffmpeg: "echo 'Unknown encoder libnothing' >&2; exit 3"])
        let base = try FakeTools([:])
        let maker = MovieMaker(runner: ToolRunner(path: tools.folder), temporaryBase: base.folder)
        let output = base.folder + "/m.mp4"
        #expect(throws: MovieError.toolFailed(.ffmpeg, status: 3, stderr: "Unknown encoder libnothing\n")) {
            try maker.make(frames(3), format: .mp4, output: output)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.folder) == [])
        #expect(MovieError.toolFailed(.ffmpeg, status: 3, stderr: "Unknown encoder libnothing\n").description
                == "ffmpeg failed (exit status 3):\nUnknown encoder libnothing")
    }

    @Test("a tool that runs past the timeout is stopped and said so")
    func timeout() throws {
        let tools = try FakeTools([.ffmpeg: "exec sleep 30"])
        let runner = ToolRunner(path: tools.folder, timeout: 0.2)
        let base = try FakeTools([:])
        #expect(throws: MovieError.timedOut(.ffmpeg, seconds: 0.2)) {
            try runner.run(.ffmpeg, [], in: base.folder, stderrPath: base.folder + "/err")
        }
    }

    @Test("rasterised frame by frame, then encoded once with the frames' rate and count; the movie replaces the file")
    func arguments() throws {
        // The stand-in rsvg-convert writes its PNG; the stand-in ffmpeg records its arguments as the movie.
        let tools = try FakeTools([.rsvgConvert: "cp \"$5\" \"$4\"", .ffmpeg: "for a in \"$@\"; do last=$a; done; ls frame-*.png > \"$last\"; echo \"$@\" >> \"$last\""])
        let base = try FakeTools([:])
        let output = base.folder + "/m.gif"
        try "old".write(toFile: output, atomically: true, encoding: .utf8)
        try MovieMaker(runner: ToolRunner(path: tools.folder), temporaryBase: base.folder)
            .make(frames(3, fps: 24), format: .gif, output: output)
        let made = try String(contentsOfFile: output, encoding: .utf8)
        #expect(made.hasPrefix("frame-00000.png\nframe-00001.png\nframe-00002.png\n"))
        #expect(made.contains("-framerate 24 -start_number 0 -i frame-%05d.png -frames:v 3"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.folder) == ["m.gif"])
    }

    @Test("render.frames' answer is read in order; one without frames is an error")
    func readFrames() throws {
        let answer: JSONValue = ["fps": 30, "width": 320, "height": 480, "span": 0.5,
                                 "frames": [["index": 0, "time": 0, "svg": "<svg/>"], ["index": 1, "time": 0.033, "svg": "<svg></svg>"]]]
        let read = try MovieFrames(renderFrames: answer)
        #expect(read.svgs == ["<svg/>", "<svg></svg>"] && read.fps == 30 && read.width == 320)
        #expect(throws: MovieError.self) { try MovieFrames(renderFrames: ["fps": 30, "width": 1, "height": 1, "frames": []]) }
        let huge: JSONValue = ["fps": 30, "width": 4097, "height": 10, "frames": [["index": 0, "time": 0, "svg": "<svg/>"]]]
        #expect(throws: MovieError.tooLarge(width: 4097, height: 10)) { try MovieFrames(renderFrames: huge) }
    }
}
