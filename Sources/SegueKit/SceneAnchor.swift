/// A strong handle on a scene that does not keep it alive: `scene` is the scene until it deinitializes, nil after.
/// What must reach a scene it does not own — a plugin's Lua state, a frame grid's entry, an animation completion —
/// holds the scene's `anchor` rather than a `weak` reference to it: the first weak reference would give the scene
/// a side table, and every retain and release of the scene (many per request) would then take the runtime's slow
/// path.
///
/// Invariant: `scene` is set once, by `Scene.init`, and cleared first thing in `Scene.deinit`. A scene is driven
/// from one thread, so nothing reads `scene` between the scene's last release and that clearing: it never dangles.
public final class SceneAnchor {
    public internal(set) unowned(unsafe) var scene: Scene?

    init() {}
}
