import ArgumentParser
import Foundation
import SegueJSON

/// `segue-bench printer`: the number printer of every event (`JSONOutput.appendNumber`, C in Sources/CDtoa) against
/// what it replaced (`Double.description` appended to a byte buffer), on the same doubles, bytes checked equal.
struct Printer: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The JSON number printer against Double.description, per number, bytes checked equal.",
        discussion: """
            For each range ([0, 1), [0.9, 1), [-336, 336)): --count random doubles (drand48, a fixed seed), \
            printed once with `description` appended to a byte array and once with `JSONOutput.appendNumber`; rounds \
            interleave the two and the report gives the median of each in thread CPU time. Fails if the two \
            outputs differ by a byte (the printer writes whole numbers as integers: the doubles drawn have \
            fractions).
            """)

    @Option(help: "Doubles per range.")
    var count: Int = 1_000_000

    @Option(help: "Interleaved rounds.")
    var rounds: Int = 5

    func run() throws {
        srand48(0x5E9ED)  // the same doubles on every run
        let ranges: [(String, ClosedRange<Double>)] = [
            ("[0, 1)", 0...1), ("[0.9, 1)", 0.9...1), ("[-336, 336)", -336...336),
        ]
        for (name, range) in ranges {
            let values = (0..<count).map { _ in
                range.lowerBound + (range.upperBound - range.lowerBound) * drand48()
            }
            var described: [Double] = [], printed: [Double] = []
            for _ in 0..<rounds {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(count * 24)
                let start = threadCPUNanoseconds()
                for value in values {
                    var text = value.description
                    text.withUTF8 { bytes.append(contentsOf: $0) }
                }
                described.append((threadCPUNanoseconds() - start) / Double(count))

                var out = JSONOutput(capacity: count * 24)
                let start2 = threadCPUNanoseconds()
                for value in values { out.appendNumber(value) }
                printed.append((threadCPUNanoseconds() - start2) / Double(count))

                let same = out.withBytes { $0.elementsEqual(bytes) }
                guard same else { throw ValidationError("the printer's bytes differ from description's in \(name)") }
            }
            func median(_ a: [Double]) -> Double { a.sorted()[a.count / 2] }
            let label = name.padding(toLength: 12, withPad: " ", startingAt: 0)
            print(label + String(format: "description + append %5.1f ns   JSONOutput.appendNumber %5.1f ns   %.2f×  "
                                     + "(CPU, median of %d rounds, %d doubles, same bytes)",
                                 median(described), median(printed), median(described) / median(printed),
                                 rounds, count))
        }
    }
}
