import SegueClient
import SegueCtlKit
import Testing

@Suite("seguectl's --socket before the subcommand")
struct SocketArgumentTests {
    @Test("--socket before the subcommand moves just after it; the rest keeps its order", arguments: [
        (["--socket", "/s", "call", "daemon.ping"], ["call", "--socket", "/s", "daemon.ping"]),
        (["--socket=/s", "tree", "--scene", "x"], ["tree", "--socket=/s", "--scene", "x"]),
        (["call", "daemon.ping", "--socket", "/s"], ["call", "daemon.ping", "--socket", "/s"]),
        (["--socket", "/a", "call", "m", "--socket", "/b"], ["call", "--socket", "/a", "m", "--socket", "/b"]),
        (["--socket", "/s", "--version"], ["--version"]),
        (["--socket", "/s", "help", "call"], ["help", "call"]),
        (["--help"], ["--help"]),
        ([], []),
    ])
    func moved(arguments: [String], expected: [String]) {
        #expect(SocketArgument.movedAfterSubcommand(arguments) == expected)
    }

    @Test("the flag beats SEGUED_SOCKET, which beats the default; an empty SEGUED_SOCKET is unset")
    func precedence() {
        #expect(SocketArgument.resolve(flag: "/flag", environment: "/env") == "/flag")
        #expect(SocketArgument.resolve(flag: nil, environment: "/env") == "/env")
        #expect(SocketArgument.resolve(flag: nil, environment: "") == SegueClient.defaultSocketPath)
        #expect(SocketArgument.resolve(flag: nil, environment: nil) == SegueClient.defaultSocketPath)
    }
}
