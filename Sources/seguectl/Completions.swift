#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON

/// Shell completion of names only the running daemon knows: plugins (`plugins.list`) and scenes (`scene.list`).
///
/// The shell runs `seguectl` for each completion: it asks the socket (`--socket` on the command line being completed,
/// else `SEGUED_SOCKET`, else the default) with one call and a 200 ms limit, and prints nothing when no daemon
/// answers in time, so a shell never hangs on a completion and never shows an error in the middle of a line.
enum Completions {
    /// The longest a completion waits for the daemon's answer.
    static let timeoutMs: Int32 = 200

    /// Plugin names (every kind), and the built-in `default-slide`.
    static let plugins: CompletionKind = .custom { words, index, prefix in
        names(words: words, prefix: completing(words, index, prefix), method: "plugins.list", extra: ["default-slide"])
    }

    /// Plugin names for `filmstrip`'s NAME or NAME:KIND arguments.
    static let animators: CompletionKind = plugins

    /// Scene ids.
    static let scenes: CompletionKind = .custom { words, index, prefix in
        names(words: words, prefix: completing(words, index, prefix), method: "scene.list", extra: [])
    }

    /// The text being completed. ArgumentParser (1.8) cuts its `prefix` from the line's last word, whatever word is
    /// being completed; when that is not the last one, the word at `index` (up to its end) is used instead.
    static func completing(_ words: [String], _ index: Int, _ prefix: String) -> String {
        guard words.indices.contains(index), index != words.count - 1 else { return prefix }
        return words[index]
    }

    /// The `name` (plugins) or `scene` (scenes) of each entry of `method`'s array that starts with `prefix`, sorted.
    static func names(words: [String], prefix: String, method: String, extra: [String]) -> [String] {
        guard let client = try? SegueClient(socketPath: SocketArgument.resolve(flag: socketFlag(in: words))),
            let result = try? client.call(method, timeoutMs: timeoutMs),
            case .array(let entries) = result
        else { return [] }
        let key = method == "scene.list" ? "scene" : "name"
        var found = Set(extra)
        for entry in entries { if let name = entry[key]?.stringValue { found.insert(name) } }
        return found.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The `--socket` value on the command line being completed, if any (the last one wins, as when it runs).
    static func socketFlag(in words: [String]) -> String? {
        var value: String?
        for (i, word) in words.enumerated() {
            if word == "--socket", i + 1 < words.count { value = words[i + 1] }
            if word.hasPrefix("--socket=") { value = String(word.dropFirst("--socket=".count)) }
        }
        return value
    }
}
