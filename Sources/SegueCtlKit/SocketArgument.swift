#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueClient

/// How seguectl finds the daemon's socket: `--socket PATH` (before or after the subcommand), else `SEGUED_SOCKET`,
/// else the daemon's own default (`$XDG_RUNTIME_DIR/segued.sock`, else `/tmp/segued-$UID.sock`).
public enum SocketArgument {
    /// The socket for a `--socket` value (nil when not given) and the environment's `SEGUED_SOCKET`.
    public static func resolve(flag: String?,
                               environment: String? = getenv("SEGUED_SOCKET").map { String(cString: $0) }) -> String
    {
        if let flag { return flag }
        if let environment, !environment.isEmpty { return environment }
        return SegueClient.defaultSocketPath
    }

    /// The arguments (without the program name) with every `--socket PATH` / `--socket=PATH` that comes before the
    /// subcommand moved to just after it, where the subcommand's own `--socket` reads it. One given after the
    /// subcommand as well comes later, so it wins. With no subcommand (`seguectl --socket S --version`) they are
    /// dropped, and so they are before `help`, which takes none.
    public static func movedAfterSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var moved: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--socket", i + 1 < arguments.count {
                moved += [argument, arguments[i + 1]]
                i += 2
            } else if argument.hasPrefix("--socket=") {
                moved.append(argument)
                i += 1
            } else if argument.hasPrefix("-") {
                leading.append(argument)
                i += 1
            } else {
                break
            }
        }
        guard i < arguments.count else { return leading }
        let subcommand = arguments[i]
        if subcommand == "help" { moved = [] }
        return leading + [subcommand] + moved + arguments[(i + 1)...]
    }
}
