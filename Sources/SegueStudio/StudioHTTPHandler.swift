import NIOCore
import NIOHTTP1

/// Every HTTP request comes here first: 403 for any request the gate refuses (no token, a foreign Host or
/// Origin), the page at `/`, 404 for other paths. Only a WebSocket upgrade of `/ws` that the gate allows is passed
/// on, to the upgrader behind it. Each response closes its connection.
final class StudioHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let gate: RequestGate
    let page: String
    let log: @Sendable (String) -> Void
    private var answered = false

    init(gate: RequestGate, page: String, log: @escaping @Sendable (String) -> Void) {
        self.gate = gate
        self.page = page
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

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ body: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        // Nothing from anywhere else: inline script and style, pictures as data: URLs, the WebSocket to itself.
        let port = gate.port
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'; script-src 'unsafe-inline'; "
            + "style-src 'unsafe-inline'; img-src data:; connect-src ws://127.0.0.1:\(port) ws://localhost:\(port); "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
