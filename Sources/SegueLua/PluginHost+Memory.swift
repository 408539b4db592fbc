import CLuaShim
import SegueKit

extension PluginHost {
    /// The bytes a scene's Lua states hold, as their capping allocators count them (what Lua asked for, without
    /// malloc's own overhead): `segue-bench memory` reports a scene's memory with and without them.
    public func stateBytes(of scene: Scene) -> Int {
        instances[ObjectIdentifier(scene)]?.values.reduce(0) { $0 + $1.state.memoryUsed } ?? 0
    }

    /// What a scene's Lua states cost in memory (`segue_footprint`): each one's arena chunks (its small blocks in use
    /// and free) and its large blocks. At least `stateBytes(of:)`.
    public func stateFootprint(of scene: Scene) -> Int {
        instances[ObjectIdentifier(scene)]?.values.reduce(0) { $0 + segue_footprint($1.state.main) } ?? 0
    }
}
