/// What a transition changes in its container besides from and to: for navigation the view controllers leaving
/// the stack besides `from` (pop_to_root, set; a dismiss's presentations above) and joining it besides `to`
/// (set), the stack as it was (restored on cancel) and as it will be; for a split view its column or display mode.
struct ContainerChange {
    var leaving: [ViewController] = []
    var entering: [ViewController] = []
    var oldStack: [ViewController] = []
    var newStack: [ViewController] = []
    var split: SplitChange?
}
