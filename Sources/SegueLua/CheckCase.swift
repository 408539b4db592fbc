import SegueKit

/// One case of `plugins.check`'s battery (docs/DESIGN.md §3 "Animator check"): the transition it runs, the
/// presentation style for present and dismiss, and the interaction for an interactive case (driven to a percent, then finished
/// or cancelled). `CheckCase.battery` is the one list of cases; everything else (the daemon's steps, the guide's
/// description, seguectl's summary) follows from it.
public struct CheckCase: Sendable, Equatable {
    public enum Operation: String, Sendable {
        case selectForward, selectBackward, push, pop, present, dismiss
    }

    /// How an interactive case ends: finished at 0.7 or cancelled at 0.3.
    public enum Ending: Sendable, Equatable {
        case finish, cancel

        public var percent: Double { self == .finish ? 0.7 : 0.3 }
    }

    public let operation: Operation
    /// `custom` or `fullScreen` for present and dismiss; nil for the others.
    public let style: PresentationStyle?
    /// Nil for a case run straight through.
    public let interactive: Ending?
    /// For an interaction plugin's check: the synthetic gesture the case feeds it (`GestureScript.published`).
    public var gesture: GestureScript? = nil

    /// The transition kind the case runs (what an animator's `kinds` is matched against).
    public var kind: String {
        switch operation {
        case .selectForward, .selectBackward: "select"
        case .push: "push"
        case .pop: "pop"
        case .present: "present"
        case .dismiss: "dismiss"
        }
    }

    /// The case's name in the report: "select forward", "dismiss (custom)", "push interactive cancel at 0.3".
    public var name: String {
        var base: String
        switch operation {
        case .selectForward: base = interactive == nil ? "select forward" : "select"
        case .selectBackward: base = "select backward"
        case .push, .pop, .present, .dismiss: base = kind
        }
        if let style { base += " (\(style.rawValue))" }
        if let gesture { return (operation == .selectForward ? "select" : base) + ": " + gesture.name }
        guard let interactive else { return base }
        return base + (interactive == .finish ? " interactive finish at 0.7" : " interactive cancel at 0.3")
    }

    /// Whether the transition is cancelled (so the from-view should be back in place at the end).
    var isCancel: Bool { interactive == .cancel }

    /// Every case, in the order they run: the straight-through ones, then an interactive finish and cancel for
    /// each kind (select, push, pop, present, dismiss — the modal ones in the custom style).
    public static let battery: [CheckCase] = {
        var cases: [CheckCase] = [
            CheckCase(operation: .selectForward, style: nil, interactive: nil),
            CheckCase(operation: .selectBackward, style: nil, interactive: nil),
            CheckCase(operation: .push, style: nil, interactive: nil),
            CheckCase(operation: .pop, style: nil, interactive: nil),
            CheckCase(operation: .present, style: .custom, interactive: nil),
            CheckCase(operation: .dismiss, style: .custom, interactive: nil),
            CheckCase(operation: .present, style: .fullScreen, interactive: nil),
            CheckCase(operation: .dismiss, style: .fullScreen, interactive: nil),
        ]
        let interactive: [(Operation, PresentationStyle?)] = [
            (.selectForward, nil), (.push, nil), (.pop, nil), (.present, .custom), (.dismiss, .custom),
        ]
        for (operation, style) in interactive {
            for ending in [Ending.finish, .cancel] {
                cases.append(CheckCase(operation: operation, style: style, interactive: ending))
            }
        }
        return cases
    }()
}
