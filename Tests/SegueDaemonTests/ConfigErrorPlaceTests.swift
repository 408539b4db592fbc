import Foundation
import Testing

@testable import SegueDaemon

/// Every config error names its file and line, and the `section.key` whose value is at fault — a syntax error
/// TOMLKit finds inside a value included (issue 23: `max_scenes = 9223372036854775808`).
@Suite("Config errors name file, line and key")
struct ConfigErrorPlaceTests {
    func problem(_ toml: String) -> (DaemonConfig.Problem?, String) {
        let file = "/tmp/sgp-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36) + ".toml"
        try? toml.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        do throws(DaemonConfig.Problem) {
            _ = try DaemonConfig.load(file: file)
            return (nil, file)
        } catch {
            return (error, file)
        }
    }

    @Test("a syntax error inside a key's value names that key and its line", arguments: [
        ("[limits]\nmax_scenes = 9223372036854775808\n", 2, "limits.max_scenes"),
        ("[limits]\nmax_scenes = -9223372036854775809\n", 2, "limits.max_scenes"),
        ("[limits]\nmax_scenes = 99999999999999999999999 # many\n", 2, "limits.max_scenes"),
        ("# the engine\n\n[engine]\nfps = 0x1FFFFFFFFFFFFFFFF\n", 4, "engine.fps"),
        ("[lua]\ncall_timeout_ms = 1_000_\n", 2, "lua.call_timeout_ms"),
        ("[daemon]\nsocket = \"/tmp/\\q.sock\"\n", 2, "daemon.socket"),
        ("[daemon]\nlog_level = \"info\n", 2, "daemon.log_level"),
        ("[security]\nallowed_uids = [\n  1,\n  99999999999999999999,\n]\n", 4, "security.allowed_uids"),
        ("[engine]\n\"fps\" = 9223372036854775808\n", 2, "engine.fps"),
        ("limits.max_scenes = 9223372036854775808\n", 1, "limits.max_scenes"),
        ("[engine]\nfps = 60\n[limits]\nmax_connections = 4\nmax_scenes = 9223372036854775808\n", 5, "limits.max_scenes"),
    ])
    func syntaxInValue(toml: String, line: Int, key: String) {
        let (error, file) = problem(toml)
        #expect(error?.key == key, "\(error?.message ?? "no error")")
        #expect(error?.line == line)
        #expect(error?.file == file)
        #expect(error?.message.hasPrefix("\(file):\(line): '\(key)': ") == true, "\(error?.message ?? "")")
    }

    @Test("a syntax error outside any value names the file and line, and no key", arguments: [
        ("[limits\nmax_scenes = 5\n", 1),
        ("[engine]\nfps 60\n", 2),
        ("[engine]\nmax scenes = 1\n", 2),
        ("[engine]\n\n\n= 3\n", 4),
        ("[engine]\nfps = 60\n[engine]\n", 3),
    ])
    func syntaxOutsideValue(toml: String, line: Int) {
        let (error, file) = problem(toml)
        #expect(error != nil)
        #expect(error?.key == nil, "\(error?.message ?? "")")
        #expect(error?.line == line, "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("\(file):\(line): ") == true, "\(error?.message ?? "")")
    }

    @Test("a value of the wrong type or out of range, an unknown key or section: file, the key's line, the key",
          arguments: [
              ("[engine]\n\nfps = 0\n", 3, "engine.fps"),
              ("[daemon]\nlog_level = \"info\"\n[limits]\nmax_scenes = \"many\"\n", 4, "limits.max_scenes"),
              ("[limits]\nmax_scenes = 9223372036854775807\n", 2, "limits.max_scenes"),
              ("\n[nope]\nx = 1\n", 2, "nope"),
              ("[engine]\nfps = 60\nfsp = 60\n", 3, "engine.fsp"),
              ("[security]\nallowed_uids = [\n  1,\n  -2,\n]\n", 2, "security.allowed_uids"),
          ])
    func semantic(toml: String, line: Int, key: String) {
        let (error, file) = problem(toml)
        #expect(error?.key == key, "\(error?.message ?? "no error")")
        #expect(error?.line == line, "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("\(file):\(line): ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(key) == true)
    }

    @Test("the scanner maps places to keys: values over several lines, comments, quotes holding brackets")
    func scanner() {
        let lines = ConfigLines("""
            # [not.a.section]
            [daemon]
            socket = "/tmp/a[b.sock" # ]
            log_level = '''
            x = 1
            '''
            [security]
            allowed_uids = [ 1,
              2, # ]
            ]
            """)
        #expect(lines.key(at: 1, column: 0) == nil)
        #expect(lines.key(at: 3, column: 0) == "daemon.socket")
        #expect(lines.key(at: 3, column: 2) == nil)  // in the key's name
        #expect(lines.key(at: 5, column: 1) == "daemon.log_level")
        #expect(lines.key(at: 7, column: 0) == nil)
        #expect(lines.key(at: 9, column: 1) == "security.allowed_uids")
        #expect(lines.key(at: 10, column: 1) == "security.allowed_uids")
        #expect(lines.line(of: "security") == 7 && lines.line(of: "daemon.log_level") == 4)
        #expect(lines.line(of: "x") == nil)
    }
}
