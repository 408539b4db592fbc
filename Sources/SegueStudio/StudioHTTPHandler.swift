import Foundation
import NIOCore
import NIOHTTP1

/// Every HTTP request comes here first: 403 for any request the gate refuses (no token, a foreign Host or
/// Origin), the page at `/`, a movie at `/movie` (`MovieEndpoint`, made off the event loop), 404 for other paths.
/// Only a WebSocket upgrade of `/ws` that the gate allows is passed on, to the upgrader behind it. Each response
/// closes its connection.
final class StudioHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let gate: RequestGate
    let page: String
    let log: @Sendable (String) -> Void
    /// The daemon's socket and the studio's movie places, for `/movie`.
    let socketPath: String
    let movies: MovieJobs
    private var answered = false

    init(gate: RequestGate, page: String, socketPath: String = "", movies: MovieJobs = MovieJobs(),
         log: @escaping @Sendable (String) -> Void)
    {
        self.gate = gate
        self.page = page
        self.socketPath = socketPath
        self.movies = movies
        self.log = log
    }

    private var passing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if passing { return context.fireChannelRead(data) }
        guard case .head(let head) = unwrapInboundIn(data), !answered else { return }
        answered = true
        // Two lines of a header the gate or the upgrade reads: which one counts is the reader's guess, so none does
        // (RFC 9112 §3.2 for Host, RFC 6454 §7.3 for Origin; RFC 6455 §4.2.1 for the upgrade's own).
        if let name = StudioHTTPHandler.repeatedHeader(head.headers) {
            log("refused \(head.method) \(head.uri.split(separator: "?").first ?? ""): \(name) given twice")
            respond(context, .badRequest, "text/plain; charset=utf-8", "\(name) given more than once\n")
            return
        }
        switch gate.check(uri: head.uri, host: head.headers.first(name: "host"), origin: head.headers.first(name: "origin")) {
        case .forbidden(let reason):
            log("refused \(head.method) \(head.uri.split(separator: "?").first ?? ""): \(reason)")
            respond(context, .forbidden, "text/plain; charset=utf-8", "forbidden\n")
        case .allowed(let path):
            guard head.method == .GET else {
                respond(context, .methodNotAllowed, "text/plain; charset=utf-8", "method not allowed\n")
                return
            }
            switch path {
            case "/": respond(context, .ok, "text/html; charset=utf-8", page)
            case "/movie": movie(context, uri: head.uri)
            case "/ws":
                guard head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) else {
                    respond(context, .badRequest, "text/plain; charset=utf-8", "a WebSocket upgrade is expected here\n")
                    return
                }
                passing = true
                context.fireChannelRead(data)
            default: respond(context, .notFound, "text/plain; charset=utf-8", "not found\n")
            }
        }
    }

    /// Headers that must come at most once, in lower case.
    static let singleHeaders = ["host", "origin", "upgrade", "sec-websocket-key", "sec-websocket-version"]

    /// The first of `singleHeaders` that has more than one line (names matched without regard to case).
    static func repeatedHeader(_ headers: HTTPHeaders) -> String? {
        var seen: Set<String> = []
        for (name, _) in headers {
            let lower = name.lowercased()
            guard singleHeaders.contains(lower) else { continue }
            if !seen.insert(lower).inserted { return name }
        }
        return nil
    }

    /// `/movie`: checks the query, takes the studio's movie place (503 when another movie is being made), and makes
    /// the movie on a thread of its own; the answer is written back on the event loop when it is done.
    private func movie(_ context: ChannelHandlerContext, uri: String) {
        let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let request: MovieEndpoint.Request
        switch MovieEndpoint.parse(query: query) {
        case .failure(let why):
            respond(context, .badRequest, "text/plain; charset=utf-8", why.message + "\n")
            return
        case .success(let parsed):
            request = parsed
        }
        guard movies.start() else {
            respond(context, .serviceUnavailable, "text/plain; charset=utf-8",
                    "another movie is being made; try again when it is done\n")
            return
        }
        log("making \(request.fileName) at \(request.fps) fps")
        let promise = context.eventLoop.makePromise(of: MovieEndpoint.Response.self)
        let socketPath = self.socketPath, movies = self.movies
        DispatchQueue.global().async {
            let response = MovieEndpoint.make(request, socketPath: socketPath)
            movies.finish()
            promise.succeed(response)
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let log = self.log
        promise.futureResult.whenSuccess { response in
            let (handler, context) = bound.value
            if response.status != 200 {
                log("movie \(request.fileName): \(String(decoding: response.body, as: UTF8.self).prefix(300))")
            }
            handler.respond(context, HTTPResponseStatus(statusCode: response.status), response.type, response.body,
                            fileName: response.fileName)
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ body: String)
    {
        respond(context, status, type, Data(body.utf8), fileName: nil)
    }

    /// Writes the answer and closes the connection; a `fileName` makes it a download of that name.
    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ body: Data,
                         fileName: String?)
    {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        if let fileName { headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(fileName)\"") }
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        // Nothing from anywhere else: inline script and style, pictures as data: URLs, the WebSocket to itself; the
        // Movie button fetches /movie from itself and shows the file it got as a blob: URL.
        let port = gate.port
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'; script-src 'unsafe-inline'; "
            + "style-src 'unsafe-inline'; img-src data: blob:; media-src blob:; "
            + "connect-src ws://127.0.0.1:\(port) ws://localhost:\(port) http://127.0.0.1:\(port) "
            + "http://localhost:\(port); "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
