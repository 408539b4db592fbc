import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON
import SegueMovie

struct MovieCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movie",
        abstract: "Make a movie of an animator's transition to share: GIF, WebM or MP4 (rsvg-convert and ffmpeg).",
        discussion: """
            The daemon runs the transition in a private manual scene, as preview and filmstrip do, and draws it \
            frame by frame (render.frames: one SVG of the scene per 1/fps); seguectl rasterises each frame with \
            rsvg-convert (Debian's librsvg2-bin) and encodes them with ffmpeg (Debian's ffmpeg), in a temporary \
            folder it removes after. The file's extension picks the format: .gif (looping, with a palette made for \
            the movie: palettegen and paletteuse), .webm (VP9) or .mp4 (H.264, yuv420p; an odd width or height is \
            padded by a pixel). The picture is the scene's size in pixels (--size, default 320x480; at most 4096 on a \
            side).

            Frames: fps times the transition's span (start to end: its duration for most animators), rounded to the \
            nearest whole number, a half up, at least 1; frame i is the scene at i/fps s. A GIF plays at most 50 \
            fps (its delays are hundredths of a second).

            Examples:
              seguectl movie flip --kind push --out flip.gif
              seguectl movie cross-dissolve --fps 60 --out cross-dissolve.mp4 --spawn
              seguectl movie overlay-present --kind present --style overFullScreen --out overlay.webm

            Exit status: 0 written; 1 the daemon answered with an error, or rsvg-convert or ffmpeg failed (what it \
            said is printed); 2 wrong arguments, the daemon could not be reached, a tool is not installed (the \
            message names its Debian package) or the file could not be written.
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var specOptions: SpecOptions
    @OptionGroup var spawnOptions: SpawnOptions

    @Argument(help: "The animator: a plugin's name, or default-slide (the built-in default).",
              completion: Completions.plugins)
    var animator: String

    @Option(help: "Frames per second, 1 to 60 (a GIF at most 50; default 30).")
    var fps: Int = 30

    @Option(help: "The movie file to write: FILE.gif, FILE.webm or FILE.mp4.",
            completion: .file(extensions: ["gif", "webm", "mp4"]))
    var out: String

    func validate() throws {
        guard let format = MovieFormat(path: out) else {
            throw ValidationError("--out must end in .gif, .webm or .mp4 (the extension picks the format)")
        }
        let most = min(60, format.maxFPS)
        if !(1...most).contains(fps) {
            throw ValidationError("--fps must be 1…\(most)" + (format == .gif ? " for a GIF" : ""))
        }
        if specOptions.isModal, specOptions.kind != "present", specOptions.kind != "dismiss" {
            throw ValidationError("--style and --presentation go with --kind present or dismiss")
        }
    }

    func run() throws {
        guard let format = MovieFormat(path: out) else { throw ExitCode(2) }
        let maker = MovieMaker()
        // Said before anything else runs: no daemon is started for a movie that cannot be made.
        do throws(MovieError) { try maker.checkTools() } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
        let daemon = try spawnOptions.launch()
        defer { daemon?.stop() }
        let client = try spawnOptions.client(of: daemon, else: connection)
        let result = try client.callOrExit("render.frames", JSONObject([
            ("spec", specOptions.spec(animator)), ("fps", .number(Double(fps))),
        ]))
        do throws(MovieError) {
            let frames = try MovieFrames(renderFrames: result)
            try maker.make(frames, format: format, output: out)
            let seconds = Format.number(Double(frames.svgs.count) / Double(frames.fps), decimals: 3)
            printLine("wrote \(out): \(frames.svgs.count) frames at \(frames.fps) fps, "
                + "\(frames.width)×\(frames.height), \(seconds) s")
        } catch {
            printError("seguectl: \(error)")
            switch error {
            case .toolFailed, .timedOut, .badFrames: throw ExitCode(1)
            case .missingTool, .io, .tooLarge: throw ExitCode(2)
            }
        }
    }
}
