import SegueJSON
import SegueKit
import SegueRender

/// `render.frames`: a transition as a movie's frames, one SVG of the whole scene per 1/fps (`FrameSequence`), for
/// `seguectl movie` and the studio's Movie button, which rasterise and encode them with Debian's tools.
extension Daemon {
    /// The most frames one answer holds (at the default 30 fps, 20 s of transition).
    static let maxMovieFrames = 600

    func renderFrames(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let fps = try p.int("fps", in: FrameSequence.fpsRange) ?? 30
        let labels = try p.bool("labels") ?? true
        let request = try renderRequest(p, c)
        try p.finish()
        let input = try renderInput(request)
        let count = FrameSequence.count(span: input.source.end - input.source.start, fps: fps)
        guard count <= Daemon.maxMovieFrames else {
            throw .limit("\(fps) fps over \(Double(input.source.end - input.source.start) / 1e9) s is \(count) frames, "
                         + "more than \(Daemon.maxMovieFrames); ask for a lower fps", limit: Daemon.maxMovieFrames)
        }
        let budget = Daemon.maxDrawnViews
        guard count * max(1, input.source.maxViews) <= budget else {
            throw .limit("\(count) frames of \(input.source.maxViews) views is more than \(budget) views to draw; "
                         + "ask for a lower fps", limit: budget)
        }
        let sequence = FrameSequence(input.source, fps: fps, labels: labels)
        var result = JSONObject([
            ("fps", .number(Double(sequence.fps))), ("width", .number(Double(sequence.width))),
            ("height", .number(Double(sequence.height))), ("span", .number(sequence.span)),
        ])
        result["frames"] = .array(sequence.frames.map { frame in
            .object(JSONObject([
                ("index", .number(Double(frame.index))), ("time", .number(frame.time)), ("svg", .string(frame.svg)),
            ]))
        })
        for (k, v) in input.extra { result[k] = v }
        return .object(result)
    }
}
