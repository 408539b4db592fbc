/// One modal presentation: `presenting` presented `presented` over the whole scene, in a transition container
/// view above the root (and above earlier presentations).
public final class Presentation {
    public let presenting: ViewController
    public let presented: ViewController
    /// The view controller whose view the presentation covers: the top of `presenting`'s parent chain (the root,
    /// or a presented view controller) — UIKit's presentation context.
    public let context: ViewController
    /// The style asked for, `automatic` resolved (a page sheet, or custom with a plugin).
    public let style: PresentationStyle
    /// The style in effect: `style` adapted to the scene's size classes (a popover or form sheet is a page sheet in
    /// a horizontally compact scene; a presentation plugin's `adaptive_style` decides for custom). Set on present
    /// and on every scene.resize.
    public internal(set) var adaptiveStyle: PresentationStyle
    /// `sheet` of modal.present (page/form sheets, and a popover once it adapts to a sheet).
    public internal(set) var sheet: SheetConfiguration?
    /// The detent the sheet rests at (its id).
    public internal(set) var selectedDetent: String?
    /// `popover` of modal.present, and the arrow direction its placement chose.
    public internal(set) var popover: PopoverConfiguration?
    public internal(set) var arrowDirection: PopoverArrowDirection?
    /// The dimming view behind a sheet (in the container, below the presented view).
    var dimmingView: View?
    /// The sheet's grabber (`sheet.grabber`): the presented view's top subview while it shows as a sheet.
    var grabberView: View?
    /// A partial curl's views while the page is curled (SystemTransitionAnimator.curl): the presented view's mask,
    /// the page's back in the container, and the mask the presented view had before.
    struct Curl {
        let mask: View
        let flap: View
        let previousMask: View?
    }
    var curl: Curl?
    /// The context's view's rect in window coordinates, when the presentation began (currentContext styles).
    var contextFrame = Rect.zero
    /// A sheet drag under way: the height the sheet had when it began.
    var dragStartHeight: Double?
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
        self.adaptiveStyle = style
        self.controller = controller
        self.host = host
    }

    /// Whether the presenting (context) view leaves the hierarchy when the presentation completes.
    /// Decided by the style asked for (an adaptation later does not put the view back or take it out).
    public var removesPresenterView: Bool { style.removesPresenterView || (controller?.removesPresenterView ?? false) }

    /// The present runs the built-in partial curl, which keeps the presenting view to show it curled.
    var curlsPresenter = false

    /// Whether the presenting view is taken out of the hierarchy when the present completes: as
    /// `removesPresenterView`, except under the built-in partial curl (its appearance calls stay a full-screen
    /// presentation's). An animator chosen over a `partialCurl` transition style gets the full-screen frames.
    var takesPresenterViewAway: Bool { removesPresenterView && !curlsPresenter }

    /// Whether the presentation shows as a sheet now (a page or form sheet, or a popover adapted to one).
    public var isSheet: Bool { adaptiveStyle.isSheet }
}
