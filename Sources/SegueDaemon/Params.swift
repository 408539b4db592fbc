import SegueJSON
import SegueKit

/// A request's named parameters, read with typed accessors that name the parameter in every error. `finish()`
/// refuses parameters the method does not know, so a typo never passes silently.
///
/// Its state is only touched on the daemon's event loop, by one method at a time, in accesses that never overlap:
/// the run-time exclusivity checks are left out (they cost more than the reads they guarded).
final class Params {
    @exclusivity(unchecked) private(set) var object: JSONObject
    /// The members the method asked for, by position in `object` (bit i: member i), the 65th and later in
    /// `readBeyond`: finding a member marks it, so nothing is hashed.
    @exclusivity(unchecked) private var readMask: UInt64 = 0
    @exclusivity(unchecked) private var readBeyond: Set<Int> = []

    init(_ object: JSONObject) { self.object = object }

    /// Makes this the Params of another request (the daemon reuses one while no method keeps hold of it).
    func reset(to object: JSONObject) {
        self.object = object
        readMask = 0
        if !readBeyond.isEmpty { readBeyond = [] }
    }

    /// The member named `key`, marked as read. The names are compared in place: walking copies of the pairs
    /// retained and released each name and value on the way (~60 instructions a pair, ten lookups a select).
    private func member(_ key: String) -> JSONValue? {
        let found = object.pairs.withUnsafeBufferPointer { pairs -> Int? in
            for i in pairs.indices where pairs[i].key == key { return i }
            return nil
        }
        guard let i = found else { return nil }
        if i < 64 { readMask |= 1 << UInt64(i) } else { readBeyond.insert(i) }
        return object.pairs[i].value
    }

    private func value(_ key: String) -> JSONValue? {
        guard let v = member(key), !v.isNull else { return nil }
        return v
    }

    func has(_ key: String) -> Bool {
        member(key).map { !$0.isNull } ?? false
    }

    func string(_ key: String) throws(RPCError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.stringValue else { throw .invalidParams(key, "'\(key)' must be a string, not \(v.typeName)") }
        return s
    }

    func requiredString(_ key: String) throws(RPCError) -> String {
        guard let s = try string(key) else { throw .invalidParams(key, "missing parameter '\(key)'") }
        return s
    }

    /// An id: letters, digits, `-`, `_`, `.`, 1–64 characters.
    func id(_ key: String) throws(RPCError) -> String? {
        guard let s = try string(key) else { return nil }
        guard Scene.isValidID(s) else {
            throw .invalidParams(key, "'\(key)' must be 1-64 letters, digits, '-', '_' or '.'")
        }
        return s
    }

    func requiredID(_ key: String) throws(RPCError) -> String {
        guard let s = try id(key) else { throw .invalidParams(key, "missing parameter '\(key)'") }
        return s
    }

    func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.boolValue else { throw .invalidParams(key, "'\(key)' must be true or false, not \(v.typeName)") }
        return b
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double? {
        guard let v = value(key) else { return nil }
        guard let n = v.doubleValue, n.isFinite else { throw .invalidParams(key, "'\(key)' must be a number, not \(v.typeName)") }
        guard range.contains(n) else {
            throw .invalidParams(key, "'\(key)' must be in \(range.lowerBound)...\(range.upperBound), got \(n)")
        }
        return n
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let v = value(key) else { return nil }
        guard let n = v.intValue else { throw .invalidParams(key, "'\(key)' must be an integer, not \(v.typeName == "number" ? "a fraction" : v.typeName)") }
        guard range.contains(n) else {
            throw .invalidParams(key, "'\(key)' must be in \(range.lowerBound)...\(range.upperBound), got \(n)")
        }
        return n
    }

    func size(_ key: String) throws(RPCError) -> Size? {
        guard let v = value(key) else { return nil }
        guard let s = ValueJSON.parseSize(v), s.w > 0, s.h > 0, s.w <= 100_000, s.h <= 100_000 else {
            throw .invalidParams(key, "'\(key)' must be {w, h} with 0 < w, h ≤ 100000")
        }
        return s
    }

    func color(_ key: String) throws(RPCError) -> Color? {
        guard let s = try string(key) else { return nil }
        guard let c = Color(hex: s) else { throw .invalidParams(key, "'\(key)' must be \"#rrggbb\" or \"#rrggbbaa\"") }
        return c
    }

    func array(_ key: String) throws(RPCError) -> [JSONValue]? {
        guard let v = value(key) else { return nil }
        guard let a = v.arrayValue else { throw .invalidParams(key, "'\(key)' must be an array, not \(v.typeName)") }
        return a
    }

    func objectValue(_ key: String) throws(RPCError) -> JSONObject? {
        guard let v = value(key) else { return nil }
        guard let o = v.objectValue else { throw .invalidParams(key, "'\(key)' must be an object, not \(v.typeName)") }
        return o
    }

    func oneOf(_ key: String, _ choices: [String]) throws(RPCError) -> String? {
        guard let s = try string(key) else { return nil }
        guard choices.contains(s) else {
            throw .invalidParams(key, "'\(key)' must be one of \(choices.joined(separator: ", ")), got '\(s)'")
        }
        return s
    }

    /// Refuses any parameter the method did not read.
    func finish() throws(RPCError) {
        let count = object.pairs.count
        // Every member read (the usual case) is one test of the mask.
        if count <= 64, readMask == (count == 64 ? ~0 : (1 << UInt64(count)) - 1) { return }
        for i in 0..<count where !wasRead(i) {
            let key = object.pairs[i].key
            throw .invalidParams(key, "unknown parameter '\(key)'")
        }
    }

    private func wasRead(_ i: Int) -> Bool {
        i < 64 ? readMask & 1 << UInt64(i) != 0 : readBeyond.contains(i)
    }
}
