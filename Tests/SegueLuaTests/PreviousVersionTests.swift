import Foundation
import SegueKit
import Testing

@testable import SegueLua

@Suite("Load generations and NAME@previous")
struct PreviousVersionTests {
    @Test("the generation grows with each successful load of a file, not with a failed one, and version is untouched")
    func generationGrows() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(host.record(named: "a")?.generation == 1)
        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        _ = host.fileChanged(dir + "/a.lua")
        #expect(host.record(named: "a")?.generation == 2)
        #expect(host.record(named: "a")?.generation == 2)
        try "return segue.animator {".write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        _ = host.fileChanged(dir + "/a.lua")
        #expect(host.record(named: "a")?.generation == 2)
        // An edit that keeps the declared version string still makes a new generation.
        try (versioned(0.75) + "\n-- a comment").write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        _ = host.fileChanged(dir + "/a.lua")
        #expect(host.record(named: "a")?.generation == 3)
        #expect(host.record(named: "a")?.version == "0.75")
    }

    @Test("NAME@previous runs the version before the loaded one, in a state of its own")
    func previousRuns() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        _ = host.fileChanged(dir + "/a.lua")
        #expect(host.previousGeneration(of: "a") == 1)

        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let old = try scene.select(container, index: 1, animator: "a@previous")
        #expect(old.transition?.animatorName == "a@previous")
        scene.advance(by: 300_000_000)
        #expect(b.view.model.alpha == 0.5)
        _ = try scene.select(container, index: 0, animator: "a")
        scene.advance(by: 300_000_000)
        #expect(a.view.model.alpha == 0.75)
    }

    @Test("NAME@previous with no previous version is not_found naming the animator; an unknown NAME is as before")
    func noPrevious() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, _, _) = try makeScene(host: host, recorder: recorder)
        #expect {
            try scene.select(container, index: 1, animator: "a@previous")
        } throws: { error in
            guard let error = error as? EngineError else { return false }
            return error.code == .notFound && error.param == "animator" && error.message.contains("no previous version")
        }
        #expect {
            try scene.select(container, index: 1, animator: "zz@previous")
        } throws: { error in
            (error as? EngineError)?.code == .notFound
        }
        // A file deleted and loaded again keeps counting generations, and forgets its previous version when gone.
        try FileManager.default.removeItem(atPath: dir + "/a.lua")
        host.rescan()
        #expect(host.previousGeneration(of: "a") == nil)
        try versioned(0.5).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        host.rescan()
        #expect(host.record(named: "a")?.generation == 2)
    }
}
