/// Request counters and latency percentiles per method (daemon.stats).
struct RequestStats {
    struct MethodStats {
        var count = 0
        /// The last `window` latencies in nanoseconds (a ring).
        var samples: [Int64] = []
        var next = 0
    }

    static let window = 4096
    var requests = 0
    var errorsByCode: [Int: Int] = [:]
    var methods: [String: MethodStats] = [:]

    mutating func record(method: String, nanoseconds: Int64, errorCode: Int?) {
        requests += 1
        if let errorCode { errorsByCode[errorCode, default: 0] += 1 }
        var stats = methods[method] ?? MethodStats()
        stats.count += 1
        if stats.samples.count < RequestStats.window {
            stats.samples.append(nanoseconds)
        } else {
            stats.samples[stats.next] = nanoseconds
            stats.next = (stats.next + 1) % RequestStats.window
        }
        methods[method] = stats
    }

    mutating func recordError(code: Int) {
        requests += 1
        errorsByCode[code, default: 0] += 1
    }

    /// Percentile `p` (0…1) of the samples in microseconds.
    static func percentile(_ sorted: [Int64], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
        return Double(sorted[max(0, index)]) / 1000
    }
}
