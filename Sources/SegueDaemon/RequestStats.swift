/// Request counters and latency percentiles per method (daemon.stats).
///
/// Kept by method number (`MethodTable`), not by name, and errors in a short list, not a dictionary: recording a
/// request hashes nothing and allocates nothing once a method's ring is full.
struct RequestStats {
    /// One method's calls: how many, and its latest latencies.
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
    /// Errors by code, in the order the codes were first seen (a handful of codes exist, so a scan beats a hash).
    private(set) var errorCounts: [(code: Int, count: Int)] = []
    /// Indexed by method number (`MethodTable`).
    private(set) var methods: [MethodStats]

    init(methodCount: Int) {
        methods = Array(repeating: MethodStats(), count: methodCount)
    }

    mutating func record(method: Int, nanoseconds: Int64, errorCode: Int?) {
        requests += 1
        if let errorCode { countError(errorCode) }
        // Mutated in place: copying MethodStats out would copy its sample array.
        methods[method].add(nanoseconds)
    }

    mutating func recordError(code: Int) {
        requests += 1
        countError(code)
    }

    private mutating func countError(_ code: Int) {
        for i in errorCounts.indices where errorCounts[i].code == code {
            errorCounts[i].count += 1
            return
        }
        errorCounts.append((code, 1))
    }

    /// Percentile `p` (0…1) of the samples in microseconds.
    static func percentile(_ sorted: [Int64], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
        return Double(sorted[max(0, index)]) / 1000
    }
}
