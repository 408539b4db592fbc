/// A strong handle on an object that does not keep it alive: `object` is the object until it deinitializes, nil
/// after. The engine's back-references (a view's superview, a view controller's parent, an animation group's
/// transition) hold the referent's anchor instead of a `weak` reference to the referent, and so does whatever must
/// reach a scene it does not own (a plugin's Lua state, a frame grid's entry, an animation completion: `Scene.anchor`).
///
/// Why: the first `weak` reference to an object gives it a side table, and from then on every retain and release
/// of that object takes the runtime's slow path (and every weak load is a runtime call). The objects a transition
/// touches on every request (views, view controllers, transitions, the scene) are retained and released many
/// times per request; an anchor keeps their reference counts inline, at the price of one small object per
/// referent, made the first time something needs it.
///
/// Invariant: `object` is written once, by the referent (`anchor` below, in the referent's own file), and cleared
/// by the referent's `deinit` before anything else happens there. The engine is single-threaded per scene, so no
/// one can read `object` between the referent's last release and that clearing: it never dangles.
public final class Anchor<Object: AnyObject> {
    public internal(set) unowned(unsafe) var object: Object?

    init(_ object: Object?) { self.object = object }

    /// The anchor kept in `slot` (a referent's own), made there for `object` the first time it is asked for.
    static func kept(in slot: inout Anchor?, for object: Object) -> Anchor {
        if let slot { return slot }
        let made = Anchor(object)
        slot = made
        return made
    }
}
