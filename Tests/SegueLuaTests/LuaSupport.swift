import Foundation
import SegueKit

@testable import SegueLua

/// The repository's folder (for the bundled plugins).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// A sandboxed plugin state with no scene, to run snippets in.
func makeSandbox(memoryLimit: Int = 8 << 20, budget: Int = 1_000_000) throws -> PluginInstance {
    try PluginInstance(
        source: "return segue.animator { animate = function(ctx) end }", file: "test.lua", chunkName: "=test",
        scene: nil, memoryLimit: memoryLimit, instructionBudget: budget)
}

/// Runs a chunk as one top-level call; returns its first result as text, or the error.
func run(_ instance: PluginInstance, _ code: String) -> Result<String, LuaError> {
    let state = instance.state
    let base = state.top
    defer { state.setTop(base) }
    if let error = state.load(code, chunkName: "=snippet") { return .failure(error) }
    if let error = state.call(args: 0, results: 1, topLevel: true) { return .failure(error) }
    if let s = state.string(at: -1) { return .success(s) }
    if let n = state.number(at: -1) { return .success(n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)) }
    return .success(state.typeName(at: -1))
}

extension Result where Failure == LuaError {
    var errorMessage: String? {
        if case .failure(let e) = self { return e.message }
        return nil
    }
    var value: Success? {
        if case .success(let v) = self { return v }
        return nil
    }
}

/// A temporary plugins folder with the given files.
func makePluginFolder(_ files: [String: String]) throws -> String {
    let dir = NSTemporaryDirectory() + "segue-plugins-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (name, text) in files {
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }
    return dir
}

final class Recorder: EventSink {
    var events: [EngineEvent] = []
    /// Keeps a plugin host alive as long as the test holds the recorder (scenes hold their provider weakly).
    var host: PluginHost?
    func emit(_ event: EngineEvent) { events.append(event) }
    func types(_ prefix: String) -> [String] { events.map(\.type).filter { $0.hasPrefix(prefix) } }
    /// The `message` of every event of exactly this type (`plugin.warning`, `log`), in order.
    func messages(_ type: String) -> [String] {
        events.filter { $0.type == type }.compactMap { $0.payload.message }
    }
}

/// An animator plugin's source: `duration` is a Lua expression; `animate(ctx)` starts with `to` as the incoming view
/// and goes on with `body`.
func animatorSource(duration: String, animate body: String) -> String {
    """
    return segue.animator {
      duration = \(duration),
      animate = function(ctx)
        local to = ctx:view("to")
        \(body)
      end,
    }
    """
}

/// A manual scene over a temporary plugins folder holding `files`; the host stays alive with the scene's recorder.
func sceneWithPlugins(_ files: [String: String]) throws
    -> (Scene, ContainerViewController, ViewController, ViewController, Recorder)
{
    var settings = LuaSettings()
    settings.callTimeoutMs = 20_000  // tests name the deterministic limit (the budget); the wall clock has its own test
    let host = PluginHost(directory: try makePluginFolder(files), settings: settings)
    host.loadAll()
    let recorder = Recorder()
    recorder.host = host
    let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
    return (scene, container, a, b, recorder)
}

/// A manual scene with a custom container [a, b] on screen, animators from `host`.
func makeScene(host: PluginHost, recorder: Recorder) throws -> (Scene, ContainerViewController, ViewController, ViewController) {
    let scene = Scene(id: "lua", size: Size(w: 320, h: 480), clock: .manual)
    scene.sink = recorder
    scene.animatorProvider = host
    let a = try scene.createViewController(id: "a", title: "A", color: nil)
    let b = try scene.createViewController(id: "b", title: "B", color: nil)
    let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
    try scene.setRoot(container)
    recorder.events.removeAll()
    return (scene, container, a, b)
}
