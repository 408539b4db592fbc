extension EngineEvent {
    /// What happened, one case per event type, with the fields docs/PROTOCOL.md lists for it (ids as strings,
    /// numbers as Double or Int, frames' values as the engine's geometry types).
    public enum Payload: Sendable {
        /// `vc.will_move_to_parent`: `parent` nil when the view controller is being removed.
        case willMoveToParent(vc: String, parent: String?)
        case didMoveToParent(vc: String, parent: String?)
        case viewWillAppear(vc: String, animated: Bool)
        case viewDidAppear(vc: String, animated: Bool)
        case viewWillDisappear(vc: String, animated: Bool)
        case viewDidDisappear(vc: String, animated: Bool)
        /// A resize changed the scene's size classes.
        case traitsChanged(Traits, previous: Traits)
        /// viewWillTransition(to:with:): a scene.resize's size transition, parents first.
        case viewWillTransitionToSize(vc: String, size: Size, duration: Double)
        /// A sheet came to rest at another detent (set_detent or a drag).
        case sheetDetentChanged(presented: String, detent: String)
        /// A drag would have dismissed a sheet whose view controller is modal in presentation.
        case sheetDismissAttempted(presented: String)
        case transitionBegan(TransitionBegan)
        /// An interactive update: `percent` clamped to 0…1.
        case transitionUpdated(transition: String, percent: Double)
        case interactionEnded(transition: String, cancelled: Bool, completionVelocity: Double)
        case transitionCompleted(TransitionCompletion)
        /// The animator raised; the default animator finishes the transition.
        case failedOver(transition: String, animator: String, reason: String)
        /// `complete` was never called; the watchdog completed the transition.
        case watchdog(transition: String, animator: String)
        case pluginLoaded(name: String, file: String)
        case pluginUnloaded(name: String, file: String)
        case pluginFailed(name: String, file: String, error: String)
        /// A plugin's mistake that did not stop it: `code` (`PluginWarning.Code`), and where in the plugin's file it
        /// was made when known (`file` alone for a load-time warning about the description).
        case pluginWarning(name: String, file: String?, message: String, line: Int? = nil, code: PluginWarning.Code? = nil)
        /// `segue.log` from a plugin (`plugin` set) or a message of the daemon's.
        case log(level: String, plugin: String?, message: String)
        /// The presentation values that changed in a tick, per view in creation order.
        case frame(FrameViews)
        /// Sent to a reader that caught up: how many events of which types it missed.
        case eventsDropped(count: Int, types: [String])

        public var kind: Kind {
            switch self {
            case .willMoveToParent: .vcWillMoveToParent
            case .didMoveToParent: .vcDidMoveToParent
            case .viewWillAppear: .vcViewWillAppear
            case .viewDidAppear: .vcViewDidAppear
            case .viewWillDisappear: .vcViewWillDisappear
            case .viewDidDisappear: .vcViewDidDisappear
            case .traitsChanged: .sceneTraitsChanged
            case .viewWillTransitionToSize: .vcViewWillTransitionToSize
            case .sheetDetentChanged: .sheetDetentChanged
            case .sheetDismissAttempted: .sheetDismissAttempted
            case .transitionBegan: .transitionBegan
            case .transitionUpdated: .transitionUpdated
            case .interactionEnded: .transitionInteractionEnded
            case .transitionCompleted: .transitionCompleted
            case .failedOver: .transitionFailedOver
            case .watchdog: .transitionWatchdog
            case .pluginLoaded: .pluginLoaded
            case .pluginUnloaded: .pluginUnloaded
            case .pluginFailed: .pluginFailed
            case .pluginWarning: .pluginWarning
            case .log: .log
            case .frame: .frame
            case .eventsDropped: .eventsDropped
            }
        }
    }

    /// `transition.began`'s fields.
    public struct TransitionBegan: Sendable, Equatable {
        public let transition: String
        public let kind: TransitionKind
        public let from: String
        public let to: String
        public let animator: String
        public let interactive: Bool
        public let duration: Double

        public init(transition: String, kind: TransitionKind, from: String, to: String, animator: String,
                    interactive: Bool, duration: Double) {
            self.transition = transition
            self.kind = kind
            self.from = from
            self.to = to
            self.animator = animator
            self.interactive = interactive
            self.duration = duration
        }
    }

    /// `transition.completed`'s fields. A queued request that left its queue without a transition is `skipped`
    /// (with the `reason` when it was no longer valid).
    public struct TransitionCompletion: Sendable, Equatable {
        public let transition: String
        /// False when the transition was cancelled.
        public let completed: Bool
        public let forced: Bool
        public let skipped: Bool
        public let reason: String?

        public init(transition: String, completed: Bool, forced: Bool, skipped: Bool = false, reason: String? = nil) {
            self.transition = transition
            self.completed = completed
            self.forced = forced
            self.skipped = skipped
            self.reason = reason
        }
    }
}
