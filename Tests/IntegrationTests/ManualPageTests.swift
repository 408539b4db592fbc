import Foundation
import Testing

/// docs/man: segued(8) and seguectl(1) are made from the commands' help by ArgumentParser's generate-manual plugin
/// (`swift package --disable-sandbox plugin generate-manual`, README "Manual pages"); segued.toml(5) is written by
/// hand. These tests fail when a page falls behind: a subcommand, an option or a config key it does not describe.
@Suite("Manual pages")
struct ManualPageTests {
    /// A roff page as words: escapes like `\-` and font changes like `\fB` taken out, mdoc's flag macro
    /// (`Fl -config`) written as it prints (`--config`).
    static func text(_ page: String) throws -> String {
        let roff = try String(contentsOfFile: repositoryRoot + "/docs/man/" + page, encoding: .utf8)
        return roff.replacingOccurrences(of: "Fl -", with: "--").replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
            .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\fR", with: "")
            .replacingOccurrences(of: "\\fP", with: "").replacingOccurrences(of: "\\&", with: "")
    }

    /// Every subcommand (by its path, `seguectl check`) and every long option a command's
    /// `--experimental-dump-help` lists.
    static func help(of binary: String) throws -> (commands: [String], options: [String]) {
        let result = try runCommand(binaryDirectory + "/" + binary, ["--experimental-dump-help"])
        let json = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        var commands: [String] = []
        var options: Set<String> = []
        func walk(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? ""
            guard name != "help" else { return }
            commands.append((path + [name]).joined(separator: " "))
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                guard argument["shouldDisplay"] as? Bool ?? true else { continue }
                for n in argument["names"] as? [[String: Any]] ?? [] where n["kind"] as? String == "long" {
                    if let long = n["name"] as? String { options.insert("--" + long) }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path: path + [name]) }
        }
        walk(json?["command"] as? [String: Any] ?? [:], path: [])
        return (commands, options.sorted())
    }

    @Test("seguectl(1) and segued(8) describe every subcommand and option their --help has",
          arguments: [("seguectl", "seguectl.1"), ("segued", "segued.8")])
    func commandPages(binary: String, page: String) throws {
        let text = try ManualPageTests.text(page)
        let (commands, options) = try ManualPageTests.help(of: binary)
        #expect(!options.isEmpty)
        for command in commands { #expect(text.contains(command), "\(page) lacks '\(command)': regenerate it") }
        for option in options { #expect(text.contains(option), "\(page) lacks \(option): regenerate it") }
    }

    @Test("segued.toml(5) describes every key config/segued.toml shows, under its section")
    func configPage() throws {
        let text = try ManualPageTests.text("segued.toml.5")
        let toml = try String(contentsOfFile: repositoryRoot + "/config/segued.toml", encoding: .utf8)
        var section = ""
        var keys: [String] = []
        for line in toml.split(separator: "\n") {
            if line.hasPrefix("[") { section = String(line) }
            let body = line.hasPrefix("# ") ? line.dropFirst(2) : line[...]
            guard let equals = body.range(of: " = "), !body[..<equals.lowerBound].contains(" ") else { continue }
            let key = String(body[..<equals.lowerBound])
            keys.append(key)
            // ".SH [daemon]" … ".B socket" before the next section.
            guard let start = text.range(of: ".SH " + section) else {
                Issue.record("segued.toml.5 has no section \(section)")
                continue
            }
            let rest = text[start.upperBound...]
            let end = rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex
            #expect(rest[..<end].contains("\n.B " + key + "\n"), "segued.toml.5 lacks \(section) \(key)")
        }
        #expect(keys.count > 20)
    }

    static let man = ["/usr/bin/man", "/bin/man"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("man renders each page without a warning", .enabled(if: man != nil, "man is not installed"),
          arguments: ["segued.8", "seguectl.1", "segued.toml.5"])
    func renders(page: String) throws {
        let result = try runCommand(ManualPageTests.man ?? "", ["--warnings", "-l", repositoryRoot + "/docs/man/" + page],
                                    environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
        #expect(result.out.contains("NAME"))
    }
}
