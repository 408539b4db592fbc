import SegueKit

/// `render.frames`: a transition as a movie's frames, one whole picture of the scene per 1/fps — what
/// `seguectl movie` and the studio's Movie button rasterise (rsvg-convert) and encode (ffmpeg).
///
/// Frame `i` is the scene at `i / fps` seconds after the start, drawn exactly as a filmstrip's frame is
/// (`SceneDrawing`: every view, its transform projected, clipped to the scene), in an SVG of the scene's size in
/// pixels (one pixel per point). There are `fps × span` frames, rounded to the nearest whole number (a half up),
/// at least one: the movie lasts as long as the transition, and its last frame is the last whole frame time
/// before the end — a GIF that loops goes from there to the start, as a screen recording of it would.
public struct FrameSequence {
    public struct Frame: Sendable, Equatable {
        public let index: Int
        /// Seconds from the transition's start.
        public let time: Double
        public let svg: String
    }

    /// The pictures' size in pixels (the scene's points, rounded, at least 1).
    public let width: Int
    public let height: Int
    public let fps: Int
    /// The span drawn, in seconds (the transition's start to its end).
    public let span: Double
    public let frames: [Frame]

    /// The frame rates `render.frames` takes.
    public static let fpsRange = 1...120

    /// How many frames a span of `nanoseconds` is at `fps`: `fps × span` rounded to the nearest (a half up), at
    /// least 1.
    public static func count(span nanoseconds: Int64, fps: Int) -> Int {
        // In whole nanoseconds, so 0.5 s at 30 fps is 15 and not a float's 15.000000000000002 (a span is at most
        // an hour: 3.6e12 ns × 120 fits in an Int64).
        let frameNs = max(0, min(nanoseconds, 3_600_000_000_000)) * Int64(max(1, fps))
        return max(1, Int((frameNs + 500_000_000) / 1_000_000_000))
    }

    /// Draws `count(span:fps:)` frames of `source` (the caller has checked the count against its budget).
    public init(_ source: RenderSource, fps: Int, labels: Bool = true) {
        let fps = min(max(fps, FrameSequence.fpsRange.lowerBound), FrameSequence.fpsRange.upperBound)
        let size = source.sceneSize
        let w = max(1, Int(size.w.rounded())), h = max(1, Int(size.h.rounded()))
        let n = FrameSequence.count(span: source.end - source.start, fps: fps)
        var frames: [Frame] = []
        frames.reserveCapacity(n)
        for i in 0..<n {
            let time = source.start + Int64((Double(i) * 1e9 / Double(fps)).rounded())
            let sw = SVG.num(size.w), sh = SVG.num(size.h)
            var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" "
                + "viewBox=\"0 0 \(sw) \(sh)\" preserveAspectRatio=\"none\" font-family=\"\(SVG.fontFamily)\" "
                + "data-index=\"\(i)\" data-time=\"\(SVG.num(source.seconds(time), 4))\">\n"
            svg += "<rect class=\"stage\" width=\"\(sw)\" height=\"\(sh)\" fill=\"#e5e5ea\"/>\n"
            if let sample = source.timeline.sample(at: time) {
                svg += SceneDrawing.draw(sample, origin: source.origin, labelSize: 11, labels: labels)
            }
            svg += "</svg>\n"
            frames.append(Frame(index: i, time: source.seconds(time), svg: svg))
        }
        width = w
        height = h
        self.fps = fps
        span = Double(source.end - source.start) / 1e9
        self.frames = frames
    }
}
