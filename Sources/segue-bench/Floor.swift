import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// SwiftNIO's own floor for `segue-bench ping`: a bare NIO server on a Unix socket that answers every line with the
/// daemon's `pong` response, without parsing, dispatch or statistics. Run it, then `segue-bench ping --socket PATH`
/// (and `--redis`) against it: what segued costs above this is the daemon's own work.
struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A bare SwiftNIO server answering each line with daemon.ping's response (NIO's floor).")

    @Option(help: "The socket to listen on.")
    var socket: String

    func run() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(PongHandler())
                }
            }
            .bind(unixDomainSocketPath: socket, cleanupExistingSocketFile: true).wait()
        print("NIO floor server on \(socket); stop it with Ctrl-C")
        try channel.closeFuture.wait()
    }
}

/// Answers each `\n` it reads with one fixed line.
final class PongHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let reply = ByteBuffer(string: #"{"jsonrpc":"2.0","id":1,"result":"pong"}"# + "\n")

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let lines = buffer.readableBytesView.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard lines > 0 else { return }
        for _ in 0..<lines { context.write(wrapOutboundOut(reply), promise: nil) }
        context.flush()
    }
}
