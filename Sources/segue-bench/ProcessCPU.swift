import Foundation

/// A process's CPU time from `/proc/PID/stat`: user + system (fields 14 and 15, in clock ticks), all its threads.
/// The kernel's tick is 10 ms (`_SC_CLK_TCK` = 100), so a figure wants a round of a second or more.
enum ProcessCPU {
    /// Seconds of CPU `pid` has used so far (utime + stime); nil when it cannot be read.
    static func seconds(of pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3, so utime (14) and stime (15) are the 12th and 13th from here.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
