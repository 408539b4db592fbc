#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a plugin file under the folder's rules, without ever blocking the thread that asks.
///
/// The rules, checked on the descriptor that is then read (`fstat` after an `O_NONBLOCK` open, so the file checked
/// is the file read, whatever replaces the name meanwhile):
/// - it is a regular file (not a FIFO, a directory, a socket or a device), of at most 4 MiB;
/// - it is owned by segued's user or by root, and is not writable by other users;
/// - reached through a symbolic link (authors link plugins from a checkout), those rules apply to the file the link
///   leads to, which must also have the link's owner: nobody who can only add a link to the folder makes segued
///   read, and report on, a file of someone else.
/// A file refused by a rule is never read, so no error about it can quote its content.
enum PluginFile {
    /// Largest plugin file read (4 MiB).
    static let sizeLimit = 4 << 20

    /// The file's bytes, or why there are none (`.gone`: nothing at the path, not even a link).
    static func read(_ path: String) -> Result<[UInt8], FileProblem> {
        guard let entry = FileSystem.linkStatus(path) else { return .failure(.gone) }
        let link: (status: stat, target: String)?
        if entry.st_mode & S_IFMT == S_IFLNK {
            link = (entry, FileSystem.linkTarget(path) ?? "?")
        } else {
            link = nil
        }
        // What is not a regular file is refused before it is opened at all: opening a device can do things. The
        // descriptor's own check below is what holds when the entry changes between the two.
        var ahead = entry
        if link != nil, stat(path, &ahead) != 0 {
            return .failure(.refused(leadsTo(link, "which does not exist")))
        }
        if ahead.st_mode & S_IFMT != S_IFREG {
            return .failure(.refused(leadsTo(link, "not a regular file (it is \(FileSystem.kind(ahead.st_mode)))")))
        }
        let result = FileSystem.readRegularFile(path, limit: sizeLimit) { st in problem(st, link: link) }
        switch result {
        case .success(let opened): return .success(opened.bytes)
        case .failure(.gone): return .failure(link == nil ? .gone : .refused(leadsTo(link, "which does not exist")))
        case .failure(.refused(let message)):
            return .failure(.refused(message.hasPrefix("refused") ? message : leadsTo(link, message)))
        }
    }

    /// Why the opened file breaks a rule (its owner, its mode; with `link`, the link's owner), or nil.
    static func problem(_ st: stat, link: (status: stat, target: String)?) -> String? {
        let me = geteuid()
        if st.st_uid != me && st.st_uid != 0 {
            return "refused: " + leadsTo(link, "owned by uid \(st.st_uid), not by segued's user (uid \(me)) or root")
        }
        if let link, link.status.st_uid != st.st_uid {
            return "refused: " + leadsTo(link, "owned by uid \(st.st_uid), but the link by uid \(link.status.st_uid) "
                + "(a link must have the owner of the file it leads to)")
        }
        if st.st_mode & 0o002 != 0 {
            return "refused: " + leadsTo(link, "writable by other users (chmod o-w)")
        }
        return nil
    }

    /// A problem of the file, said of the file or, through a link, of the file it leads to.
    private static func leadsTo(_ link: (status: stat, target: String)?, _ problem: String) -> String {
        guard let link else {
            return problem.hasPrefix("not a") || problem.hasPrefix("cannot") || problem.hasPrefix("the file")
                ? problem : "the file is " + problem
        }
        if problem.hasPrefix("cannot") || problem.hasPrefix("the file") {
            return "the symbolic link leads to \(link.target): \(problem)"
        }
        let what = problem.hasPrefix("which") ? problem : "which is " + problem
        return "the symbolic link leads to \(link.target), \(what)"
    }
}
