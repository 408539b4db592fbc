import CLuaShim
import Testing

/// The Lua states' allocator (`capping_alloc`, CLuaShim): small blocks carved from the state's own arena, large ones
/// from malloc, the cap, the sweep that gives back empty chunks, and `segue_close`.
@Suite("Lua allocator")
struct ArenaTests {
    /// A block the test holds: where, how big, and the byte its contents start from.
    struct Held {
        var pointer: UnsafeMutableRawPointer
        var size: Int
        var seed: UInt8
    }

    static func fill(_ block: Held) {
        let bytes = block.pointer.assumingMemoryBound(to: UInt8.self)
        for i in 0..<block.size { bytes[i] = block.seed &+ UInt8(truncatingIfNeeded: i &* 7) }
    }

    /// Whether the first `count` bytes are still the ones `fill` wrote.
    static func intact(_ block: Held, _ count: Int) -> Bool {
        let bytes = block.pointer.assumingMemoryBound(to: UInt8.self)
        for i in 0..<count where bytes[i] != block.seed &+ UInt8(truncatingIfNeeded: i &* 7) { return false }
        return true
    }

    /// Mostly small sizes (every class, and either side of the arena's edge at 256 bytes), some large.
    static func size(_ g: inout SplitMix) -> Int {
        switch g.below(10) {
        case 0..<6: 1 + g.below(Int(SEGUE_POOL_MAX))
        case 6..<8: Int(SEGUE_POOL_MAX) - 8 + g.below(17)
        default: Int(SEGUE_POOL_MAX) + 1 + g.below(3000)
        }
    }

    @Test("random alloc, realloc and free sequences keep every block's contents, count what is held, and close", arguments: [1, 2, 3, 4])
    func randomSequences(seed: UInt64) throws {
        let L = try #require(segue_newstate(0, 0))
        defer { segue_close(L) }
        let sandbox = segue_sandbox_of(L)!
        let base = sandbox.pointee.used
        var g = SplitMix(state: seed)
        var held: [Held] = []
        held.reserveCapacity(600)
        var live = 0
        for step in 0..<20_000 {
            let choice = g.below(10)
            if held.isEmpty || (choice < 4 && held.count < 600) {
                let n = Self.size(&g)
                let p = try #require(segue_alloc(L, nil, 0, n))
                let block = Held(pointer: p, size: n, seed: UInt8(truncatingIfNeeded: step))
                Self.fill(block)
                held.append(block)
                live += n
            } else if choice < 7 {
                let k = g.below(held.count)
                var block = held[k]
                #expect(Self.intact(block, block.size), "step \(step): a block changed under its owner")
                let n = Self.size(&g)
                let p = try #require(segue_alloc(L, block.pointer, block.size, n))
                block.pointer = p
                #expect(Self.intact(block, min(block.size, n)), "step \(step): realloc lost the contents")
                live += n - block.size
                block.size = n
                block.seed = UInt8(truncatingIfNeeded: step &* 3)
                Self.fill(block)
                held[k] = block
            } else {
                let k = g.below(held.count)
                let block = held.remove(at: k)
                #expect(Self.intact(block, block.size), "step \(step): a block changed under its owner")
                #expect(segue_alloc(L, block.pointer, block.size, 0) == nil)
                live -= block.size
            }
            #expect(sandbox.pointee.used == base + live)
        }
        for block in held {
            #expect(Int(bitPattern: block.pointer) % 16 == 0)
            #expect(Self.intact(block, block.size))
        }
        #expect(segue_footprint(L) >= sandbox.pointee.used)
        #expect(sandbox.pointee.arena_bytes % Int(SEGUE_ARENA_CHUNK) == 0)
        // The state's own objects still work over the same arena.
        #expect(segue_loadtext(L, "return 1", 8, "=t") == LUA_OK)
        // segue_close (deferred) frees the blocks still held with the state.
    }

    @Test("a burst of small blocks, dropped, gives its chunks back; what is held stays")
    func sweepGivesChunksBack() throws {
        let L = try #require(segue_newstate(0, 0))
        defer { segue_close(L) }
        let sandbox = segue_sandbox_of(L)!
        let before = segue_footprint(L)
        var kept: [Held] = []
        var burst: [Held] = []
        for i in 0..<20_000 {
            let n = 16 + (i % 15) * 16
            let block = Held(pointer: try #require(segue_alloc(L, nil, 0, n)), size: n, seed: UInt8(truncatingIfNeeded: i))
            Self.fill(block)
            if i % 1000 == 0 { kept.append(block) } else { burst.append(block) }
        }
        let peak = segue_footprint(L)
        #expect(peak > before + 2_000_000)
        for block in burst { _ = segue_alloc(L, block.pointer, block.size, 0) }
        #expect(sandbox.pointee.sweeps > 0)
        #expect(segue_footprint(L) < before + 512 * 1024, "\(before) → \(peak) → \(segue_footprint(L))")
        for block in kept { #expect(Self.intact(block, block.size)) }
        // Blocks come back from the lists and new chunks after the sweep.
        for i in 0..<5_000 {
            let n = 16 + (i % 16) * 16
            let block = Held(pointer: try #require(segue_alloc(L, nil, 0, n)), size: n, seed: UInt8(truncatingIfNeeded: i))
            Self.fill(block)
            kept.append(block)
        }
        for block in kept { #expect(Self.intact(block, block.size)) }
    }

    @Test("the cap refuses a growth and leaves the block as it was; host code is not capped; a shrink always fits")
    func capRefuses() throws {
        let L = try #require(segue_newstate(0, 0))
        defer { segue_close(L) }
        let sandbox = segue_sandbox_of(L)!
        sandbox.pointee.limit = sandbox.pointee.used + 10_000
        let small = Held(pointer: try #require(segue_alloc(L, nil, 0, 200)), size: 200, seed: 9)
        Self.fill(small)
        let large = Held(pointer: try #require(segue_alloc(L, nil, 0, 9_000)), size: 9_000, seed: 5)
        Self.fill(large)
        let errors = sandbox.pointee.memory_errors
        #expect(segue_alloc(L, nil, 0, 1_000) == nil)
        #expect(segue_alloc(L, small.pointer, 200, 2_000) == nil)
        #expect(segue_alloc(L, large.pointer, 9_000, 9_900) == nil)
        #expect(sandbox.pointee.memory_errors == errors + 3)
        #expect(Self.intact(small, 200) && Self.intact(large, 9_000))
        // A shrink across the arena's edge fits under any cap, and keeps what fits.
        let shrunk = try #require(segue_alloc(L, large.pointer, 9_000, 100))
        #expect(Self.intact(Held(pointer: shrunk, size: 100, seed: 5), 100))
        // Host work is not capped.
        sandbox.pointee.host += 1
        let hosted = try #require(segue_alloc(L, nil, 0, 50_000))
        sandbox.pointee.host -= 1
        _ = segue_alloc(L, hosted, 50_000, 0)
        _ = segue_alloc(L, shrunk, 100, 0)
        _ = segue_alloc(L, small.pointer, 200, 0)
        sandbox.pointee.limit = 0
    }
}

extension SplitMix {
    /// A number in 0..<n.
    fileprivate mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
