/// The most heap allocations each steady-state unit of work may make, as `segue-allocs` counts them (see
/// Sources/segue-allocs/SegueAllocs.swift for what each name measures). Counts, not times: deterministic for a
/// build configuration. These are for the debug build, the one the test suite (scripts/test, CI) runs; a release
/// build makes fewer.
///
/// To renew: `swift build --build-tests && .build/debug/segue-allocs` prints today's counts (and
/// `swift test --skip-build --filter AllocationCountTests` prints each measured value beside its ceiling). Lower a
/// ceiling in the commit that removes allocations; raise one only in a commit that says why the work needs more.
enum AllocationCeilings {
    static let debug: [String: Double] = [
        "engine.frame": 201,
        "engine.select": 76.01,
        "daemon.ping": 1,
        "daemon.frame": 1200.35,  // 2601.35 before the frame path read the table's flat layout (its closures allocated their contexts in the debug build)
    ]

    /// What is wrong with `counts` against `ceilings`: a count over its ceiling (counts are printed with two
    /// decimals, hence the half-hundredth of slack), a ceiling nothing measured, a count with no ceiling.
    static func problems(_ counts: [String: Double], ceilings: [String: Double] = debug) -> [String] {
        var problems: [String] = []
        for (name, ceiling) in ceilings.sorted(by: { $0.key < $1.key }) {
            guard let measured = counts[name] else {
                problems.append("\(name): not measured by segue-allocs (remove its ceiling?)")
                continue
            }
            if measured > ceiling + 0.005 {
                problems.append("\(name): \(measured) allocations, over its ceiling of \(ceiling)")
            }
        }
        for name in counts.keys.sorted() where ceilings[name] == nil {
            problems.append("\(name): measured but has no ceiling in AllocationCeilings.swift")
        }
        return problems
    }
}
