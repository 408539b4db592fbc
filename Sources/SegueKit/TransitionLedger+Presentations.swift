/// Modal presentations (UIKit's present(_:animated:) and dismiss): the ledger keeps the presentations, bottom
/// first, and runs each as a transition of its presentation host; a presentation plugin's hooks are called here.
extension TransitionLedger {
    /// The presentation context of `vc`: the top of its parent chain.
    func presentationContext(of vc: ViewController, in scene: Scene) -> ViewController {
        var top = vc
        while let parent = top.parent { top = parent }
        return top
    }

    /// Whether `vc`'s view is on screen in the scene's hierarchy (the root's tree or a presented one).
    func isOnScreen(_ vc: ViewController, in scene: Scene) -> Bool {
        let top = presentationContext(of: vc, in: scene)
        return (top === scene.root || top.presentation != nil) && vc.isVisible
    }

    /// modal.present: `presented` over `presenting`, with `style`, an animator and an optional presentation plugin.
    func present(_ presented: ViewController, from presenting: ViewController, style requestedStyle: PresentationStyle?,
                        presentation pluginName: String? = nil, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil, sheet: SheetConfiguration? = nil,
                        popover: PopoverConfiguration? = nil, transitionStyle: ModalTransitionStyle? = nil,
                        in scene: Scene) throws(EngineError) -> TransitionStart
    {
        guard presented !== presenting else { throw .invalidParams("presented", "a view controller cannot present itself") }
        guard presented.parent == nil, presented !== scene.root, !scene.controllers.isItemOfAnyContainer(presented, in: scene), presented.presentation == nil,
            presented.presentedViewController == nil
        else {
            throw .invalidParams("presented", "'\(presented.id)' is in a container, is the root or is already presented")
        }
        guard isOnScreen(presenting, in: scene) else {
            throw EngineError(.invalidState, "'\(presenting.id)' is not on screen: only a view controller on screen can present", id: presenting.id)
        }
        // automatic resolves as UIKit resolves it: a page sheet (custom when a presentation plugin is named).
        var style = requestedStyle ?? (pluginName != nil ? .custom : scene.config.modalDefaultStyle)
        if style == .automatic { style = pluginName != nil ? .custom : .pageSheet }
        try checkStyleOptions(style, sheet: sheet, popover: popover, in: scene)
        let context = (style == .currentContext || style == .overCurrentContext)
            ? definingContext(of: presenting, in: scene) : presentationContext(of: presenting, in: scene)
        guard context.presentedViewController == nil else {
            throw EngineError(.invalidState, "'\(context.id)' is already presenting '\(context.presentedViewController?.id ?? "?")'", id: context.id)
        }
        if let busy = context.presentation?.transition, !busy.isEnded {
            throw EngineError(.invalidState, "'\(context.id)' is being presented or dismissed by transition '\(busy.id)'", id: busy.id)
        }
        var controller: (any PresentationController)?
        if let pluginName {
            guard style == .custom else {
                throw .invalidParams("presentation", "a presentation plugin goes with style \"custom\", not \"\(style.rawValue)\"")
            }
            guard let provider = scene.animatorProvider, let found = try provider.presentation(named: pluginName, for: scene) else {
                throw EngineError(.notFound, "no presentation plugin named '\(pluginName)'", param: "presentation", id: pluginName)
            }
            controller = found
        }
        let transitionStyle = effectiveTransitionStyle(transitionStyle, presented: presented, style: style, context: context)
        if transitionStyle.style == .partialCurl, style != .fullScreen {
            throw .invalidParams("transition_style", "\"partialCurl\" goes with style \"fullScreen\", not \"\(style.rawValue)\""
                + (transitionStyle.fromContext ? " (the transition style of '\(context.id)', which provides its presentation context's transition style)" : ""))
        }
        // Checks done: from here on the request applies.
        var viewID = "\(presented.id).presentation"
        var n = 2
        while scene.view(viewID) != nil {
            viewID = "\(presented.id).presentation-\(n)"
            n += 1
        }
        let containerView = try scene.makeView(id: viewID, frame: scene.window.model.bounds, color: .clear)
        scene.addSubview(containerView, to: scene.window)
        let host = ContainerViewController(
            id: "modal:\(presented.id)", title: nil, view: containerView, behaviour: PresentationHost(), items: [],
            whenBusy: .reject)
        host.appearance = .appeared
        // As in UIKit, the presenting view controller is the presentation context (the top of the chain).
        let record = Presentation(presenting: context, presented: presented, context: context, style: style,
                                  controller: controller, host: host)
        record.transitionStyle = transitionStyle.style
        record.sheet = sheet
        record.popover = popover
        record.contextFrame = scene.windowRect(of: context.view)
        presented.presentation = record
        context.presentedViewController = presented
        addPresentation(record)
        adapt(record, in: scene)
        if style.isSheet || style == .popover || record.adaptiveStyle.isSheet {
            addDimmingView(record, in: scene)
            addGrabberView(record, in: scene)
        }

        let op = TransitionOperation(kind: .present, container: host, from: context, to: presented, fromIndex: nil,
                                     toIndex: nil, direction: .forward)
        let animator: any Animator
        let interaction: (any InteractionController)?
        do throws(EngineError) {
            animator = try resolveAnimator(op, requested: requested, in: scene)
            interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name, in: scene) : nil
        } catch {
            dropPresentation(record, in: scene)
            throw error
        }
        record.curlsPresenter = animated && (animator as? SystemTransitionAnimator)?.style == .partialCurl
        let t = begin(TransitionPlan(op: op), animated: animated, animator: animator, id: nil, interactive: interactive,
                      interaction: interaction, in: scene)
        return .started(t)
    }

    /// The transition style a present runs with: the request's `transition_style`, else the presented view
    /// controller's own; but a currentContext/overCurrentContext presentation over a context that defines the
    /// presentation context and provides its transition style takes the context's (its modalTransitionStyle, UIKit's
    /// default coverVertical when it has none). Apple, providesPresentationContextTransitionStyle: "When a view
    /// controller's definesPresentationContext property is true, it can replace the transition style of the presented
    /// view controller with its own … the current view controller's transition style is used instead of the style
    /// associated with the presented view controller."
    func effectiveTransitionStyle(_ requested: ModalTransitionStyle?, presented: ViewController, style: PresentationStyle,
                                  context: ViewController) -> (style: ModalTransitionStyle?, fromContext: Bool)
    {
        if style == .currentContext || style == .overCurrentContext, context.definesPresentationContext,
            context.providesPresentationContextTransitionStyle
        {
            return (context.modalTransitionStyle ?? .coverVertical, true)
        }
        return (requested ?? presented.modalTransitionStyle, false)
    }

    /// modal.dismiss: `presented` and everything presented above it; only the top one animates (UIKit).
    func dismiss(_ presented: ViewController, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil, in scene: Scene) throws(EngineError) -> TransitionStart
    {
        guard let record = presented.presentation, let index = presentations.firstIndex(where: { $0 === record }) else {
            throw EngineError(.invalidState, "'\(presented.id)' is not presented", id: presented.id)
        }
        guard let top = presentations.last else { return .nothing }
        for p in presentations[index...] {
            if let busy = p.transition, !busy.isEnded {
                throw EngineError(.invalidState, "presentation of '\(p.presented.id)' is running transition '\(busy.id)'", id: busy.id)
            }
        }
        let op = TransitionOperation(kind: .dismiss, container: top.host, from: top.presented, to: record.context,
                                     fromIndex: nil, toIndex: nil, direction: .backward)
        let animator = try resolveAnimator(op, requested: requested, in: scene)
        let interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name, in: scene) : nil
        // The presenting view comes back below the presentations so the dismissal can show it.
        if let removed = record.removedPresenter, removed.superview.isAlive {
            scene.insertSubview(record.context.view, into: removed.superview, at: removed.index)
        }
        let leaving = presentations[index..<(presentations.count - 1)].map(\.presented)
        let t = begin(TransitionPlan(op: op, leaving: leaving), animated: animated, animator: animator, id: nil,
                      interactive: interactive, interaction: interaction, in: scene)
        return .started(t)
    }

    /// The context of a present or dismiss: UIKit's frames and the withheld views.
    func configureModalContext(_ t: Transition, _ context: TransitionContext, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene) else { return }
        record.transition = t
        context.presentationStyle = record.style
        let bounds = context.containerView.model.bounds
        // UIKit gives a zero rect only for a view being removed or not yet placed; the plugin guide's "Frames in a
        // presentation" table lists every cell.
        if t.kind == .present {
            context.fromInitial = bounds
            context.fromFinal = record.takesPresenterViewAway ? .zero : bounds
            context.toInitial = .zero
            context.toFinal = presentedFrame(record, bounds: bounds, in: scene)
            if !record.takesPresenterViewAway { context.withheldViews.insert("from") }
        } else {
            // A custom presentation's view stays where its presentation controller put it, from start to end.
            if record.controller != nil && record.adaptiveStyle == .custom {
                let frame = presentedFrame(record, bounds: bounds, in: scene)
                context.fromInitial = frame
                context.fromFinal = frame
            } else {
                context.fromInitial = t.from.view.model.frame
                context.fromFinal = .zero
            }
            // The bottom presentation decides whether the presenting view had gone (then it is placed anew).
            let presenterWasRemoved = t.to.presentedViewController?.presentation?.takesPresenterViewAway ?? false
            context.toInitial = presenterWasRemoved ? .zero : t.to.view.model.frame
            context.toFinal = bounds
            if !presenterWasRemoved { context.withheldViews.insert("to") }
        }
    }

    /// The frame the presentation plugin gives the presented view (`frame_of_presented_view`), or the whole
    /// container when there is no plugin, it gives none or it raises (with a warning).
    func presentedFrame(_ record: Presentation, bounds: Rect, in scene: Scene) -> Rect {
        switch record.adaptiveStyle {
        case .fullScreen, .overFullScreen, .automatic: return bounds
        case .currentContext, .overCurrentContext: return record.contextFrame
        case .pageSheet, .formSheet: return sheetGeometry(record, bounds: bounds, in: scene).frame(height: selectedHeight(record, bounds: bounds, in: scene))
        case .popover: return popoverFrame(record, bounds: bounds, in: scene)
        case .custom: break
        }
        guard let controller = record.controller else { return bounds }
        do {
            return try controller.frameOfPresentedView(record) ?? bounds
        } catch {
            scene.warnRaised(controller.name, "frame_of_presented_view", error.message, then: "; using the whole container")
            return bounds
        }
    }

    /// The presentation a present or dismiss transition belongs to (the top one for a dismissal).
    func modalRecord(of t: Transition, in scene: Scene) -> Presentation? {
        switch t.kind {
        case .present: return t.to.presentation
        case .dismiss: return t.from.presentation
        case .select, .push, .pop, .set, .column, .displayMode: return nil
        }
    }

    /// The will-calls of a present or dismiss (no containment: presentations are not children).
    func modalWillBegin(_ t: Transition, animated: Bool, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene) else { return }
        if t.kind == .present {
            if record.removesPresenterView { scene.controllers.beginAppearance(t.from, appearing: false, animated: animated, in: scene) }
            scene.controllers.beginAppearance(t.to, appearing: true, animated: animated, in: scene)
        } else {
            scene.controllers.beginAppearance(t.from, appearing: false, animated: animated, in: scene)
            for vc in t.leaving { scene.controllers.beginAppearance(vc, appearing: false, animated: animated, in: scene) }
            if t.to.appearance == .disappeared { scene.controllers.beginAppearance(t.to, appearing: true, animated: animated, in: scene) }
        }
    }

    /// The presentation plugin's will_begin / dismissal_will_begin: after the duration is known, before animate.
    func modalBeforeAnimate(_ t: Transition, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene) else { return }
        if record.dimmingView != nil {
            let presenting = t.kind == .present
            animateAlongside(t, { self.applySheetChrome(record, presented: presenting, in: scene) }, completion: nil, in: scene)
        }
        guard let controller = record.controller else { return }
        callPresentation(controller, t.kind == .present ? "will_begin" : "dismissal_will_begin", record, completed: nil, transition: t, in: scene)
    }

    func callPresentation(_ controller: any PresentationController, _ hook: String, _ record: Presentation, completed: Bool?,
                          transition: Transition?, in scene: Scene)
    {
        let saved = scene.clock.enter(transition)
        defer { scene.clock.leave(restoring: saved) }
        do {
            try controller.call(hook, record, completed: completed)
        } catch {
            scene.warnRaised(controller.name, hook, error.message)
        }
    }

    /// A present or dismiss completed.
    func modalFinish(_ t: Transition, animated: Bool, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene) else { return }
        if t.kind == .present {
            if record.takesPresenterViewAway, let superview = t.from.view.superview,
                let index = superview.subviews.firstIndex(where: { $0 === t.from.view })
            {
                record.removedPresenter = (superview, index)
                scene.removeFromSuperview(t.from.view)
            }
            scene.controllers.endAppearance(t.from, animated: animated, in: scene)
            scene.controllers.endAppearance(t.to, animated: animated, in: scene)
            record.transition = nil
            if let controller = record.controller { callPresentation(controller, "did_end", record, completed: true, transition: nil, in: scene) }
            return
        }
        // Dismiss: the presenting view goes back where it was; every presentation from the dismissed one up ends.
        guard let bottom = t.to.presentedViewController?.presentation,
            let index = presentations.firstIndex(where: { $0 === bottom })
        else { return }
        let ending = Array(presentations[index...])
        if let removed = bottom.removedPresenter, removed.superview.isAlive {
            if t.to.view.superview !== removed.superview {
                scene.insertSubview(t.to.view, into: removed.superview, at: min(removed.index, removed.superview.subviews.count))
            }
            scene.set(t.to.view, frame: t.to === scene.root ? scene.window.model.bounds : t.to.view.model.frame)
        }
        scene.controllers.endAppearance(t.from, animated: animated, in: scene)
        for vc in t.leaving { scene.controllers.endAppearance(vc, animated: animated, in: scene) }
        scene.controllers.endAppearance(t.to, animated: animated, in: scene)
        for p in ending.reversed() {
            if let controller = p.controller { callPresentation(controller, "dismissal_did_end", p, completed: true, transition: nil, in: scene) }
            dropPresentation(p, in: scene)
        }
    }

    /// A present or dismiss is being cancelled: the presentation plugin's did_end(false) /
    /// dismissal_did_end(false) comes before the engine puts the tree back, so the plugin can clean up first.
    func modalWillUndo(_ t: Transition, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene), let controller = record.controller else { return }
        callPresentation(controller, t.kind == .present ? "did_end" : "dismissal_did_end", record, completed: false, transition: nil, in: scene)
    }

    /// A present or dismiss was cancelled: the tree is back (baseline); appearance is reversed.
    func modalUndo(_ t: Transition, animated: Bool, in scene: Scene) {
        guard let record = modalRecord(of: t, in: scene) else { return }
        record.transition = nil
        if t.kind == .present {
            dropPresentation(record, in: scene)
        } else {
            if let bottom = t.to.presentedViewController?.presentation, bottom.removedPresenter != nil {
                scene.removeFromSuperview(t.to.view)
            }
            for vc in t.leaving where vc.appearance == .disappearing {
                scene.controllers.beginAppearance(vc, appearing: true, animated: animated, in: scene)
                scene.controllers.endAppearance(vc, animated: animated, in: scene)
            }
        }
    }

    /// Takes a presentation away: its container view (and what a plugin left in it) goes; view controllers'
    /// views are taken out first, never destroyed.
    func dropPresentation(_ record: Presentation, in scene: Scene) {
        removePresentation(record)
        if record.presenting.presentedViewController === record.presented { record.presenting.presentedViewController = nil }
        if record.presented.presentation === record { record.presented.presentation = nil }
        func rescue(_ view: View) {
            for sub in view.subviews {
                if sub.owner != nil { scene.removeFromSuperview(sub) } else { rescue(sub) }
            }
        }
        rescue(record.containerView)
        if record.containerView.isAlive { scene.destroyView(record.containerView) }
        if let grabber = record.grabberView, grabber.isAlive { scene.destroyView(grabber) }
        record.controller?.presentationEnded(record)
    }

    /// scene.resize: every presentation's container fills the window; presentation plugins get `layout`, the
    /// others' presented views fill it (or take frame_of_presented_view) unless a transition is moving them.
    func layoutPresentations(in scene: Scene) {
        let bounds = scene.window.model.bounds
        for record in presentations {
            scene.set(record.containerView, frame: bounds)
            if record.context.view.superview != nil { record.contextFrame = scene.windowRect(of: record.context.view) }
            adapt(record, in: scene)
            if let dimming = record.dimmingView { scene.set(dimming, frame: bounds) }
            if record.adaptiveStyle != .custom {
                if record.transition == nil {
                    scene.set(record.presented.view, frame: presentedFrame(record, bounds: bounds, in: scene))
                    if record.dimmingView != nil { applySheetChrome(record, presented: true, in: scene) }
                }
                if let controller = record.controller {
                    callPresentation(controller, "layout", record, completed: nil, transition: record.transition, in: scene)
                }
            } else if let controller = record.controller {
                callPresentation(controller, "layout", record, completed: nil, transition: record.transition, in: scene)
                if record.transition == nil {
                    do {
                        let frame = try controller.frameOfPresentedView(record) ?? bounds
                        scene.set(record.presented.view, frame: frame)
                    } catch {
                        scene.warnRaised(controller.name, "frame_of_presented_view", error.message)
                    }
                }
            } else if record.transition == nil {
                scene.set(record.presented.view, frame: bounds)
            }
            scene.controllers.layout(record.presented, in: scene)
        }
    }
}
