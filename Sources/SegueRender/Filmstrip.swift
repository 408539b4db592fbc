import SegueKit

/// `render.filmstrip`: frames of a transition side by side, each clipped to the scene, with its time under it.
///
/// Frames are evenly spaced from the start of the span to its end (both included), so the first frame is the
/// transition as it began and the last is how it ended. Each is a `<g class="frame" data-index data-time>`
/// (seconds from the start); a frame after the scene's current time (a running transition) is a prediction from
/// the running animations: its border is dashed and its label says "ahead".
public struct Filmstrip {
    /// Where one frame sits in the picture (SVG pixels), with its time label under it.
    public struct Cell: Sendable, Equatable {
        public let index: Int
        /// Seconds from the transition's start.
        public let time: Double
        public let x: Double, y: Double, w: Double, h: Double
        public let ahead: Bool
    }

    public let svg: String
    public let width: Double
    public let height: Double
    public let cells: [Cell]

    public static let maxFrames = 600

    /// - Parameters:
    ///   - frames: how many (1…`maxFrames`).
    ///   - cellWidth: the width of one frame in the picture; tall scenes get narrower frames (at most 320 high).
    ///   - labels: draw each view's id on it.
    public init(_ source: RenderSource, frames: Int, cellWidth: Double = 160, labels: Bool = true) {
        let n = min(max(frames, 1), Filmstrip.maxFrames)
        let size = source.sceneSize
        let aspect = size.w > 0 && size.h > 0 ? size.h / size.w : 1.5
        var cw = max(16, cellWidth)
        var ch = cw * aspect
        if ch > 320 {
            ch = 320
            cw = ch / aspect
        }
        let pad = 12.0, gap = 12.0, header = 40.0, caption = 20.0
        width = pad * 2 + Double(n) * cw + Double(n - 1) * gap
        height = header + ch + caption + pad
        let span = source.end - source.start
        var cells: [Cell] = []
        var body = ""
        let scale = size.w > 0 ? cw / size.w : 1
        for i in 0..<n {
            let time = n == 1 ? source.start : source.start + Int64((Double(span) * Double(i) / Double(n - 1)).rounded())
            let x = pad + Double(i) * (cw + gap), y = header
            let ahead = time > source.now
            let seconds = source.seconds(time)
            cells.append(Cell(index: i, time: seconds, x: x, y: y - 4, w: cw, h: ch + caption + 4, ahead: ahead))
            body += "<g class=\"frame\" data-index=\"\(i)\" data-time=\"\(SVG.num(seconds, 4))\""
                + (ahead ? " data-ahead=\"true\">\n" : ">\n")
            // A nested viewport clips to the scene and scales scene points to the cell.
            body += "<svg x=\"\(SVG.num(x))\" y=\"\(SVG.num(y))\" width=\"\(SVG.num(cw))\" height=\"\(SVG.num(ch))\" "
                + "viewBox=\"0 0 \(SVG.num(size.w)) \(SVG.num(size.h))\" preserveAspectRatio=\"none\" overflow=\"hidden\">\n"
            body += "<rect class=\"stage\" width=\"\(SVG.num(size.w))\" height=\"\(SVG.num(size.h))\" fill=\"#e5e5ea\"/>\n"
            if let sample = source.timeline.sample(at: time) {
                // Filter and clip ids unique in a page that inlines several filmstrips (the preview page).
                body += SceneDrawing.draw(sample, origin: source.origin, labelSize: 11 / scale, labels: labels,
                                          idPrefix: "f\(n)-\(Int(cw))-\(i)")
            }
            body += "</svg>\n"
            body += "<rect x=\"\(SVG.num(x))\" y=\"\(SVG.num(y))\" width=\"\(SVG.num(cw))\" height=\"\(SVG.num(ch))\" "
                + "fill=\"none\" stroke=\"#8e8e93\" stroke-width=\"1\"\(ahead ? " stroke-dasharray=\"4 3\"" : "")/>\n"
            let text = SVG.num(seconds, 3) + " s" + (ahead ? " (ahead)" : "")
            body += "<text class=\"time\" x=\"\(SVG.num(x + cw / 2))\" y=\"\(SVG.num(y + ch + 15))\" font-size=\"12\" "
                + "text-anchor=\"middle\" fill=\"#3a3a3c\">\(SVG.escape(text))</text>\n</g>\n"
        }
        self.cells = cells
        var svg = SVG.open(width: width, height: height)
        svg += "<title>\(SVG.escape(source.title))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += SVG.tag("text", ["x": SVG.num(pad), "y": "18", "font-size": "14", "font-weight": "bold",
                                "fill": "#1c1c1e"], text: source.title) + "\n"
        let detail = "duration \(SVG.num(source.duration, 3)) s · \(SVG.num(size.w))×\(SVG.num(size.h)) · "
            + "\(n) frame\(n == 1 ? "" : "s") over \(SVG.num(Double(span) / 1e9, 3)) s"
        svg += "<text x=\"\(SVG.num(pad))\" y=\"32\" font-size=\"11\" fill=\"#636366\">\(SVG.escape(detail))</text>\n"
        svg += body
        svg += "</svg>\n"
        self.svg = svg
    }
}
