import Foundation

/// Runs the movie's external tools: each found on the PATH (a missing one is `MovieError.missingTool`, naming its
/// Debian package), run with no shell, stdin closed, stderr kept in a file, and stopped (SIGTERM, then SIGKILL a
/// second later) when it runs longer than `timeout`. The one place `seguectl movie` and the studio start a process.
public struct ToolRunner: Sendable {
    /// The PATH the tools are looked for on (the process's own by default).
    public var path: String
    /// The longest one run may take, in seconds.
    public var timeout: Double

    public init(path: String? = nil, timeout: Double = 120) {
        self.path = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        self.timeout = timeout
    }

    /// The tool's executable on the PATH.
    public func locate(_ tool: MovieTool) throws(MovieError) -> String {
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = String(folder) + "/" + tool.command
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                access(candidate, X_OK) == 0
            {
                return candidate
            }
        }
        throw .missingTool(tool)
    }

    /// Runs `tool` with `arguments` in `directory`, its stderr written to `stderrPath`; throws when it cannot
    /// start, exits with a status other than 0 (with the end of its stderr), or times out.
    public func run(_ tool: MovieTool, _ arguments: [String], in directory: String, stderrPath: String)
        throws(MovieError)
    {
        let executable = try locate(tool)
        guard FileManager.default.createFile(atPath: stderrPath, contents: nil),
            let stderr = FileHandle(forWritingAtPath: stderrPath)
        else {
            throw .io("cannot write \(stderrPath)")
        }
        defer { try? stderr.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            throw .io("cannot start \(executable): \(error.localizedDescription)")
        }
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if ended.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                ended.wait()
            }
            throw .timedOut(tool, seconds: timeout)
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            let status = process.terminationStatus + (process.terminationReason == .exit ? 0 : 128)
            throw .toolFailed(tool, status: status, stderr: String(said.suffix(4000)))
        }
    }
}
