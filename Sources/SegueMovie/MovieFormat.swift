/// The kinds of file a movie can be, told by the output file's extension.
public enum MovieFormat: String, Sendable, CaseIterable {
    /// An animated GIF that loops, with a palette made for it (ffmpeg's palettegen and paletteuse).
    case gif
    /// WebM: VP9 (libvpx-vp9), yuv420p.
    case webm
    /// MP4: H.264 (libx264), yuv420p, even width and height (the picture padded by a pixel in the stage's grey
    /// when the scene's is odd), the index at the front (`+faststart`) so it plays while it downloads.
    case mp4

    /// The format for a file name by its extension (any case); nil for anything else.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// The file's MIME type (the studio's download).
    public var mimeType: String {
        switch self {
        case .gif: "image/gif"
        case .webm: "video/webm"
        case .mp4: "video/mp4"
        }
    }

    /// The highest frame rate it is made at: a GIF's delays are whole hundredths of a second, and browsers play a
    /// delay under two hundredths as ten (so 50 fps is a GIF's limit).
    public var maxFPS: Int {
        switch self {
        case .gif: 50
        case .webm, .mp4: 120
        }
    }

    /// The stage's grey (`#e5e5ea`, SegueRender's), for padding.
    static let stage = "0xe5e5ea"

    /// ffmpeg's arguments after the input: the filters and codec that make this format, then the output file.
    func encoderArguments(output: String, width: Int, height: Int) -> [String] {
        switch self {
        case .gif:
            // One palette for the whole movie from the pixels that change (stats_mode=diff), used with ordered
            // dithering, which does not crawl from frame to frame as error diffusion does.
            return ["-filter_complex",
                    "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4",
                    "-loop", "0", "-f", "gif", output]
        case .webm:
            return ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-crf", "32", "-b:v", "0", "-row-mt", "1",
                    "-deadline", "good", "-cpu-used", "4", "-f", "webm", output]
        case .mp4:
            var arguments: [String] = []
            if width % 2 != 0 || height % 2 != 0 {
                arguments += ["-vf", "pad=\(width + width % 2):\(height + height % 2):0:0:color=\(MovieFormat.stage)"]
            }
            return arguments + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "medium", "-crf", "20",
                                "-movflags", "+faststart", "-f", "mp4", output]
        }
    }
}
