import Foundation
import SegueJSON
import Testing

/// The CI guard on deterministic counts: heap allocations per steady-state engine frame, per transition start,
/// per `daemon.ping` and per subscribed frame request, measured by the built `segue-allocs` (which wraps malloc
/// for itself only), each held under its ceiling in AllocationCeilings.swift. A regression fails here without any
/// timing.
@Suite("Allocation counts")
struct AllocationCountTests {
    /// Runs `segue-allocs` and returns its counts.
    static func measure() throws -> [String: Double] {
        let path = binaryDirectory + "/segue-allocs"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CountError(description: "no \(path): build it first (swift build --build-tests builds every product)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CountError(description: "segue-allocs exited with status \(process.terminationStatus)")
        }
        guard case .object(let fields) = try JSONParser.parse(String(decoding: data, as: UTF8.self)) else {
            throw CountError(description: "segue-allocs printed no JSON object")
        }
        var counts: [String: Double] = [:]
        for (name, value) in fields { counts[name] = value.doubleValue }
        return counts
    }

    struct CountError: Error, CustomStringConvertible {
        let description: String
    }

    @Test("every steady-state count stays at or under its recorded ceiling, and each has one")
    func countsStayUnderCeilings() throws {
        let counts = try Self.measure()
        for (name, ceiling) in AllocationCeilings.debug.sorted(by: { $0.key < $1.key }) {
            let measured = counts[name].map { String(format: "%.2f", $0) } ?? "not measured"
            print("allocations per unit, \(name): \(measured) (ceiling \(ceiling))")
        }
        let problems = AllocationCeilings.problems(counts)
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))")
    }

    @Test("a count over its ceiling, a ceiling without a count and a count without a ceiling are each reported")
    func overrunsAreReported() {
        let ceilings = ["a": 2.0, "b": 1.0]
        #expect(AllocationCeilings.problems(["a": 2.0, "b": 0.5], ceilings: ceilings).isEmpty)
        #expect(AllocationCeilings.problems(["a": 2.0, "b": 1.004], ceilings: ceilings).isEmpty)
        #expect(AllocationCeilings.problems(["a": 2.5, "b": 1.0], ceilings: ceilings)
            == ["a: 2.5 allocations, over its ceiling of 2.0"])
        #expect(AllocationCeilings.problems(["a": 1.0], ceilings: ceilings)
            == ["b: not measured by segue-allocs (remove its ceiling?)"])
        #expect(AllocationCeilings.problems(["a": 1.0, "b": 1.0, "c": 0], ceilings: ceilings)
            == ["c: measured but has no ceiling in AllocationCeilings.swift"])
    }
}
