import SegueJSON

/// A `render.frames` answer as a movie needs it: the frames' SVGs, in order, with their rate and size.
public struct MovieFrames: Sendable {
    /// The longest side a movie is made at, in pixels (each frame is one PNG of that size on disk).
    public static let maxSide = 4096

    public var fps: Int
    public var width: Int
    public var height: Int
    /// The span the frames cover, in seconds.
    public var span: Double
    public var svgs: [String]

    public init(fps: Int, width: Int, height: Int, span: Double, svgs: [String]) {
        self.fps = fps
        self.width = width
        self.height = height
        self.span = span
        self.svgs = svgs
    }

    /// Reads `render.frames`' result (`{fps, width, height, span, frames: [{index, time, svg}], …}`).
    public init(renderFrames result: JSONValue) throws(MovieError) {
        guard let fps = result["fps"]?.intValue, fps >= 1, let width = result["width"]?.intValue, width >= 1,
            let height = result["height"]?.intValue, height >= 1, let frames = result["frames"]?.arrayValue,
            !frames.isEmpty
        else {
            throw .badFrames("no fps, width, height or frames")
        }
        guard width <= MovieFrames.maxSide, height <= MovieFrames.maxSide else {
            throw .tooLarge(width: width, height: height)
        }
        var svgs: [String] = []
        for (i, frame) in frames.enumerated() {
            guard let svg = frame["svg"]?.stringValue else { throw .badFrames("frame \(i) has no svg") }
            svgs.append(svg)
        }
        self.init(fps: fps, width: width, height: height, span: result["span"]?.doubleValue ?? 0, svgs: svgs)
    }
}
