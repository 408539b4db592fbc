/// UIModalTransitionStyle: the built-in animation of a present and its dismiss (`modal.present`'s
/// `transition_style`), run by `SystemTransitionAnimator` on UIKit's system curve.
public enum ModalTransitionStyle: String, Sendable, CaseIterable {
    case coverVertical, flipHorizontal, crossDissolve, partialCurl
}
