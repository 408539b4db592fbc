/// Why a movie could not be made. Each case says what to do about it; `seguectl movie` prints `description`.
public enum MovieError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A tool is not on the PATH: which one, and the Debian package that has it.
    case missingTool(MovieTool)
    /// A tool ran and failed: its exit status and what it wrote to stderr (the last few kB).
    case toolFailed(MovieTool, status: Int32, stderr: String)
    /// A tool ran longer than the runner allows.
    case timedOut(MovieTool, seconds: Double)
    /// A tool could not be started, or a temporary file or the output could not be written.
    case io(String)
    /// The daemon's `render.frames` answer is not what it documents.
    case badFrames(String)
    /// The frames are larger than a movie is made at (`MovieFrames.maxSide`).
    case tooLarge(width: Int, height: Int)

    public var description: String {
        switch self {
        case .missingTool(let tool):
            return "\(tool.command) is not installed (\(tool.role)): install Debian's \(tool.package) package "
                + "(apt-get install \(tool.package), or scripts/setup --tests)"
        case .toolFailed(let tool, let status, let stderr):
            let said = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(tool.command) failed (exit status \(status))" + (said.isEmpty ? "" : ":\n" + said)
        case .timedOut(let tool, let seconds):
            return "\(tool.command) took longer than \(Int(seconds)) s and was stopped"
        case .io(let message):
            return message
        case .badFrames(let message):
            return "the daemon's render.frames answer: \(message)"
        case .tooLarge(let width, let height):
            return "a movie of \(width)×\(height) pixels is larger than the \(MovieFrames.maxSide) on a side made here: "
                + "ask for a smaller size"
        }
    }
}

/// The external programs a movie is made with, each from a Debian package.
public enum MovieTool: String, Sendable, CaseIterable {
    /// librsvg's rasteriser: one PNG per frame's SVG.
    case rsvgConvert = "rsvg-convert"
    /// The encoder: GIF (palettegen/paletteuse), WebM (VP9), MP4 (H.264).
    case ffmpeg

    /// The command looked for on the PATH.
    public var command: String { rawValue }

    /// The Debian package that installs it.
    public var package: String {
        switch self {
        case .rsvgConvert: "librsvg2-bin"
        case .ffmpeg: "ffmpeg"
        }
    }

    /// What it does here, for the missing-tool message.
    var role: String {
        switch self {
        case .rsvgConvert: "it draws each frame's SVG as a PNG"
        case .ffmpeg: "it encodes the frames"
        }
    }
}
