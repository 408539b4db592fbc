import Foundation
import SegueClient
import SegueJSON
import SegueMovie

/// The studio's Movie button: `GET /movie?token=…&format=gif|webm|mp4&fps=N&spec=JSON` makes the movie
/// `seguectl movie` makes of the same spec (`render.frames` over a daemon connection of its own, rasterised and
/// encoded by `MovieMaker`) and answers with the file, or with a plain-text error. The work runs on a thread of its
/// own, never on the studio's event loop; one movie at a time per studio.
enum MovieEndpoint {
    /// What the page asked for.
    struct Request: Equatable, Sendable {
        var spec: JSONObject
        var fps: Int
        var format: MovieFormat

        /// `flip-push.gif`: the animator and kind, letters, digits, `.`, `-` and `_` kept.
        var fileName: String {
            let animator = spec["animator"]?.stringValue ?? "movie"
            let kind = spec["kind"]?.stringValue ?? "select"
            let safe = String("\(animator)-\(kind)".map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
            return (safe.hasPrefix(".") ? "_" + safe : safe) + "." + format.rawValue
        }
    }

    /// The answer: a status, a MIME type, the body, and the file name for a movie.
    struct Response: Sendable {
        var status: Int
        var type: String
        var body: Data
        var fileName: String?

        static func text(_ status: Int, _ message: String) -> Response {
            Response(status: status, type: "text/plain; charset=utf-8", body: Data((message + "\n").utf8))
        }
    }

    /// Why a query was refused (the 400's text).
    struct BadQuery: Error, Equatable {
        let message: String
    }

    /// Reads the query (`format`, `fps`, `spec`; `token` is the gate's); why, for a bad one.
    static func parse(query: String) -> Result<Request, BadQuery> {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            guard let decoded = value.removingPercentEncoding else {
                return .failure(BadQuery(message: "'\(name)' is not URL-encoded text"))
            }
            fields[name] = decoded
        }
        guard let formatName = fields["format"], let format = MovieFormat(rawValue: formatName) else {
            return .failure(BadQuery(message: "format must be gif, webm or mp4"))
        }
        let fps: Int
        if let text = fields["fps"] {
            guard let value = Int(text), (1...min(60, format.maxFPS)).contains(value) else {
                let most = min(60, format.maxFPS)
                return .failure(BadQuery(message: "fps must be 1…\(most)" + (format == .gif ? " for a GIF" : "")))
            }
            fps = value
        } else {
            fps = 30
        }
        guard let text = fields["spec"], let value = try? JSONParser.parse(text), case .object(let spec) = value,
            spec["animator"]?.stringValue != nil
        else {
            return .failure(BadQuery(message: #"spec must be render.frames' spec as JSON, {"animator": …, "kind": …}"#))
        }
        return .success(Request(spec: spec, fps: fps, format: format))
    }

    /// Makes the movie (blocking: call it off the event loop).
    static func make(_ request: Request, socketPath: String, maker: MovieMaker = MovieMaker()) -> Response {
        do throws(MovieError) {
            try maker.checkTools()
        } catch {
            return .text(503, "the studio cannot make movies here: \(error)")
        }
        let result: JSONValue
        do throws(ClientError) {
            let client = try SegueClient(socketPath: socketPath)
            result = try client.call("render.frames", JSONObject([
                ("spec", .object(request.spec)), ("fps", .number(Double(request.fps))),
            ]), timeoutMs: 120_000)
        } catch {
            if case .rpc = error { return .text(400, "render.frames: \(error)") }
            return .text(502, "the daemon: \(error)")
        }
        let frames: MovieFrames
        do throws(MovieError) {
            frames = try MovieFrames(renderFrames: result)
        } catch {
            return .text(400, "\(error)")
        }
        do throws(MovieError) {
            let bytes = try maker.bytes(frames, format: request.format)
            return Response(status: 200, type: request.format.mimeType, body: bytes, fileName: request.fileName)
        } catch {
            return .text(500, "\(error)")
        }
    }
}

/// How many movies are being made (at most one per studio: each runs ffmpeg on the machine's cores).
final class MovieJobs: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    let limit: Int

    init(limit: Int = 1) { self.limit = limit }

    /// Takes a place; false when every place is taken.
    func start() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard running < limit else { return false }
        running += 1
        return true
    }

    func finish() {
        lock.lock()
        running -= 1
        lock.unlock()
    }
}
