/// Request counters and latency percentiles per method (daemon.stats).
struct RequestStats {
    struct MethodStats {
        var count = 0
        /// The last `window` latencies in nanoseconds (a ring).
        var samples: [Int64] = []
        var next = 0

        mutating func add(_ nanoseconds: Int64) {
            count += 1
            if samples.count < RequestStats.window {
                samples.append(nanoseconds)
            } else {
                samples[next] = nanoseconds
                next = (next + 1) % RequestStats.window
            }
        }
    }

    static let window = 4096
    var requests = 0
    var errorsByCode: [Int: Int] = [:]
    var methods: [String: MethodStats] = [:]

    mutating func record(method: String, nanoseconds: Int64, errorCode: Int?) {
        requests += 1
        if let errorCode { errorsByCode[errorCode, default: 0] += 1 }
        // Mutated in place through the dictionary: copying MethodStats out would copy its sample array.
        methods[method, default: MethodStats()].add(nanoseconds)
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
