/// The method table as the request path uses it: every method has a number (its place in name order), found from
/// the name's bytes with one FNV-1a hash and one byte comparison, without building a String or hashing it with
/// SipHash. Latency statistics are kept by that number.
struct MethodTable: Sendable {
    /// The names in order (`String`'s `<`, which for these ASCII names is byte order); a method's number indexes it.
    let names: [String]
    let handlers: [MethodHandler]
    /// Every name's bytes, one after the other; name `i` is `nameBytes[nameStarts[i]..<nameStarts[i + 1]]`.
    private let nameBytes: [UInt8]
    private let nameStarts: [Int]
    /// Open addressing with linear probing: a method's number, or -1 for an empty slot. A power of two, at least
    /// twice the number of methods, so a probe ends soon.
    private let slots: [Int32]

    init(_ methods: [String: MethodHandler]) {
        names = methods.keys.sorted()
        handlers = names.compactMap { methods[$0] }
        var bytes: [UInt8] = []
        var starts = [0]
        for name in names {
            bytes.append(contentsOf: name.utf8)
            starts.append(bytes.count)
        }
        nameBytes = bytes
        nameStarts = starts
        var size = 16
        while size < names.count * 2 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        for (number, name) in names.enumerated() {
            let utf8 = Array(name.utf8)
            var slot = utf8.withUnsafeBufferPointer { MethodTable.hash($0) } & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(number)
        }
        self.slots = slots
    }

    var count: Int { names.count }

    /// The number of the method named by these bytes, or nil when the table has no such method.
    func number(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        slots.withUnsafeBufferPointer { slots -> Int? in
            nameBytes.withUnsafeBufferPointer { bytes -> Int? in
                nameStarts.withUnsafeBufferPointer { starts -> Int? in
                    let mask = slots.count - 1
                    var slot = MethodTable.hash(name) & mask
                    while true {
                        let number = Int(slots[slot])
                        if number < 0 { return nil }
                        let start = starts[number]
                        if starts[number + 1] - start == name.count {
                            var equal = true
                            for i in 0..<name.count where bytes[start + i] != name[i] {
                                equal = false
                                break
                            }
                            if equal { return number }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// The number of the method with this name, or nil when the table has no such method.
    func number(of name: String) -> Int? {
        var name = name
        return name.withUTF8 { number(of: $0) }
    }

    /// 64-bit FNV-1a: a few instructions a byte, and method names differ early and in length.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
