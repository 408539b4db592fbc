/// What one call into animator code changed, recorded as it changes it, so that a failed call can be undone
/// exactly: the state of each view and animation group the first time the call touches it, the animations it
/// stopped and the ones it started; views it created are the serials from `nextViewSerial` on. Opening one costs
/// the same whatever the size of the scene (the old design copied every view of the scene per transition start).
///
/// Journals nest (an animator's call can complete its transition, which starts the container's next queued one):
/// a change is recorded in every open journal, and `restore` applies view and group states newest first, so the
/// state a journal keeps for a view is the one from before its call even when it was recorded more than once.
final class CallJournal {
    /// A view's state in the tree and its values (also a transition's baseline for cancel).
    struct ViewState {
        let view: View
        let model: ViewValues
        let presentation: ViewValues
        let superview: View?
        // No copy of the subview list: its changes are logged instead (JournalStack.ListEdit).
        let hidden: Bool
        let z: Double
        let mask: View?
        let maskedView: View?
        let layerAnimations: [PropertyAnimation]

        init(_ view: View) {
            layerAnimations = view.layerAnimations
            self.view = view
            model = view.model
            // A copy of the view's own storage, taken now (the frame loop writes that storage in place).
            presentation = view.presentation
            superview = view.superview
            hidden = view.hidden
            z = view.z
            mask = view.mask
            maskedView = view.maskedView
        }
    }

    /// Distinguishes this journal from every other of its scene (views and groups remember the last one that
    /// recorded them).
    private(set) var epoch = 0
    private(set) var nextViewSerial = 0
    /// Animations numbered from here on were started by the call.
    private(set) var nextAnimationSerial = 0
    /// Groups numbered above this were opened by the call.
    private(set) var lastGroupID = 0
    private(set) var pendingCount = 0
    private(set) var nextTimerID = 0
    /// The stack's edit mark when the call began: its restore undoes the subview-list edits from here on
    /// (JournalStack.ListEdit), newest first. Set by `JournalStack.open`.
    var editMark = 0
    var views: [ViewState] = []
    var groups: [(group: AnimationGroup, remaining: Int, finished: Bool, done: Bool)] = []
    /// Animations running on the scene's clock before the call that the call stopped.
    var stopped: [PropertyAnimation] = []
    /// Animations the call started.
    var started: [PropertyAnimation] = []

    init(epoch: Int, nextViewSerial: Int, nextAnimationSerial: Int, lastGroupID: Int, pendingCount: Int,
         nextTimerID: Int)
    {
        // An animator's call touches a few views and starts a few animations: room for them at once, rather than
        // regrowing from one element.
        views.reserveCapacity(8)
        started.reserveCapacity(8)
        reopen(epoch: epoch, nextViewSerial: nextViewSerial, nextAnimationSerial: nextAnimationSerial,
               lastGroupID: lastGroupID, pendingCount: pendingCount, nextTimerID: nextTimerID)
    }

    /// Makes a closed journal that nobody else holds a new one (JournalStack.open): its lists keep their storage,
    /// so an animator call's journal allocates nothing once its scene has made one.
    func reopen(epoch: Int, nextViewSerial: Int, nextAnimationSerial: Int, lastGroupID: Int, pendingCount: Int,
                nextTimerID: Int)
    {
        self.epoch = epoch
        self.nextViewSerial = nextViewSerial
        self.nextAnimationSerial = nextAnimationSerial
        self.lastGroupID = lastGroupID
        self.pendingCount = pendingCount
        self.nextTimerID = nextTimerID
        empty()
    }

    /// Lets go of what the journal recorded (its lists keep their storage).
    func empty() {
        views.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        stopped.removeAll(keepingCapacity: true)
        started.removeAll(keepingCapacity: true)
    }
}
