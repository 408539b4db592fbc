extension Scene {
    // MARK: Modal presentation (TransitionLedger+Presentations: the ledger keeps the presentations)

    /// modal.present: `presented` over `presenting`, with `style`, an animator and an optional presentation plugin.
    public func present(_ presented: ViewController, from presenting: ViewController, style: PresentationStyle?,
                        presentation pluginName: String? = nil, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil, transitionStyle: ModalTransitionStyle? = nil)
        throws(EngineError) -> TransitionStart
    {
        try ledger.present(presented, from: presenting, style: style, presentation: pluginName, animated: animated,
                           interactive: interactive, animator: requested, transitionStyle: transitionStyle, in: self)
    }

    /// modal.dismiss: `presented` and everything presented above it; only the top one animates (UIKit).
    public func dismiss(_ presented: ViewController, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil) throws(EngineError) -> TransitionStart
    {
        try ledger.dismiss(presented, animated: animated, interactive: interactive, animator: requested, in: self)
    }
}
