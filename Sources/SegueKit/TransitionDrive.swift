/// A driven transition's own clock (Core Animation's paused layer with a timeOffset): its animations are taken
/// out of the scene's list and evaluated at `local`, which `transition.update` sets and a finish or cancel ramps.
final class TransitionDrive {
    var animations: [PropertyAnimation] = []
    /// The transition's own time, in scene nanoseconds on its timeline (startedAt … startedAt + duration).
    var local: Int64
    var ramp: Ramp?

    /// A finish (forward to the end) or cancel (backward to the start) in progress.
    struct Ramp {
        let from: Int64
        let to: Int64
        /// Scene time at which the ramp began, and how long it lasts in scene time.
        let start: Int64
        let length: Int64
        let curve: CubicBezier
        let cancel: Bool
    }

    init(local: Int64) { self.local = local }
}
