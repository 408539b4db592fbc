/// What an admitted request will do: the operation, and what a navigation stack or a split view changes.
struct TransitionPlan {
    var op: TransitionOperation
    var leaving: [ViewController] = []
    var entering: [ViewController] = []
    var newStack: [ViewController]?
    var split: SplitChange?
}
