import Foundation

/// Makes a movie file from a transition's frames with Debian's tools: each frame's SVG rasterised by
/// `rsvg-convert` (librsvg2-bin), then the PNGs encoded by `ffmpeg` at the frames' rate. Works in a private
/// temporary folder that is removed afterwards, whatever happened; the output file is replaced only by a finished
/// movie. Blocking: `seguectl movie` calls it on its main thread, the studio on a thread of its own.
public struct MovieMaker: Sendable {
    public var runner: ToolRunner
    /// Where its temporary folder goes (`segue-movie-XXXXXX`, removed after).
    public var temporaryBase: String

    public init(runner: ToolRunner = ToolRunner(), temporaryBase: String = NSTemporaryDirectory()) {
        self.runner = runner
        self.temporaryBase = temporaryBase
    }

    /// Both tools are on the PATH (checked before the daemon is asked for frames, so a missing one is said first).
    public func checkTools() throws(MovieError) {
        for tool in MovieTool.allCases { _ = try runner.locate(tool) }
    }

    /// Writes the movie of `frames` to `output` as `format`, replacing any file there.
    public func make(_ frames: MovieFrames, format: MovieFormat, output: String) throws(MovieError) {
        try checkTools()
        let folder = try MovieMaker.temporaryFolder(in: temporaryBase)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encoded = try encode(frames, format: format, in: folder)
        try MovieMaker.move(encoded, to: output)
    }

    /// The movie's bytes (the studio's download).
    public func bytes(_ frames: MovieFrames, format: MovieFormat) throws(MovieError) -> Data {
        try checkTools()
        let folder = try MovieMaker.temporaryFolder(in: temporaryBase)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encoded = try encode(frames, format: format, in: folder)
        guard let data = FileManager.default.contents(atPath: encoded) else { throw .io("cannot read \(encoded)") }
        return data
    }

    /// Rasterises and encodes in `folder`; the encoded file's path.
    func encode(_ frames: MovieFrames, format: MovieFormat, in folder: String) throws(MovieError) -> String {
        let count = frames.svgs.count
        for (i, svg) in frames.svgs.enumerated() {
            let path = folder + "/" + MovieMaker.frameName(i, "svg")
            guard FileManager.default.createFile(atPath: path, contents: Data(svg.utf8)) else {
                throw .io("cannot write \(path)")
            }
        }
        // One rsvg-convert per frame (it draws one PNG per run), two at a time.
        let failures = FailureBox()
        let runner = self.runner
        DispatchQueue.concurrentPerform(iterations: min(2, count)) { lane in
            for i in stride(from: lane, to: count, by: 2) where !failures.failed {
                do throws(MovieError) {
                    try runner.run(.rsvgConvert, ["--format", "png", "--output", MovieMaker.frameName(i, "png"),
                                                  MovieMaker.frameName(i, "svg")],
                                   in: folder, stderrPath: folder + "/rsvg-\(i).stderr")
                } catch {
                    failures.record(i, error)
                }
            }
        }
        if let error = failures.first { throw error }
        let output = "movie." + format.rawValue
        let arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                         "-framerate", String(frames.fps), "-start_number", "0", "-i", "frame-%05d.png",
                         "-frames:v", String(count)]
            + format.encoderArguments(output: output, width: frames.width, height: frames.height)
        try runner.run(.ffmpeg, arguments, in: folder, stderrPath: folder + "/ffmpeg.stderr")
        return folder + "/" + output
    }

    static func frameName(_ index: Int, _ ext: String) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + "." + ext
    }

    /// A new private (0700) folder in `base`.
    static func temporaryFolder(in base: String) throws(MovieError) -> String {
        var template = Array((base + "/segue-movie-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else {
            throw .io("cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Puts the finished movie at `output`: renamed when it is on the same file system, else copied (through a
    /// file beside it, renamed over).
    static func move(_ encoded: String, to output: String) throws(MovieError) {
        if rename(encoded, output) == 0 { return }
        let reason = errno
        guard reason == EXDEV else {
            throw .io("cannot write \(output): \(String(cString: strerror(reason)))")
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: encoded))
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw .io("cannot write \(output): \(error.localizedDescription)")
        }
    }
}

/// The first rasterising failure, by frame, across the two lanes.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [(Int, MovieError)] = []

    var failed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !errors.isEmpty
    }

    func record(_ index: Int, _ error: MovieError) {
        lock.lock()
        errors.append((index, error))
        lock.unlock()
    }

    var first: MovieError? {
        lock.lock()
        defer { lock.unlock() }
        return errors.min { $0.0 < $1.0 }?.1
    }
}
