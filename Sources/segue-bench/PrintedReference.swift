import ArgumentParser
import CEngineReference
import Foundation

/// The second C reference (issue 24, `reference.frame.printed`): the reference's transitions ticked, then the frame
/// event a subscriber gets written as the daemon writes it, with the daemon's own number printer
/// (`ref_tick_printed`). What a subscribed frame is held against: the ~1 400 shortest round-trip numbers a frame
/// of 100 transitions carries are work no engine can skip, and `reference.frame` prints none.
final class PrintedReference {
    let views: ReferenceViews
    /// The scene's id and the views' ids end to end, never moved (the names point into it).
    private let text: UnsafeMutablePointer<CChar>
    private let textCount: Int
    private var names: [ref_view_name]
    private var head: ref_frame_head
    private let out: UnsafeMutablePointer<CChar>
    /// The bytes the last tick wrote.
    private(set) var written = 0

    /// `ids`: per transition the ids of its two containers' view controllers' views in creation order; `toFirst`:
    /// the first of them is the to-view (the transition selects the first item), as the engine's scene has them.
    init(transitions count: Int, begin: Int64, duration: Double, scene: String, ids: [(String, String)], toFirst: Bool) {
        views = ReferenceViews(transitions: count, begin: begin, duration: duration, reversed: toFirst)
        let strings = [scene] + ids.flatMap { [$0.0, $0.1] }
        textCount = strings.reduce(0) { $0 + $1.utf8.count }
        text = .allocate(capacity: max(1, textCount))
        var at = 0
        var spans: [(UnsafePointer<CChar>, Int)] = []
        for string in strings {
            let start = at
            for byte in string.utf8 {
                text[at] = CChar(bitPattern: byte)
                at += 1
            }
            spans.append((UnsafePointer(text + start), at - start))
        }
        var head = ref_frame_head(seq: 0, time: 0, scene: spans[0].0, scene_length: spans[0].1)
        var names: [ref_view_name] = []
        for i in 0..<count {
            // The engine's views in creation order: the first item's view, then the second's (0 the from-view).
            let first = spans[1 + 2 * i], second = spans[2 + 2 * i]
            names.append(ref_view_name(transition: Int32(i), view: toFirst ? 1 : 0, id: first.0, id_length: first.1))
            names.append(ref_view_name(transition: Int32(i), view: toFirst ? 0 : 1, id: second.0, id_length: second.1))
        }
        let capacity = names.withUnsafeBufferPointer { ref_printed_capacity(&head, $0.baseAddress, Int32(count)) }
        out = .allocate(capacity: capacity)
        self.head = head
        self.names = names
    }

    deinit {
        text.deallocate()
        out.deallocate()
    }

    /// One frame at `now` (ns), the event numbered `seq`: ticks and writes it.
    func tick(at now: Int64, seq: Int) {
        head.seq = Double(seq)
        head.time = Double(now) / 1e9
        let count = Int32(views.transitions.count)
        written = views.transitions.withUnsafeMutableBufferPointer { transitions in
            names.withUnsafeBufferPointer { names in
                ref_tick_printed(transitions.baseAddress, count, now, &head, names.baseAddress, out)
            }
        }
    }

    /// Ticks at each of `times`; returns the wall and thread CPU nanoseconds.
    func run(_ times: [Int64]) -> (wall: Double, cpu: Double) {
        let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = threadCPUNanoseconds()
        for (k, time) in times.enumerated() { tick(at: time, seq: k + 1) }
        return (Double(DispatchTime.now().uptimeNanoseconds - wall0), threadCPUNanoseconds() - cpu0)
    }

    /// The last line written.
    var bytes: [UInt8] { UnsafeRawBufferPointer(start: out, count: written).map { $0 } }

    /// Holds the last line written to the engine's `line` (its newline dropped): the same bytes, or an error naming
    /// where they part.
    func check(against line: ArraySlice<UInt8>) throws {
        let mine = bytes
        let theirs = Array(line.last == UInt8(ascii: "\n") ? line.dropLast() : line)
        guard mine != theirs else { return }
        let at = (0..<min(mine.count, theirs.count)).first { mine[$0] != theirs[$0] } ?? min(mine.count, theirs.count)
        let context = { (b: [UInt8]) in String(decoding: b[max(0, at - 60)..<min(b.count, at + 60)], as: UTF8.self) }
        throw ValidationError("the printed reference's frame parts from the engine's at byte \(at): C …\(context(mine))… "
                              + "engine …\(context(theirs))…")
    }

    /// The `seq` of a frame line.
    static func seq(of line: ArraySlice<UInt8>) -> Int? {
        let key = Array(#"{"jsonrpc":"2.0","method":"event","params":{"seq":"#.utf8)
        guard line.starts(with: key) else { return nil }
        var value = 0
        for byte in line.dropFirst(key.count) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
