#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import SegueLua

/// A link that leads nowhere says why: missing, or a loop of links.
@Suite("Symbolic links that lead nowhere")
struct LinkLoopTests {
    @Test("a loop of links is named as a loop, a dangling link as missing")
    func loopAndDangling() throws {
        let dir = try makePluginFolder([:])
        #expect(symlink("b.lua", dir + "/a.lua") == 0)
        #expect(symlink("a.lua", dir + "/b.lua") == 0)
        #expect(symlink("self.lua", dir + "/self.lua") == 0)
        #expect(symlink("gone/x.lua", dir + "/dangling.lua") == 0)
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(host.record(named: "a")?.error == "the symbolic link leads to b.lua, which is a loop of symbolic links")
        #expect(host.record(named: "self")?.error
            == "the symbolic link leads to self.lua, which is a loop of symbolic links")
        #expect(host.record(named: "dangling")?.error == "the symbolic link leads to gone/x.lua, which does not exist")
    }
}
