import CLuaShim
import SegueKit

/// A presentation plugin (`segue.presentation{}`): UIPresentationController's role. The prelude keeps one `pc`
/// table per presentation (its `state` survives between calls, e.g. the dimming view).
final class LuaPresentation: PresentationController {
    let name: String
    let instance: PluginInstance
    let ref: Int32
    let removesPresenterView: Bool

    init(name: String, instance: PluginInstance, ref: Int32) {
        self.name = name
        self.instance = instance
        self.ref = ref
        let state = instance.state
        let base = state.top
        _ = instance.pushField(ref, "removes_presenter_view")
        removesPresenterView = state.type(at: -1) == LUA_TBOOLEAN && state.bool(at: -1)
        state.setTop(base)
    }

    /// Calls the prelude's dispatcher: `(desc, method, key, container, presented, presenting, ctx, completed,
    /// extra)`; `extra` is a table of name/number/string fields (adaptive_style's traits, will_transition_to_size's
    /// size and duration) or nil.
    private func dispatch(_ method: String, _ p: Presentation, completed: Bool?, results: Int32,
                          extra: [(String, ExtraValue)]? = nil) -> LuaError? {
        let state = instance.state
        guard instance.presentationHook != segue_noref() else { return LuaError("no presentation dispatcher") }
        state.pushRef(instance.presentationHook)
        state.pushRef(ref)
        state.push(method)
        state.push("\(ObjectIdentifier(p).hashValue)")
        instance.pushView(p.containerView)
        pushVC(p.presented)
        pushVC(p.presenting)
        let context = p.transition.flatMap { $0.isEnded ? nil : $0.context }
        // The same file may hold the animator, whose ctx must outlive this call.
        let known = context.map { instance.knows($0) } ?? true
        if let context { instance.pushContext(context) } else { state.pushNil() }
        if let completed { state.push(completed) } else { state.pushNil() }
        if let extra {
            state.newTable(fieldCount: Int32(extra.count))
            let t = state.top
            for (key, value) in extra {
                switch value {
                case .number(let n): state.push(n)
                case .text(let s): state.push(s)
                }
                state.setRawField(t, key)
            }
        } else {
            state.pushNil()
        }
        let error = instance.callPlugin(args: 9, results: results)
        // pc.coordinator is good for this call only (UIKit's transitionCoordinator is nil outside a transition).
        if let context, !known { instance.forgetContext(context) }
        return error
    }

    private func pushVC(_ vc: ViewController) {
        let state = instance.state
        state.newTable(fieldCount: 3)
        let t = state.top
        state.push(vc.id)
        state.setRawField(t, "id")
        if let title = vc.title {
            state.push(title)
            state.setRawField(t, "title")
        }
        instance.pushView(vc.view)
        state.setRawField(t, "view")
    }

    func frameOfPresentedView(_ p: Presentation) throws(AnimatorFault) -> Rect? {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        if let error = dispatch("frame_of_presented_view", p, completed: nil, results: 1) {
            throw AnimatorFault("frame_of_presented_view: \(error.message)")
        }
        if state.isNil(-1) { return nil }
        guard let rect = instance.rect(at: state.top) else {
            throw AnimatorFault("frame_of_presented_view(pc) must return a rect {x=, y=, w=, h=}, got \(state.typeName(at: -1))")
        }
        return rect
    }

    func call(_ hook: String, _ p: Presentation, completed: Bool?) throws(AnimatorFault) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        if let error = dispatch(hook, p, completed: completed, results: 0) { throw AnimatorFault("\(hook): \(error.message)") }
    }

    enum ExtraValue {
        case number(Double)
        case text(String)
    }

    /// `adaptive_style(pc, traits)`: a style name ("none" or nil keeps the presentation's own style).
    func adaptiveStyle(_ p: Presentation, traits: Traits) throws(AnimatorFault) -> PresentationStyle? {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        let extra: [(String, ExtraValue)] = [("horizontal", .text(traits.horizontal.rawValue)),
                                             ("vertical", .text(traits.vertical.rawValue))]
        if let error = dispatch("adaptive_style", p, completed: nil, results: 1, extra: extra) {
            throw AnimatorFault("adaptive_style: \(error.message)")
        }
        if state.isNil(-1) { return nil }
        let allowed = ["none", "fullScreen", "overFullScreen", "pageSheet", "formSheet", "popover"]
        guard let name = state.string(at: -1), allowed.contains(name) else {
            throw AnimatorFault("adaptive_style(pc, traits) must return one of \(allowed.joined(separator: ", ")) or nil")
        }
        if name == "popover", p.popover == nil {
            throw AnimatorFault("adaptive_style(pc, traits) returned \"popover\" for a presentation with no popover source")
        }
        return name == "none" ? .custom : PresentationStyle(rawValue: name)
    }

    /// `will_transition_to_size(pc, size)`, with `pc.coordinator:alongside` animating over the duration.
    func willTransition(_ p: Presentation, to size: Size, duration: Double) throws(AnimatorFault) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        let extra: [(String, ExtraValue)] = [("w", .number(size.w)), ("h", .number(size.h)), ("duration", .number(duration))]
        if let error = dispatch("will_transition_to_size", p, completed: nil, results: 0, extra: extra) {
            throw AnimatorFault("will_transition_to_size: \(error.message)")
        }
    }

    func presentationEnded(_ p: Presentation) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        _ = dispatch("forget", p, completed: nil, results: 0)
    }
}
