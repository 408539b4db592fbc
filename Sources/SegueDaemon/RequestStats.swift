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
        /// Every call's latency by bucket (`RequestStats.bucketBounds`, the last one past them all), not cumulative;
        /// with `totalNanoseconds`, the histogram `daemon.metrics` writes. Unlike the samples, never forgets.
        var buckets = [Int](repeating: 0, count: RequestStats.bucketBounds.count + 1)
        var totalNanoseconds: Int64 = 0

        mutating func add(_ nanoseconds: Int64) {
            count += 1
            totalNanoseconds &+= nanoseconds
            var bucket = 0
            while bucket < RequestStats.bucketBounds.count && nanoseconds > RequestStats.bucketBounds[bucket].ns {
                bucket += 1
            }
            buckets[bucket] += 1
            if samples.count < RequestStats.window {
                samples.append(nanoseconds)
            } else {
                samples[next] = nanoseconds
                next = (next + 1) % RequestStats.window
            }
        }
    }

    static let window = 4096
    /// The request latency histogram's upper bounds (inclusive, Prometheus' `le`), from 10 µs to 10 s in 1-2.5-5
    /// steps: a ping takes tens of µs, a `clock.advance` over a long transition or a `plugins.check` case tens of
    /// ms. Each with its `le` label as OpenMetrics writes it (the shortest text of the number in seconds).
    static let bucketBounds: [(ns: Int64, le: String)] = [
        (10_000, "1e-05"), (25_000, "2.5e-05"), (50_000, "5e-05"), (100_000, "0.0001"), (250_000, "0.00025"),
        (500_000, "0.0005"), (1_000_000, "0.001"), (2_500_000, "0.0025"), (5_000_000, "0.005"),
        (10_000_000, "0.01"), (25_000_000, "0.025"), (50_000_000, "0.05"), (100_000_000, "0.1"),
        (250_000_000, "0.25"), (500_000_000, "0.5"), (1_000_000_000, "1.0"), (2_500_000_000, "2.5"),
        (5_000_000_000, "5.0"), (10_000_000_000, "10.0"),
    ]
    var requests = 0
    /// Errors by code, in the order the codes were first seen (a handful of codes exist, so a scan beats a hash).
    private(set) var errorCounts: [(code: Int, count: Int)] = []
    /// Indexed by method number (`MethodTable`).
    private(set) var methods: [MethodStats]

    init(methodCount: Int) {
        // One MethodStats each, not copies of one: copies would share one bucket array, and each method's first
        // request would then copy it (an allocation on the request path).
        methods = (0..<methodCount).map { _ in MethodStats() }
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
