extension EngineEvent {
    /// An event type: its protocol name and its category come from the case, so nothing matches names by prefix.
    public enum Kind: Int, Sendable, CaseIterable {
        case vcWillMoveToParent, vcDidMoveToParent
        case vcViewWillAppear, vcViewDidAppear, vcViewWillDisappear, vcViewDidDisappear
        case transitionBegan, transitionUpdated, transitionInteractionEnded, transitionCompleted
        case transitionFailedOver, transitionWatchdog
        case pluginLoaded, pluginUnloaded, pluginFailed, pluginWarning
        case log, frame, eventsDropped
        case sceneTraitsChanged
        case vcViewWillTransitionToSize, sheetDetentChanged, sheetDismissAttempted

        /// The protocol's type name.
        public var name: String {
            switch self {
            case .vcWillMoveToParent: "vc.will_move_to_parent"
            case .vcDidMoveToParent: "vc.did_move_to_parent"
            case .vcViewWillAppear: "vc.view_will_appear"
            case .vcViewDidAppear: "vc.view_did_appear"
            case .vcViewWillDisappear: "vc.view_will_disappear"
            case .vcViewDidDisappear: "vc.view_did_disappear"
            case .transitionBegan: "transition.began"
            case .transitionUpdated: "transition.updated"
            case .transitionInteractionEnded: "transition.interaction_ended"
            case .transitionCompleted: "transition.completed"
            case .transitionFailedOver: "transition.failed_over"
            case .transitionWatchdog: "transition.watchdog"
            case .pluginLoaded: "plugin.loaded"
            case .pluginUnloaded: "plugin.unloaded"
            case .pluginFailed: "plugin.failed"
            case .pluginWarning: "plugin.warning"
            case .log: "log"
            case .frame: "frame"
            case .eventsDropped: "events.dropped"
            case .sceneTraitsChanged: "scene.traits_changed"
            case .vcViewWillTransitionToSize: "vc.view_will_transition_to_size"
            case .sheetDetentChanged: "sheet.detent_changed"
            case .sheetDismissAttempted: "sheet.dismiss_attempted"
            }
        }

        public var category: EventCategory {
            switch self {
            case .vcWillMoveToParent, .vcDidMoveToParent, .vcViewWillAppear, .vcViewDidAppear, .vcViewWillDisappear,
                .vcViewDidDisappear:
                .lifecycle
            case .transitionBegan, .transitionUpdated, .transitionInteractionEnded, .transitionCompleted,
                .transitionFailedOver, .transitionWatchdog:
                .transition
            case .pluginLoaded, .pluginUnloaded, .pluginFailed, .pluginWarning: .plugin
            case .log: .log
            case .frame: .frame
            case .eventsDropped: .other
            case .sceneTraitsChanged: .scene
            case .vcViewWillTransitionToSize: .lifecycle
            case .sheetDetentChanged, .sheetDismissAttempted: .presentation
            }
        }

        /// The kind a protocol type name names, if any.
        public init?(name: String) {
            guard let kind = Kind.byName[name] else { return nil }
            self = kind
        }

        private static let byName: [String: Kind] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
    }
}
