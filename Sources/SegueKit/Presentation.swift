/// One modal presentation: `presenting` presented `presented` over the whole scene, in a transition container
/// view above the root (and above earlier presentations).
public final class Presentation {
    public let presenting: ViewController
    public let presented: ViewController
    /// The view controller whose view the presentation covers: the top of `presenting`'s parent chain (the root,
    /// or a presented view controller) — UIKit's presentation context.
    public let context: ViewController
    public let style: PresentationStyle
    public let controller: (any PresentationController)?
    /// `modal.present`'s `transition_style`: the built-in animation of the present and its dismiss when no
    /// animator is chosen (nil: the presentation host's built-in, coverVertical).
    public internal(set) var transitionStyle: ModalTransitionStyle?
    /// The transition container view, and the internal host that runs the present and dismiss transitions.
    public var containerView: View { host.view }
    let host: ContainerViewController
    /// Where the context's view was when a full-screen presentation took it out of the hierarchy.
    var removedPresenter: (superview: View, index: Int)?
    /// The transition running for this presentation now (present or dismiss), for `pc.coordinator`.
    /// Nil once that transition is gone: held through its `anchor`, not `weak` (see `Anchor`).
    public internal(set) var transition: Transition? {
        get { transitionAnchor?.object }
        set { transitionAnchor = newValue?.anchor }
    }
    private var transitionAnchor: Anchor<Transition>?

    init(presenting: ViewController, presented: ViewController, context: ViewController, style: PresentationStyle,
         controller: (any PresentationController)?, host: ContainerViewController)
    {
        self.presenting = presenting
        self.presented = presented
        self.context = context
        self.style = style
        self.controller = controller
        self.host = host
    }

    /// Whether the presenting (context) view leaves the hierarchy when the presentation completes.
    public var removesPresenterView: Bool { style == .fullScreen || (controller?.removesPresenterView ?? false) }
}
