extension EngineEvent.Payload {
    /// The view controller a lifecycle event is about.
    public var vc: String? {
        switch self {
        case .willMoveToParent(let vc, _), .didMoveToParent(let vc, _), .viewWillAppear(let vc, _),
            .viewDidAppear(let vc, _), .viewWillDisappear(let vc, _), .viewDidDisappear(let vc, _),
            .viewWillTransitionToSize(let vc, _, _):
            vc
        case .traitsChanged, .sheetDetentChanged, .sheetDismissAttempted, .transitionBegan, .transitionUpdated, .interactionEnded, .transitionCompleted, .failedOver,
            .watchdog, .pluginLoaded, .pluginUnloaded, .pluginFailed, .pluginWarning, .log, .frame, .eventsDropped:
            nil
        }
    }

    /// The transition a transition event is about.
    public var transition: String? {
        switch self {
        case .transitionBegan(let b): b.transition
        case .transitionCompleted(let c): c.transition
        case .transitionUpdated(let t, _), .interactionEnded(let t, _, _), .failedOver(let t, _, _),
            .watchdog(let t, _):
            t
        case .willMoveToParent, .didMoveToParent, .viewWillAppear, .viewDidAppear, .viewWillDisappear,
            .viewDidDisappear, .traitsChanged, .viewWillTransitionToSize, .sheetDetentChanged, .sheetDismissAttempted, .pluginLoaded, .pluginUnloaded, .pluginFailed, .pluginWarning, .log,
            .frame, .eventsDropped:
            nil
        }
    }

    /// The plugin a plugin event names.
    public var pluginName: String? {
        switch self {
        case .pluginLoaded(let name, _), .pluginUnloaded(let name, _), .pluginFailed(let name, _, _),
            .pluginWarning(let name, _, _, _, _):
            name
        case .log(_, let plugin, _): plugin
        case .willMoveToParent, .didMoveToParent, .viewWillAppear, .viewDidAppear, .viewWillDisappear,
            .viewDidDisappear, .traitsChanged, .viewWillTransitionToSize, .sheetDetentChanged, .sheetDismissAttempted, .transitionBegan, .transitionUpdated, .interactionEnded,
            .transitionCompleted, .failedOver, .watchdog, .frame, .eventsDropped:
            nil
        }
    }

    /// The text of a warning, a failure or a log line.
    public var message: String? {
        switch self {
        case .pluginWarning(_, _, let message, _, _), .pluginFailed(_, _, let message), .log(_, _, let message): message
        case .willMoveToParent, .didMoveToParent, .viewWillAppear, .viewDidAppear, .viewWillDisappear,
            .viewDidDisappear, .traitsChanged, .viewWillTransitionToSize, .sheetDetentChanged, .sheetDismissAttempted, .transitionBegan, .transitionUpdated, .interactionEnded,
            .transitionCompleted, .failedOver, .watchdog, .pluginLoaded, .pluginUnloaded, .frame, .eventsDropped:
            nil
        }
    }
}

extension EngineEvent.Payload {
    /// A `transition.completed` event's fields.
    public var completion: EngineEvent.TransitionCompletion? {
        if case .transitionCompleted(let c) = self { c } else { nil }
    }
}
