import SegueKit

/// Where a connection's lines go: a socket (`SocketConnection`) in the server, a buffer in tests.
public protocol ConnectionOutput: AnyObject {
    /// False while the connection's unread output is over the high watermark (the reader is slow).
    var isWritable: Bool { get }
    /// Queues one line (without its newline).
    func send(_ line: String)
    /// Queues one line given as UTF-8 bytes (without its newline): the event bus's lines.
    func send(bytes line: UnsafeBufferPointer<UInt8>)
    /// Writes out what was queued.
    func flush()
    /// Closes the connection after what was queued.
    func close()
}

extension ConnectionOutput {
    public func send(bytes line: UnsafeBufferPointer<UInt8>) { send(String(decoding: line, as: UTF8.self)) }
}

/// One client of the daemon: its current scene and its subscriptions, which die with it.
public final class ClientConnection {
    public let id: Int
    let output: any ConnectionOutput
    /// The scene that methods default to (the last one created with scene.create or chosen with scene.use).
    public internal(set) var currentScene: String?
    var subscriptions: [Int] = []
    /// The last event (`EventBus.eventNumber`) given to this connection: a second subscription that wants it skips it.
    var lastEventNumber = 0
    @exclusivity(unchecked) var needsFlush = false
    /// Answers owed to this connection and not given yet (transition.wait, plugins.check; `OwedAnswers` counts
    /// them): a connection that shut down its sending side stays open while there are any.
    package var owedAnswers = 0
    /// The peer's uid, when known.
    public let peerUID: UInt32?
    /// While the reader is slow: the latest frame event per scene, held back, and how many frames were dropped
    /// (superseded by a later one before they could be sent).
    var coalescedFrames: [(scene: String, line: [UInt8])] = []
    var droppedCount = 0
    /// Bytes queued while the connection was not writable (other events are never dropped, up to the hard cap).
    var bytesWhileBlocked = 0
    /// Set once the connection passed the hard cap and is being closed.
    var choked = false

    /// Where the connection puts itself when it gets its first line since a flush.
    private let flushQueue: FlushQueue

    init(id: Int, output: any ConnectionOutput, peerUID: UInt32?, flushQueue: FlushQueue) {
        self.id = id
        self.output = output
        self.peerUID = peerUID
        self.flushQueue = flushQueue
    }

    package func send(_ line: String) {
        output.send(line)
        if !needsFlush {
            needsFlush = true
            flushQueue.connections.append(self)
        }
    }

    func send(bytes line: UnsafeBufferPointer<UInt8>) {
        output.send(bytes: line)
        if !needsFlush {
            needsFlush = true
            flushQueue.connections.append(self)
        }
    }
}

/// The connections with lines queued since the last flush, so a flush visits those and not every connection.
final class FlushQueue {
    @exclusivity(unchecked) var connections: [ClientConnection] = []
    /// The list being flushed (kept to reuse its storage).
    @exclusivity(unchecked) var spare: [ClientConnection] = []
}
