import Foundation

/// `--open`, as Jupyter does it: the token goes into a private file (0600, in a 0700 folder of its own) holding a
/// redirect to the page, and the browser is started on that file's path, so the token never appears on a command
/// line that `ps` would show to other users.
public enum StudioOpener {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the redirect file and returns its path.
    public static func writeRedirect(url: String, in base: String = NSTemporaryDirectory()) throws -> String {
        let folder = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/segue-studio-" + UUID().uuidString
        guard mkdir(folder, 0o700) == 0 else { throw Failure(description: "cannot create \(folder)") }
        let path = folder + "/open.html"
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        let html = """
            <!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=\(escaped)">
            <title>segued studio</title><p><a href="\(escaped)">Open the studio</a></p>
            """
        let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path)") }
        defer { close(fd) }
        let bytes = Array(html.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure(description: "cannot write \(path)")
        }
        return path
    }

    /// Writes the redirect file and starts `xdg-open` (or `$BROWSER`) on it.
    public static func open(url: String) throws {
        let path = try writeRedirect(url: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let browser = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        process.arguments = [browser, path]
        try process.run()
    }
}
