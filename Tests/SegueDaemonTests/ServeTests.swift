import Logging
import SegueJSON
import Testing

@testable import SegueDaemon

/// `Daemon.serve`, the socket's request path: the response is queued on the connection from the dispatcher's bytes,
/// with no String made of it. It must queue exactly what `handle` answers, in the same place among the other lines
/// (events, and the answers of waits the request ended, come first).
@Suite("Serve")
struct ServeTests {
    /// Every line a connection is given, in order, and how many came as bytes.
    final class Lines: ConnectionOutput {
        var isWritable: Bool { true }
        var lines: [String] = []
        var asBytes = 0
        func send(_ line: String) { lines.append(line) }
        func send(bytes line: UnsafeBufferPointer<UInt8>) {
            asBytes += 1
            lines.append(String(decoding: line, as: UTF8.self))
        }
        func flush() {}
        func close() {}
    }

    static func daemon() -> Daemon {
        var config = DaemonConfig()
        config.pluginsDir = "/nonexistent"
        let daemon = Daemon(config: config, logger: Logger(label: "test"))
        daemon.start()
        return daemon
    }

    static let requests = [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":"é","method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"daemon.pong"}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"daemon.ping","params":{"x":1}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"daemon.ping","params":[1]}"#,
        #"{"jsonrpc":"2.0","method":"daemon.ping","params":[1]}"#,
        #"{"jsonrpc":"2.0","id":5,"#,
        #"[]"#,
        #"[{"jsonrpc":"2.0","id":6,"method":"daemon.ping"},{"jsonrpc":"2.0","method":"daemon.ping"},1]"#,
        #"[{"jsonrpc":"2.0","method":"daemon.ping"}]"#,
        #"{"jsonrpc":"2.0","id":7,"method":"scene.create","params":{"id":"s","size":{"w":320,"h":480},"clock":"manual"}}"#,
        #"{"jsonrpc":"2.0","id":8,"method":"events.subscribe","params":{"types":["transition","lifecycle"]}}"#,
        #"{"jsonrpc":"2.0","id":9,"method":"vc.create","params":{"id":"a"}}"#,
        #"{"jsonrpc":"2.0","id":10,"method":"vc.create","params":{"id":"b"}}"#,
        #"{"jsonrpc":"2.0","id":11,"method":"container.create","params":{"id":"c","kind":"custom","children":["a","b"]}}"#,
        #"{"jsonrpc":"2.0","id":12,"method":"scene.set_root","params":{"vc":"c"}}"#,
        #"{"jsonrpc":"2.0","id":13,"method":"container.select","params":{"container":"c","index":1}}"#,
        #"{"jsonrpc":"2.0","id":14,"method":"transition.wait","params":{"transition":"t-1"}}"#,
        #"{"jsonrpc":"2.0","id":15,"method":"clock.advance","params":{"ms":1100}}"#,
        #"[{"jsonrpc":"2.0","id":16,"method":"container.select","params":{"container":"c","index":0}},{"jsonrpc":"2.0","id":17,"method":"transition.wait","params":{"transition":"t-2"}}]"#,
        #"{"jsonrpc":"2.0","id":18,"method":"clock.advance","params":{"ms":1100}}"#,
        #"{"jsonrpc":"2.0","id":19,"method":"container.select","params":{"container":"c","index":"x"}}"#,
    ]

    @Test("serve queues the line handle answers, after the same events and wait answers, and nothing when it has none")
    func sameLinesAsHandle() throws {
        let served = ServeTests.daemon(), handled = ServeTests.daemon()
        let servedOut = Lines(), handledOut = Lines()
        let servedConnection = served.connect(output: servedOut)
        let handledConnection = handled.connect(output: handledOut)
        for request in ServeTests.requests {
            var bytes = Array(request.utf8)
            let answered = bytes.withUnsafeMutableBufferPointer {
                served.serve(line: UnsafeBufferPointer($0), from: servedConnection)
            }
            let response = handled.handle(line: request, from: handledConnection)
            if let response { handledConnection.send(response) }
            served.flushPending()
            handled.flushPending()
            #expect(answered == (response != nil), "\(request)")
            #expect(servedOut.lines == handledOut.lines, "\(request)")
        }
        // The responses went to the connection as bytes; the deferred wait answers and the events were there too.
        #expect(servedOut.asBytes >= 15)
        #expect(servedOut.lines.contains { $0.contains(#""id":14,"result":{"ended":true"#) })
        #expect(servedOut.lines.contains { $0.contains(#""method":"event""#) })
    }
}
