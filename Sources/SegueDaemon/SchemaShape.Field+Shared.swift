import SegueKit

/// The parameters several methods share (listed once, used by their descriptors in Daemon+Methods).
extension SchemaShape.Field {
    static let scene = optional("scene", .id, "default: the connection's current scene")

    /// vc.create's and vc.set's presentation keys.
    static let vcPresentationKeys: [SchemaShape.Field] = [
        optional("defines_presentation_context", .boolean, "currentContext presentations below cover this one"),
        optional("provides_presentation_context_transition_style", .boolean),
        optional("transition_style", .oneOf(ModalTransitionStyle.allCases.map(\.rawValue)),
                 "modalTransitionStyle: presented without transition_style, or as a context that provides it"),
        optional("modal_in_presentation", .boolean, "a sheet drag cannot dismiss it"),
        optional("preferred_content_size", .ref("size"), "a form sheet's and a popover's size"),
        preferredTransition,
    ]

    /// modal.present / nav.push / vc.set / vc.create: UIViewController.preferredTransition's zoom.
    static let preferredTransition = optional(
        "preferred_transition", .ref("preferred_transition"),
        "{zoom: {source_view, source_rect?}}: grow from the source view, shrink back at dismiss/pop; null clears it (vc.set)")

    /// What every transition-starting method takes besides its own parameters.
    static let startOptions: [SchemaShape.Field] = [
        optional("animated", .boolean, "default true; false completes at once, with the same events"),
        optional("interactive", .ref("interactive"), "default false"),
        optional("animator", .string, "an animator's name: overrides every other choice"),
        optional("when_busy", .oneOf(["reject", "queue", "interrupt"]), "default: the container's (reject)"),
        optional("info", .object([]), "caller data plugins read as ctx.info; a JSON object of at most 16 KiB encoded"),
    ]

    /// What gesture.pan, gesture.pinch and gesture.rotate share besides their own sample.
    static let gestureParams: [SchemaShape.Field] = [
        .scene,
        optional("transition", .id, "the transition the gesture drives (not with start or interaction)"),
        required("phase", .oneOf(PanGesture.Phase.allCases.map(\.rawValue)), "began, then changed, then ended or cancelled"),
        optional("location", .ref("point"), "in the window; default the window's centre"),
        optional("start", .object([required("method", .string), optional("params", .object([]))]),
                 "with began: a transition-starting request to start first"),
        optional("interaction", .id, "with began: the interaction plugin whose gesture_began chooses what to start"),
        optional("info", .object([]), "with interaction: the started transition's info"),
    ]

    static let checkParams: [SchemaShape.Field] = [
        required("name", .id, "an animator plugin"),
        optional("size", .ref("size"), "default {w: 320, h: 480}"),
        optional("presentation", .id, "a presentation plugin for the present and dismiss cases"),
        optional("delegate", .id, "a delegate plugin for the container cases"),
        optional("strict", .boolean, "warnings (unknown names, curves, options) fail the check; default false"),
        optional("animator", .id, "for an interaction plugin: the animator its gestures drive; default default-slide"),
    ]

    static let containerParams: [SchemaShape.Field] = [
        .scene, optional("id", .id), required("kind", .oneOf(ContainerKind.allCases.map(\.rawValue))),
        optional("children", .array(.id),
                 "custom/tab children; a navigation stack, root first; split: [primary, supplementary?, secondary]"),
        optional("style", .oneOf(SplitStyle.allCases.map(\.rawValue)), "split: default by the number of children"),
        optional("display_mode", .oneOf(SplitDisplayMode.allCases.map(\.rawValue)), "split: default automatic"),
        optional("root", .id, "navigation: the root"), optional("title", .string),
        optional("count", .integer, "paging: the number of pages (required)"),
        optional("reuse", .integer, "paging: view controllers alive at most, 2…1000; default 3"),
        optional("template", .object([optional("title_prefix", .string), optional("colors", .array(.ref("color")))]),
                 "paging: how pages are made"),
        optional("delegate", .string, "a delegate plugin"), optional("rules", .array(.ref("rule"))),
        optional("when_busy", .oneOf(["reject", "queue", "interrupt"]), "default reject"),
    ]

    static let renderParams: [SchemaShape.Field] = [
        .scene, optional("transition", .id, "a transition of the scene; or give spec"),
        optional("spec", .ref("render_spec"), "runs an animator in a private scene"),
        optional("format", .oneOf(["svg"])),
    ]

    /// A render result's `events`: only the `spec` form has them (a scene's own transition has its subscribers).
    static let renderEvents = optional("events", .array(.object([])),
                                       "with spec: the private scene's events, frames aside")

    static let endParams: [SchemaShape.Field] = [
        .scene, required("transition", .id),
        optional("speed", .number, "0 < speed ≤ 100; default the interaction's completion speed, else 1"),
        optional("curve", .ref("curve"), "default ease_in_out"),
    ]
}
