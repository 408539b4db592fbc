import SegueKit

/// The daemon's scenes: by id and in creation order, made under `limits.max_scenes`, destroyed with their running
/// transitions force-completed, and handed to the realtime driver (the server's frame timer) while they run on a
/// realtime clock.
///
/// Its job is the scenes' existence, not what happens inside them (the engine) nor who hears of it (the event
/// bus): a scene is made with the sink and animator provider it is given. Loop-confined, like the daemon.
public final class SceneRegistry {
    private var byID: [String: Scene] = [:]
    /// The registered scenes by identity: `holds` runs once per realtime scene per frame, and hashing an identity
    /// costs a fraction of hashing the scene's id (a String) — at 60 fps that was 12 % of a scene's tick.
    private var held: Set<ObjectIdentifier> = []
    private var order: [String] = []
    private var nextNumber = 1
    /// Frames evaluated by scenes that are gone (`daemon.stats`'s `frames` counts them too).
    private var framesOfDestroyed = 0
    /// Drives realtime scenes' clocks (the server; tests have none).
    weak var realtimeDriver: (any RealtimeDriver)?
    private let confinement: LoopConfinement

    init(confinement: LoopConfinement) {
        self.confinement = confinement
    }

    /// The scene found last: requests name the same scene again and again, and comparing its (short) id costs less
    /// than hashing the id for the table. Cleared when that scene is destroyed.
    private var lastFound: Scene?

    /// A realtime scene found here is woken first (the frame grid lets idle ones sleep), so whoever uses it sees its
    /// clock where the wall clock puts it.
    public subscript(id: String) -> Scene? {
        if let lastFound, lastFound.id == id { return awake(lastFound) }
        let found = byID[id]
        if let found { lastFound = found; return awake(found) }
        return nil
    }

    private func awake(_ scene: Scene) -> Scene {
        if scene.clockMode == .realtime { realtimeDriver?.wake(scene: scene) }
        return scene
    }
    public var count: Int { byID.count }
    public var isEmpty: Bool { byID.isEmpty }
    /// Every scene, oldest first.
    var inOrder: [Scene] { order.compactMap { byID[$0].map(awake) } }

    /// True while `scene` is the registered scene of its id (a realtime tick for a destroyed scene is dropped).
    func holds(_ scene: Scene) -> Bool { held.contains(ObjectIdentifier(scene)) }

    /// A new scene: `requested` as its id (refused when taken), or the next free `scene-N`. Refused past `limit`.
    func create(id requested: String?, size: Size, clock: ClockMode, fps: Int?, speed: Double, config: EngineConfig,
                limit: Int, traits: TraitOverride = TraitOverride()) throws(RPCError) -> Scene
    {
        confinement.check()
        guard byID.count < limit else {
            throw .limit("the daemon has \(limit) scenes (limits.max_scenes)", limit: limit)
        }
        let id: String
        if let requested {
            guard byID[requested] == nil else {
                throw .invalidParams("id", "a scene with id '\(requested)' already exists")
            }
            id = requested
        } else {
            while byID["scene-\(nextNumber)"] != nil { nextNumber += 1 }
            id = "scene-\(nextNumber)"
            nextNumber += 1
        }
        let scene = Scene(id: id, size: size, clock: clock, fps: fps, config: config, traits: traits)
        scene.speed = speed
        return scene
    }

    /// Adds a scene `create` made (once its sink and animators are set) and starts its realtime clock.
    func add(_ scene: Scene, daemon: Daemon) {
        confinement.check()
        byID[scene.id] = scene
        held.insert(ObjectIdentifier(scene))
        order.append(scene.id)
        if scene.clockMode == .realtime { realtimeDriver?.start(scene: scene, daemon: daemon) }
    }

    /// Force-completes the scene's running transitions (their events are sent), stops its clock and forgets it.
    func destroy(_ scene: Scene) {
        confinement.check()
        scene.finishAllTransitions(forced: true)
        realtimeDriver?.stop(scene: scene)
        framesOfDestroyed += scene.framesEvaluated
        byID[scene.id] = nil
        held.remove(ObjectIdentifier(scene))
        if lastFound === scene { lastFound = nil }
        order.removeAll { $0 == scene.id }
    }

    /// Completes every running transition of every scene (a graceful stop).
    func finishAllTransitions() {
        for scene in inOrder { scene.finishAllTransitions() }
    }

    /// Stops every realtime clock (the daemon stopped).
    func stopClocks() {
        realtimeDriver?.stopAll(inOrder)
    }

    /// Frames evaluated by every scene, the destroyed ones included.
    var framesEvaluated: Int { framesOfDestroyed + byID.values.reduce(0) { $0 + $1.framesEvaluated } }
}
