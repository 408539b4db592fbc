import Testing

@testable import SegueStudio

@Suite("The studio's request gate")
struct RequestGateTests {
    let gate = RequestGate(token: "abc123", port: 8700)

    @Test("the token, the studio's own Host and (when sent) its own Origin let a request through")
    func allowed() {
        #expect(gate.check(uri: "/?token=abc123", host: "127.0.0.1:8700", origin: nil) == .allowed(path: "/"))
        #expect(gate.check(uri: "/ws?x=1&token=abc123", host: "localhost:8700", origin: "http://localhost:8700")
                == .allowed(path: "/ws"))
        #expect(gate.check(uri: "/?token=abc123", host: "LOCALHOST:8700", origin: "http://127.0.0.1:8700")
                == .allowed(path: "/"))
    }

    @Test("no token, a wrong or partial one, another Host or port, or a foreign Origin is refused")
    func refused() {
        let cases: [(String, String?, String?)] = [
            ("/", "127.0.0.1:8700", nil),
            ("/?token=", "127.0.0.1:8700", nil),
            ("/?token=abc12", "127.0.0.1:8700", nil),
            ("/?token=abc1234", "127.0.0.1:8700", nil),
            ("/?tokenx=abc123", "127.0.0.1:8700", nil),
            ("/?token=abc123", nil, nil),
            ("/?token=abc123", "evil.example:8700", nil),
            ("/?token=abc123", "127.0.0.1:8701", nil),
            ("/?token=abc123", "127.0.0.1", nil),
            ("/?token=abc123", "127.0.0.1:8700", "http://evil.example"),
            ("/?token=abc123", "127.0.0.1:8700", "null"),
            ("/?token=abc123", "127.0.0.1:8700", "https://127.0.0.1:8700"),
        ]
        for (uri, host, origin) in cases {
            guard case .forbidden = gate.check(uri: uri, host: host, origin: origin) else {
                Issue.record("allowed \(uri) host \(host ?? "-") origin \(origin ?? "-")")
                continue
            }
        }
    }

    @Test("tokens are 32 hex digits, different each time; the comparison needs every character")
    func tokens() throws {
        let a = try #require(StudioToken.make()), b = try #require(StudioToken.make())
        #expect(a.count == 32 && a != b)
        #expect(a.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(StudioToken.matches(a, a) && !StudioToken.matches(b, a) && !StudioToken.matches(String(a.dropLast()), a))
    }
}
