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

    /// Calls the prelude's dispatcher: `(desc, method, key, container, presented, presenting, ctx, completed)`.
    private func dispatch(_ method: String, _ p: Presentation, completed: Bool?, results: Int32) -> LuaError? {
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
        let error = instance.callPlugin(args: 8, results: results)
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

    func presentationEnded(_ p: Presentation) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        _ = dispatch("forget", p, completed: nil, results: 0)
    }
}
