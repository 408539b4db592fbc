import SegueJSON
import SegueKit

extension EngineEvent {
    /// The event's `params` object as a JSON tree (render.* results carry events as values). The socket's event
    /// lines are written by `EventEncoder` without a tree; the two are held equal by `EventEncoderTests`.
    var params: JSONObject {
        var object = JSONObject()
        object["seq"] = .number(Double(seq))
        if let scene { object["scene"] = .string(scene) }
        object["type"] = .string(type)
        object["time"] = .number(time)
        for (k, v) in payload.fields { object[k] = v }
        return object
    }
}

extension EngineEvent.Payload {
    /// The event's own fields, in the protocol's order.
    var fields: JSONObject {
        switch self {
        case .willMoveToParent(let vc, let parent), .didMoveToParent(let vc, let parent):
            return JSONObject([("vc", .string(vc)), ("parent", parent.map { .string($0) } ?? .null)])
        case .viewWillAppear(let vc, let animated), .viewDidAppear(let vc, let animated),
            .viewWillDisappear(let vc, let animated), .viewDidDisappear(let vc, let animated):
            return JSONObject([("vc", .string(vc)), ("animated", .bool(animated))])
        case .traitsChanged(let traits, let previous):
            return JSONObject([
                ("horizontal", .string(traits.horizontal.rawValue)), ("vertical", .string(traits.vertical.rawValue)),
                ("previous", .object(JSONObject([
                    ("horizontal", .string(previous.horizontal.rawValue)),
                    ("vertical", .string(previous.vertical.rawValue)),
                ]))),
            ])
        case .viewWillTransitionToSize(let vc, let size, let duration):
            return JSONObject([("vc", .string(vc)), ("size", ValueJSON.size(size)), ("duration", .number(duration))])
        case .sheetDetentChanged(let presented, let detent):
            return JSONObject([("presented", .string(presented)), ("detent", .string(detent))])
        case .sheetDismissAttempted(let presented):
            return JSONObject([("presented", .string(presented))])
        case .transitionBegan(let b):
            return JSONObject([
                ("transition", .string(b.transition)), ("kind", .string(b.kind.rawValue)), ("from", .string(b.from)),
                ("to", .string(b.to)), ("animator", .string(b.animator)), ("interactive", .bool(b.interactive)),
                ("duration", .number(b.duration)),
            ])
        case .transitionUpdated(let transition, let percent):
            return JSONObject([("transition", .string(transition)), ("percent", .number(percent))])
        case .interactionEnded(let transition, let cancelled, let velocity):
            return JSONObject([
                ("transition", .string(transition)), ("cancelled", .bool(cancelled)),
                ("completion_velocity", .number(velocity)),
            ])
        case .transitionCompleted(let c):
            var o = JSONObject([
                ("transition", .string(c.transition)), ("completed", .bool(c.completed)), ("forced", .bool(c.forced)),
            ])
            if c.skipped {
                o["skipped"] = true
                if let reason = c.reason { o["reason"] = .string(reason) }
            }
            return o
        case .failedOver(let transition, let animator, let reason):
            return JSONObject([
                ("transition", .string(transition)), ("animator", .string(animator)), ("reason", .string(reason)),
            ])
        case .watchdog(let transition, let animator):
            return JSONObject([("transition", .string(transition)), ("animator", .string(animator))])
        case .pluginLoaded(let name, let file), .pluginUnloaded(let name, let file):
            return JSONObject([("name", .string(name)), ("file", .string(file))])
        case .pluginFailed(let name, let file, let error):
            return JSONObject([("name", .string(name)), ("file", .string(file)), ("error", .string(error))])
        case .pluginWarning(let name, let file, let message, let line, let code):
            var o = JSONObject([("name", .string(name))])
            if let code { o["code"] = .string(code.rawValue) }
            if let file { o["file"] = .string(file) }
            if let line { o["line"] = .number(Double(line)) }
            o["message"] = .string(message)
            return o
        case .log(let level, let plugin, let message):
            var o = JSONObject([("level", .string(level))])
            if let plugin { o["plugin"] = .string(plugin) }
            o["message"] = .string(message)
            return o
        case .frame(let views):
            return JSONObject([("views", .array(views.map { .object($0.json) }))])
        case .eventsDropped(let count, let types):
            return JSONObject([("count", .number(Double(count))), ("types", .array(types.map { .string($0) }))])
        }
    }
}

extension FrameView {
    /// A frame event's view entry: `id`, then what changed (the frame, then each property in change-flag order).
    var json: JSONObject {
        var entry = JSONObject([("id", .string(id))])
        if sendsFrame { entry["frame"] = ValueJSON.rect(frame) }
        FrameViews.forEachSent(changes) { entry[$0.name] = ValueJSON.value($0, value(of: $0)) }
        return entry
    }
}
