import SegueJSON
import SegueKit

extension Daemon {
    /// `preferred_transition?: {zoom: {source_view, source_rect?}}` (docs/PROTOCOL.md "preferred_transition"):
    /// nil when absent, `.some(nil)` for `null` (clears it on vc.set). A source view that does not exist is -32001
    /// naming it; anything else malformed is -32602 naming `preferred_transition`.
    func preferredTransition(_ p: Params, _ scene: Scene) throws(RPCError) -> ZoomTransition?? {
        let key = "preferred_transition"
        guard p.has(key), let value = p.object[key] else { return nil }
        if value.isNull { return .some(nil) }
        guard let object = value.objectValue else {
            throw .invalidParams(key, "'\(key)' must be an object {zoom: {source_view, source_rect?}}, not \(value.typeName)")
        }
        var zoom: ZoomTransition?
        for (name, inner) in object {
            guard name == "zoom" else { throw .invalidParams(key, "'\(key)' has an unknown key '\(name)' (zoom)") }
            guard let o = inner.objectValue else {
                throw .invalidParams(key, "'\(key).zoom' must be an object {source_view, source_rect?}, not \(inner.typeName)")
            }
            var sourceID: String?
            var rect: Rect?
            for (field, v) in o {
                switch field {
                case "source_view":
                    guard let id = v.stringValue else {
                        throw .invalidParams(key, "'\(key).zoom.source_view' must be a view id, not \(v.typeName)")
                    }
                    sourceID = id
                case "source_rect":
                    guard let r = ValueJSON.parseRect(v), r.w >= 0, r.h >= 0, abs(r.x) <= 1e9, abs(r.y) <= 1e9,
                        r.w <= 1e9, r.h <= 1e9
                    else {
                        throw .invalidParams(key, "'\(key).zoom.source_rect' must be {x, y, w, h} of finite numbers with w, h ≥ 0")
                    }
                    rect = r
                default:
                    throw .invalidParams(key, "'\(key).zoom' has an unknown key '\(field)' (source_view, source_rect)")
                }
            }
            guard let sourceID else { throw .invalidParams(key, "'\(key).zoom' needs 'source_view'") }
            guard scene.view(sourceID) != nil else { throw .notFound("view", sourceID, param: "\(key).zoom.source_view") }
            zoom = ZoomTransition(sourceView: sourceID, sourceRect: rect)
        }
        guard let zoom else { throw .invalidParams(key, "'\(key)' must be {zoom: {source_view, source_rect?}}") }
        return .some(zoom)
    }

    /// Sets `vc`'s preferred transition for a starting request and restores it when the request fails, so the
    /// request applies whole or not at all.
    func withPreferredTransition<T>(_ zoom: ZoomTransition??, on vc: ViewController, _ scene: Scene,
                                    _ body: () throws(RPCError) -> T) throws(RPCError) -> T
    {
        guard let zoom else { return try body() }
        let previous = vc.preferredZoom
        var settings = ViewControllerSettings()
        settings.preferredZoom = zoom
        scene.apply(settings, to: vc)
        do throws(RPCError) {
            return try body()
        } catch {
            var back = ViewControllerSettings()
            back.preferredZoom = .some(previous)
            scene.apply(back, to: vc)
            throw error
        }
    }
}

extension Daemon {
    /// Gesture-first zoom dismissal (docs/PROTOCOL.md "Interactive zoom dismissal"): a `began` pan or pinch on a
    /// zoomed view with nothing named starts its `modal.dismiss` or `nav.pop`, interactive, through the method's
    /// own handler. Nil (refused, nothing started) when the gesture goes the wrong way or the dismissal cannot
    /// start now (busy).
    func zoomGestureFirst(_ target: ZoomDismissal, _ gesture: PanGesture, scene: Scene,
                          connection: ClientConnection) throws(RPCError) -> Transition?
    {
        guard gesture.startsZoomDismissal else { return nil }
        let method: String
        var params = JSONObject([("scene", .string(scene.id)), ("interactive", true), ("animated", true)])
        switch target {
        case .dismiss(let presented):
            method = "modal.dismiss"
            params["presented"] = .string(presented.id)
        case .pop(let nav):
            method = "nav.pop"
            params["container"] = .string(nav.id)
            params["when_busy"] = "reject"
        }
        guard let handler = Daemon.methods[method]?.handler else { return nil }
        do throws(RPCError) {
            guard case .started(let start) = try handler(self, Params(params), connection) else { return nil }
            return start.transition
        } catch {
            return nil
        }
    }
}
