/// How a transition is going and how it ended: its state, when it ended, whether the engine forced or failed it
/// over, how often complete was called, the problems found and the raises of its plugins' callbacks.
struct TransitionOutcome {
    var state: TransitionState = .animating
    var endedAt: Int64?
    var forced = false
    var failedOver = false
    var completeCalls = 0
    var problems: [TransitionProblem] = []
    /// The first 16 distinct messages of raises in the transition's plugins' callbacks, each with how often it came.
    var raises: [(message: String, count: Int)] = []
}

extension Transition {
    public internal(set) var state: TransitionState {
        get { outcome.state }
        _modify { yield &outcome.state }
    }
    public internal(set) var endedAt: Int64? {
        get { outcome.endedAt }
        _modify { yield &outcome.endedAt }
    }
    public internal(set) var forced: Bool {
        get { outcome.forced }
        _modify { yield &outcome.forced }
    }
    public internal(set) var failedOver: Bool {
        get { outcome.failedOver }
        _modify { yield &outcome.failedOver }
    }
    public internal(set) var completeCalls: Int {
        get { outcome.completeCalls }
        _modify { yield &outcome.completeCalls }
    }
    public internal(set) var problems: [TransitionProblem] {
        get { outcome.problems }
        _modify { yield &outcome.problems }
    }
    /// Raises in the callbacks of the transition's plugins (timers, completions, interaction and presentation
    /// callbacks): the first 16 distinct messages, each with how often it came (`TransitionLedger.noteRaise`).
    public internal(set) var raises: [(message: String, count: Int)] {
        get { outcome.raises }
        _modify { yield &outcome.raises }
    }
}
