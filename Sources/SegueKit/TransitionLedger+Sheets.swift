/// Presentation styles beyond full screen (docs/PROTOCOL.md "Presentation styles"): contexts, sheets and their
/// detents, popovers, adaptivity.
extension TransitionLedger {
    /// The contradictions modal.present refuses (-32602): a sheet on a style without one, a popover without a
    /// source or on another style.
    func checkStyleOptions(_ style: PresentationStyle, sheet: SheetConfiguration?, popover: PopoverConfiguration?,
                           in scene: Scene) throws(EngineError)
    {
        if sheet != nil, !(style.isSheet || style == .popover) {
            throw .invalidParams("sheet", "'sheet' goes with style pageSheet, formSheet, automatic or popover, not \"\(style.rawValue)\"")
        }
        _ = try sheet?.validated()
        if style == .popover {
            guard let popover else {
                throw .invalidParams("popover", "style \"popover\" needs 'popover' with a source_view")
            }
            guard popover.sourceView.isAlive, scene.isInWindow(popover.sourceView) else {
                throw .invalidParams("popover.source_view", "the popover's source view '\(popover.sourceView.id)' is not on screen")
            }
            if let size = popover.preferredSize, !(size.w > 0 && size.h > 0) {
                throw .invalidParams("popover.preferred_size", "'popover.preferred_size' must be positive")
            }
        } else if popover != nil {
            throw .invalidParams("popover", "'popover' goes with style \"popover\", not \"\(style.rawValue)\"")
        }
    }

    /// The context of a currentContext / overCurrentContext presentation: the nearest view controller from
    /// `vc` up that defines a presentation context, else the top of the chain (UIKit: the root).
    func definingContext(of vc: ViewController, in scene: Scene) -> ViewController {
        var current: ViewController? = vc
        while let c = current {
            if c.definesPresentationContext { return c }
            current = c.parent
        }
        return presentationContext(of: vc, in: scene)
    }

    /// Sets the style in effect for the scene's size classes: a presentation plugin's `adaptive_style` decides for
    /// custom; otherwise a popover or form sheet becomes a page sheet in a horizontally compact scene
    /// (adaptivePresentationStyle's default).
    func adapt(_ record: Presentation, in scene: Scene) {
        var style = record.style
        if let controller = record.controller {
            do {
                if let answer = try controller.adaptiveStyle(record, traits: scene.traits) { style = answer }
            } catch {
                scene.warnRaised(controller.name, "adaptive_style", error.message, then: "; keeping \"\(style.rawValue)\"")
            }
        } else if scene.traits.horizontal == .compact, style == .popover || style == .formSheet {
            style = .pageSheet
        }
        if style == .automatic { style = .pageSheet }
        if style == .currentContext || style == .overCurrentContext, record.style != style { style = .overFullScreen }
        record.adaptiveStyle = style
        if style.isSheet, record.selectedDetent == nil {
            let detents = record.sheet?.detents ?? [.large]
            let bounds = scene.window.model.bounds
            let geometry = sheetGeometry(record, bounds: bounds, in: scene)
            record.selectedDetent = record.sheet?.selected
                ?? detents.min { detentHeight($0, geometry) < detentHeight($1, geometry) }?.id ?? "large"
        }
    }

    /// A black dimming view below the presented view, transparent until a sheet's chrome is applied.
    func addDimmingView(_ record: Presentation, in scene: Scene) {
        guard let view = try? scene.makeView(id: "\(record.containerView.id).dimming", frame: record.containerView.model.bounds,
                                             color: Color(r: 0, g: 0, b: 0, a: 1))
        else { return }
        scene.set(view, alpha: 0)
        scene.insertSubview(view, into: record.containerView, at: 0)
        record.dimmingView = view
    }

    /// The grabber of a sheet that asks for one (`sheet.grabber`): UISheetPresentationController's
    /// prefersGrabberVisible, a pill at the top of the presented view (SheetMetrics.grabber…), hidden while the
    /// presentation does not show as a sheet.
    func addGrabberView(_ record: Presentation, in scene: Scene) {
        guard record.sheet?.grabber == true,
            let view = try? scene.makeView(id: "\(record.containerView.id).grabber", frame: grabberFrame(record, in: scene),
                                           color: SheetMetrics.grabberColor)
        else { return }
        scene.set(view, .cornerRadius, [SheetMetrics.grabberSize.h / 2])
        scene.addSubview(view, to: record.presented.view)
        scene.set(view, hidden: !record.isSheet)
        record.grabberView = view
    }

    /// The grabber's frame in the presented view's bounds: centred on the width the sheet has (or is about to
    /// have), `grabberTop` below its top edge.
    func grabberFrame(_ record: Presentation, in scene: Scene) -> Rect {
        let b = record.presented.view.model.bounds, size = SheetMetrics.grabberSize
        let w = presentedFrame(record, bounds: scene.window.model.bounds, in: scene).w
        return Rect(x: b.x + (w - size.w) / 2, y: b.y + SheetMetrics.grabberTop, w: size.w, h: size.h)
    }

    /// Where a sheet sits: attached to the bottom edge (its height is the detent's), or a fixed frame that a drag
    /// slides down (regular page and form sheets, and a sheet filling a compact-height scene).
    struct SheetGeometry {
        var attached: Bool
        var x: Double
        var w: Double
        var bottom: Double
        var largeHeight: Double
        var containerHeight: Double

        func frame(height: Double) -> Rect {
            attached ? Rect(x: x, y: bottom - height, w: w, h: height) : Rect(x: x, y: bottom - height, w: w, h: largeHeight)
        }
    }

    func sheetGeometry(_ record: Presentation, bounds b: Rect, in scene: Scene) -> SheetGeometry {
        let traits = scene.traits
        let edgeAttached = record.sheet?.prefersEdgeAttached ?? false
        if traits.vertical == .compact && !edgeAttached {
            return SheetGeometry(attached: false, x: b.x, w: b.w, bottom: b.edgeBottom, largeHeight: b.h, containerHeight: b.h)
        }
        if traits.horizontal == .compact || traits.vertical == .compact {
            let w = traits.horizontal == .compact ? b.w : min(b.w, SheetMetrics.pageSheetWidth)
            return SheetGeometry(attached: true, x: b.x + (b.w - w) / 2, w: w, bottom: b.edgeBottom,
                                 largeHeight: max(0, b.h - SheetMetrics.topInset), containerHeight: b.h)
        }
        let margin = SheetMetrics.regularMargin
        let frame: Rect
        if record.adaptiveStyle == .formSheet {
            let size = record.presented.preferredContentSize ?? SheetMetrics.formSheetSize
            let w = min(size.w, max(0, b.w - 2 * margin)), h = min(size.h, max(0, b.h - 2 * margin))
            frame = Rect(x: b.x + (b.w - w) / 2, y: b.y + (b.h - h) / 2, w: w, h: h)
        } else {
            let w = min(SheetMetrics.pageSheetWidth, b.w), h = max(0, b.h - 2 * margin)
            frame = Rect(x: b.x + (b.w - w) / 2, y: b.y + margin, w: w, h: h)
        }
        return SheetGeometry(attached: false, x: frame.x, w: frame.w, bottom: frame.edgeBottom, largeHeight: frame.h,
                             containerHeight: b.h)
    }

    /// A detent's height: large is the whole sheet, medium half the container, a custom one its height (at most
    /// large). Where the sheet does not attach to the bottom edge, every detent is the whole sheet.
    func detentHeight(_ detent: SheetDetent, _ g: SheetGeometry) -> Double {
        guard g.attached else { return g.largeHeight }
        switch detent {
        case .large: return g.largeHeight
        case .medium: return min(g.largeHeight, (g.containerHeight * SheetMetrics.mediumFraction).rounded())
        case .custom(_, let h): return min(g.largeHeight, h)
        }
    }

    func detents(of record: Presentation) -> [SheetDetent] { record.sheet?.detents ?? [.large] }

    func selectedHeight(_ record: Presentation, bounds: Rect, in scene: Scene) -> Double {
        let g = sheetGeometry(record, bounds: bounds, in: scene)
        let d = detents(of: record).first { $0.id == record.selectedDetent } ?? .large
        return detentHeight(d, g)
    }

    /// The dimming, the sheet's corner radius and the presenter scaled back behind a full-height compact page
    /// sheet (`presented` false: all undone, for the dismissal). Inside an animation block it animates.
    func applySheetChrome(_ record: Presentation, presented: Bool, in scene: Scene) {
        if let grabber = record.grabberView, grabber.isAlive {
            scene.set(grabber, hidden: !record.isSheet)
            scene.set(grabber, frame: grabberFrame(record, in: scene))
            if grabber.superview === record.presented.view, record.presented.view.subviews.last !== grabber {
                scene.bringToFront(grabber)
            }
        }
        guard let dimming = record.dimmingView, dimming.isAlive else { return }
        let presenter = record.context.view
        guard presented, record.isSheet else {
            scene.set(dimming, alpha: 0)
            scene.set(presenter, transform: .identity)
            scene.set(presenter, .cornerRadius, [0])
            return
        }
        let bounds = scene.window.model.bounds
        let g = sheetGeometry(record, bounds: bounds, in: scene)
        let all = detents(of: record)
        let height = selectedHeight(record, bounds: bounds, in: scene)
        let undimmed = record.sheet?.largestUndimmed.flatMap { id in all.first { $0.id == id } }.map { detentHeight($0, g) } ?? -1
        let dimmed = height > undimmed
        scene.set(dimming, alpha: dimmed ? SheetMetrics.dimmingAlpha : 0)
        scene.set(record.presented.view, .cornerRadius, [SheetMetrics.sheetCornerRadius])
        let behind = dimmed && g.attached && scene.traits.horizontal == .compact && height >= g.largeHeight
            && !record.removesPresenterView
        if behind, presenter.model.bounds.w > 0 {
            let w = presenter.model.bounds.w
            let s = max(0, (w - 2 * SheetMetrics.presenterInset) / w)
            scene.set(presenter, transform: Transform3D(a: s, b: 0, c: 0, d: s, tx: 0, ty: 0))
            scene.set(presenter, .cornerRadius, [SheetMetrics.presenterCornerRadius])
        } else {
            scene.set(presenter, transform: .identity)
            scene.set(presenter, .cornerRadius, [0])
        }
    }

    // MARK: Popovers

    /// The popover's frame and arrow: below the source when it fits, else above, else beside (right, then left),
    /// among the permitted directions; centred on the source and kept `popoverMargin` inside the container.
    func popoverFrame(_ record: Presentation, bounds b: Rect, in scene: Scene) -> Rect {
        guard let popover = record.popover else { return b }
        let m = SheetMetrics.popoverMargin, arrow = SheetMetrics.arrowHeight
        let size = popover.preferredSize ?? record.presented.preferredContentSize ?? SheetMetrics.popoverSize
        let w = min(size.w, max(0, b.w - 2 * m)), h = min(size.h, max(0, b.h - 2 * m))
        let local = popover.sourceRect ?? Rect(x: popover.sourceView.model.bounds.x, y: popover.sourceView.model.bounds.y,
                                               w: popover.sourceView.model.bounds.w, h: popover.sourceView.model.bounds.h)
        let source = scene.windowRect(of: popover.sourceView, rect: local)
        let permitted = popover.permittedArrowDirections.contains(.any)
            ? Set<PopoverArrowDirection>([.up, .down, .left, .right]) : popover.permittedArrowDirections
        func clampX(_ x: Double) -> Double { min(max(x, b.x + m), max(b.x + m, b.edgeRight - m - w)) }
        func clampY(_ y: Double) -> Double { min(max(y, b.y + m), max(b.y + m, b.edgeBottom - m - h)) }
        let below = b.edgeBottom - m - (source.edgeBottom + arrow), above = source.y - arrow - (b.y + m)
        let right = b.edgeRight - m - (source.edgeRight + arrow), left = source.x - arrow - (b.x + m)
        // Arrow up: the popover hangs below the source.
        let choices: [(PopoverArrowDirection, Bool, Rect)] = [
            (.up, below >= h, Rect(x: clampX(source.centerX - w / 2), y: source.edgeBottom + arrow, w: w, h: min(h, max(0, below)))),
            (.down, above >= h, Rect(x: clampX(source.centerX - w / 2), y: source.y - arrow - h, w: w, h: h)),
            (.left, right >= w, Rect(x: source.edgeRight + arrow, y: clampY(source.centerY - h / 2), w: w, h: h)),
            (.right, left >= w, Rect(x: source.x - arrow - w, y: clampY(source.centerY - h / 2), w: w, h: h)),
        ]
        if let fit = choices.first(where: { permitted.contains($0.0) && $0.1 }) {
            record.arrowDirection = fit.0
            return fit.2
        }
        // Nothing fits whole: the permitted side with the most room, the popover shortened to it.
        let rooms: [(PopoverArrowDirection, Double)] = [(.up, below), (.down, above), (.left, right), (.right, left)]
        let best = rooms.filter { permitted.contains($0.0) }.max { $0.1 < $1.1 } ?? (.up, below)
        record.arrowDirection = best.0
        let room = max(0, best.1)
        switch best.0 {
        case .up: return Rect(x: clampX(source.centerX - w / 2), y: source.edgeBottom + arrow, w: w, h: min(h, room))
        case .down: return Rect(x: clampX(source.centerX - w / 2), y: source.y - arrow - min(h, room), w: w, h: min(h, room))
        case .left: return Rect(x: source.edgeRight + arrow, y: clampY(source.centerY - h / 2), w: min(w, room), h: h)
        case .right, .any: return Rect(x: source.x - arrow - min(w, room), y: clampY(source.centerY - h / 2), w: min(w, room), h: h)
        }
    }

    // MARK: Detents and drags

    /// The sheet presentation of `presented`, or -32002.
    func sheetRecord(_ presented: ViewController, in scene: Scene) throws(EngineError) -> Presentation {
        guard let record = presented.presentation, presentations.contains(where: { $0 === record }) else {
            throw EngineError(.invalidState, "'\(presented.id)' is not presented", id: presented.id)
        }
        guard record.isSheet else {
            throw EngineError(.invalidState, "'\(presented.id)' is presented as \(record.adaptiveStyle.rawValue), not as a sheet", id: presented.id)
        }
        if let busy = record.transition, !busy.isEnded {
            throw EngineError(.invalidState, "'\(presented.id)' is running transition '\(busy.id)'", id: busy.id)
        }
        return record
    }

    /// sheet.set_detent: the sheet moves to `detent` (animated: 0.5 s ease out), `sheet.detent_changed` when it
    /// changes.
    func setDetent(_ presented: ViewController, _ detent: String, animated: Bool, in scene: Scene) throws(EngineError) {
        let record = try sheetRecord(presented, in: scene)
        let ids = detents(of: record).map(\.id)
        guard ids.contains(detent) else {
            throw .invalidParams("detent", "'detent' must be one of the sheet's detents: \(ids.joined(separator: ", "))")
        }
        settle(record, at: detent, animated: animated, in: scene)
    }

    /// Puts the sheet at `detent` with its chrome, animated or not; reports a change of detent.
    func settle(_ record: Presentation, at detent: String, animated: Bool, in scene: Scene) {
        let changed = record.selectedDetent != detent
        record.selectedDetent = detent
        let bounds = scene.window.model.bounds
        let frame = presentedFrame(record, bounds: bounds, in: scene)
        if animated {
            scene.animate(AnimationOptions(duration: SheetMetrics.snapDuration, timing: .curve(.easeOut))) {
                scene.set(record.presented.view, frame: frame)
                self.applySheetChrome(record, presented: true, in: scene)
            }
        } else {
            scene.set(record.presented.view, frame: frame)
            applySheetChrome(record, presented: true, in: scene)
        }
        if changed { scene.emit(.sheetDetentChanged(presented: record.presented.id, detent: detent)) }
    }

    /// A pan on a sheet (gesture.pan with `sheet`): the sheet follows the finger; the release is projected
    /// (SheetMetrics.projection), snaps to the nearest detent, or dismisses when the projection falls below half
    /// the smallest detent — refused when the presented view controller is modal in presentation.
    func sheetPan(_ presented: ViewController, _ gesture: PanGesture, in scene: Scene) throws(EngineError) -> SheetPanOutcome {
        let record = try sheetRecord(presented, in: scene)
        let bounds = scene.window.model.bounds
        let g = sheetGeometry(record, bounds: bounds, in: scene)
        let heights = detents(of: record).map { ($0.id, detentHeight($0, g)) }
        let largest = heights.map(\.1).max() ?? g.largeHeight
        let current = g.bottom - record.presented.view.model.frame.y
        let start = record.dragStartHeight ?? current
        let height = min(max(0, start - gesture.translation.y), largest)
        switch gesture.phase {
        case .began, .changed:
            record.dragStartHeight = start
            scene.set(record.presented.view, frame: g.frame(height: height))
            return SheetPanOutcome(detent: record.selectedDetent ?? "large", height: height, dismissing: nil, refused: false)
        case .cancelled:
            record.dragStartHeight = nil
            settle(record, at: record.selectedDetent ?? "large", animated: true, in: scene)
            return SheetPanOutcome(detent: record.selectedDetent ?? "large", height: selectedHeight(record, bounds: bounds, in: scene),
                                   dismissing: nil, refused: false)
        case .ended:
            record.dragStartHeight = nil
            let projected = height - SheetMetrics.projection(velocity: gesture.velocity.y)
            let smallest = heights.map(\.1).min() ?? largest
            if projected < smallest / 2 {
                if presented.isModalInPresentation {
                    settle(record, at: record.selectedDetent ?? "large", animated: true, in: scene)
                    scene.emit(.sheetDismissAttempted(presented: presented.id))
                    return SheetPanOutcome(detent: record.selectedDetent ?? "large",
                                           height: selectedHeight(record, bounds: bounds, in: scene), dismissing: nil, refused: true)
                }
                let start = try dismiss(presented, animated: true, in: scene)
                return SheetPanOutcome(detent: record.selectedDetent ?? "large", height: height, dismissing: start.transition,
                                       refused: false)
            }
            let nearest = heights.min { abs($0.1 - projected) < abs($1.1 - projected) } ?? ("large", largest)
            settle(record, at: nearest.0, animated: true, in: scene)
            return SheetPanOutcome(detent: nearest.0, height: nearest.1, dismissing: nil, refused: false)
        }
    }
}

/// What a sheet pan did: the detent the sheet rests at (or is heading to), its height, the dismissal it started,
/// or a refused dismissal.
public struct SheetPanOutcome {
    public let detent: String
    public let height: Double
    public let dismissing: Transition?
    public let refused: Bool
}

extension Scene {
    /// `rect` (default the view's bounds) of `view` in window coordinates: frame origins added up the superview
    /// chain, bounds origins taken off (transforms are not applied: UIKit's presentation frames ignore them too).
    public func windowRect(of view: View, rect: Rect? = nil) -> Rect {
        var r = rect ?? view.model.bounds
        var v: View? = view
        while let current = v, current !== window {
            let f = current.model.frame, bo = current.model.bounds
            r = r.offsetBy(dx: f.x - bo.x, dy: f.y - bo.y)
            v = current.superview
        }
        return r
    }

    /// Whether `view` hangs from the window.
    public func isInWindow(_ view: View) -> Bool {
        var v: View? = view
        while let current = v {
            if current === window { return true }
            v = current.superview
        }
        return false
    }
}

extension Rect {
    fileprivate var edgeRight: Double { x + w }
    fileprivate var edgeBottom: Double { y + h }
    fileprivate var centerX: Double { x + w / 2 }
    fileprivate var centerY: Double { y + h / 2 }
}
