import SegueKit

extension SchemaShape {
    /// Shapes defined once and referred to by name.
    static let components: [(String, SchemaShape)] = [
        ("size", .object([.required("w", .number), .required("h", .number)])),
        ("traits", .object([.optional("horizontal", .oneOf(SizeClass.allCases.map(\.rawValue))),
                            .optional("vertical", .oneOf(SizeClass.allCases.map(\.rawValue)))])),
        ("point", .object([.required("x", .number), .required("y", .number)])),
        ("rect", .object([.required("x", .number), .required("y", .number), .required("w", .number),
                          .required("h", .number)])),
        ("color", .string),
        ("transform", .either([
            .literal("identity"),
            .object([.required("a", .number), .required("b", .number), .required("c", .number),
                     .required("d", .number), .required("tx", .number), .required("ty", .number)]),
            .object([.required("m", .array(.number), "16 numbers, row-major m11…m44")]),
        ])),
        ("curve", .either([.oneOf(["linear", "ease_in", "ease_out", "ease_in_out", "default"]), .array(.number)])),
        ("interactive", .either([.boolean, .string])),
        ("sheet", .object([
            .optional("detents", .array(.either([.oneOf(["medium", "large"]),
                                                 .object([.required("id", .id), .required("height", .number, "pt, > 0")])])),
                      "default [\"large\"]"),
            .optional("selected", .string, "a detent id; default the smallest"), .optional("grabber", .boolean),
            .optional("largest_undimmed", .string, "a detent id; default none (every detent dimmed)"),
            .optional("prefers_edge_attached", .boolean, "attach to the bottom edge in compact height"),
        ], open: false)),
        ("popover", .object([
            .required("source_view", .id), .optional("source_rect", .ref("rect"), "in the source view; default its bounds"),
            .optional("permitted_arrow_directions", .array(.oneOf(PopoverArrowDirection.allCases.map(\.rawValue))),
                      "default [\"any\"]"),
            .optional("preferred_size", .ref("size"), "default the presented vc's preferred_content_size, else 320×480"),
        ], open: false)),
        ("preferred_transition", .object([
            .required("zoom", .object([
                .required("source_view", .id, "looked up again at dismissal/pop"),
                .optional("source_rect", .ref("rect"), "in the source view; default its bounds"),
            ], open: false)),
        ], open: false)),
        ("vc_animators", .object([.optional("select", .string), .optional("push", .string), .optional("pop", .string),
                                  .optional("present", .string), .optional("dismiss", .string)], open: false)),
        ("rule", .object([
            .optional("when", .object([.optional("kind", .string), .optional("from", .id), .optional("to", .id),
                                       .optional("direction", .oneOf(["forward", "backward"]))], open: false)),
            .required("animator", .string), .optional("interaction", .string),
        ], open: false)),
        ("render_spec", .object([
            .required("animator", .string), .optional("kind", .oneOf(["select", "push", "pop", "present", "dismiss"])),
            .optional("size", .ref("size")), .optional("duration", .number), .optional("colors", .array(.ref("color"))),
            .optional("direction", .oneOf(["forward", "backward"])),
            .optional("style", .oneOf(PresentationStyle.allCases.map(\.rawValue))), .optional("presentation", .string),
            .optional("grabber", .boolean, "a sheet style's grabber (prefersGrabberVisible)"),
        ])),
        ("transition_start", .object([
            .optional("transition", .id, "absent when nothing needed to move"),
            .required("animator", .either([.string, .null])),
            .required("duration", .number), .optional("state", .string),
        ])),
        ("interactive_state", .object([.required("transition", .id), .required("state", .string),
                                       .required("percent", .number)])),
        ("gesture_result", .either([
            .ref("interactive_state"),
            .object([.required("transition", .null), .required("refused", .boolean)]),
        ])),
        ("transition", .object([
            .required("transition", .id), .required("scene", .id), .required("kind", .string), .required("from", .id),
            .required("to", .id), .optional("from_index", .integer), .optional("to_index", .integer),
            .optional("direction", .oneOf(["forward", "backward"])), .optional("container", .id),
            .required("interactive", .boolean), .required("animator", .string), .optional("interaction", .string),
            .required("state", .string),
            .required("percent", .number), .required("duration", .number), .required("started_at", .number),
            .optional("ended_at", .number), .required("forced", .boolean), .required("failed_over", .boolean),
            .required("problems", .array(.object([.required("code", .string), .required("message", .string)]))),
            .optional("info", .object([]), "the request's info, when it gave one"),
        ])),
        ("view_node", .object(
            [.required("id", .id), .required("frame", .ref("rect"))]
                + ViewProperty.listed.filter { $0 != .position }.map {
                    // A property with an initial value is left out while at it (docs/PROTOCOL.md, the view node);
                    // `position` is `center` and is not repeated.
                    // A gradient view's parts only on gradient views (`segue.gradient_view`).
                    $0.info.initial == nil && !$0.isGradient
                        ? SchemaShape.Field.required($0.name, SchemaShape.of($0.info.kind))
                        : SchemaShape.Field.optional($0.name, SchemaShape.of($0.info.kind))
                }
                + [.optional("mask", .id), .optional("presentation", .object([])),
                   .required("subviews", .array(.ref("view_node")))])),
        ("vc_node", .object([
            .required("id", .id), .required("kind", .string), .required("view", .id), .required("appearance", .string),
            .required("children", .array(.ref("vc_node"))), .optional("presented", .ref("vc_node")),
        ])),
        ("vc", .object([
            .required("vc", .id), .required("kind", .string), .optional("title", .string), .optional("parent", .id),
            .required("children", .array(.id)), .required("view", .id),
            .required("appearance", .oneOf(["disappeared", "appearing", "appeared", "disappearing"])),
            .optional("presented", .id), .optional("presenting", .id),
            .optional("presentation_style", .string), .optional("adaptive_style", .string),
            .optional("sheet", .object([.required("detents", .array(.string)), .optional("selected", .string),
                                        .required("grabber", .boolean)])),
            .optional("popover", .object([.optional("arrow_direction", .string), .required("frame", .ref("rect"))])),
            .optional("defines_presentation_context", .boolean, "present when true"),
            .optional("provides_presentation_context_transition_style", .boolean, "present when true"),
            .optional("transition_style", .string, "present when set"),
            .optional("modal_in_presentation", .boolean, "present when true"), .optional("preferred_content_size", .ref("size")),
            .optional("preferred_transition", .ref("preferred_transition"), "present when set"),
        ])),
        ("container", .object([
            .required("container", .id), .required("kind", .string), .required("children", .array(.id)),
            .optional("selected", .integer), .optional("transition", .either([.id, .null])),
            .optional("when_busy", .string), .optional("items", .array(.id)), .optional("rules", .array(.ref("rule"))),
            .optional("delegate", .string), .optional("stack", .array(.id)), .optional("count", .integer),
            .optional("alive", .array(.id)), .optional("page_of", .object([])),
        ])),
        ("scene_summary", .object([
            .required("scene", .id), .required("size", .ref("size")), .required("clock", .string),
            .required("fps", .integer), .required("time", .number), .optional("root", .id),
        ])),
        ("plugin", .object([
            .required("name", .string), .required("kind", .string), .required("version", .any),
            .required("api", .integer), .required("file", .string),
            .required("status", .oneOf(["loaded", "failed", "unloaded"])), .optional("error", .string),
            .required("loaded_at", .number), .required("load_ms", .number), .required("memory_bytes", .integer),
            .required("calls", .integer), .required("failures", .integer),
            .required("generation", .integer, "the load generation: grows with each successful load of the file"),
            .optional("kinds", .array(.string), "the transition kinds an animator declares"),
        ])),
        ("reload_result", .object([
            .required("reloaded", .boolean), .required("file", .either([.string, .null])),
            .required("changed", .array(.string), "config keys applied"),
            .required("restart_required", .array(.string), "changed keys that need a restart"),
            .required("plugins", .object([.required("loaded", .integer), .required("failed", .integer)])),
        ])),
        ("plugin_summary", .object([
            .required("loaded", .array(.string)), .required("unloaded", .array(.string)),
            .required("failed", .array(.object([.required("name", .string), .required("file", .string),
                                                .required("error", .string)]))),
            .required("warnings", .array(.string)),
        ])),
        ("check_report", .object([
            .required("plugin", .string), .required("passed", .boolean), .optional("strict", .boolean),
            .optional("warnings", .integer),
            .optional("skipped", .array(.object([.required("case", .string), .required("reason", .string)]))),
            .optional("pending", .array(.any)),
            .required("cases", .array(.object([
                .required("case", .string), .required("passed", .boolean),
                .required("problems", .array(.object([
                    .required("code", .string), .required("message", .string), .optional("file", .string),
                    .optional("line", .integer), .optional("severity", .oneOf(["error", "warning"])),
                ]))),
            ]))),
        ])),
        ("daemon_info", .object([
            .required("version", .string), .required("api", .integer), .required("lua", .string),
            .required("pid", .integer), .required("uptime", .number), .required("socket", .string),
            .required("plugins_dir", .string), .required("plugins_dirs", .array(.string)),
            .required("clock_modes", .array(.string)), .required("scenes", .integer),
            .required("connections", .integer), .required("state", .string), .required("config", .object([])),
        ])),
        ("daemon_stats", .object([
            .required("requests", .integer), .required("errors", .object([])), .required("transitions", .object([])),
            .required("frames", .integer), .required("events_dropped", .integer), .required("latency", .object([])),
        ])),
        ("openrpc", .object([.required("openrpc", .string), .required("info", .object([])),
                             .required("methods", .array(.object([])))])),
    ]

    /// A kind's shape in the protocol's schema (OpenRPC, `rpc.discover`).
    static func of(_ kind: ViewValueKind) -> SchemaShape {
        switch kind {
        case .number: .number
        case .boolean: .boolean
        case .point: .ref("point")
        case .size: .ref("size")
        case .rect: .ref("rect")
        case .transform: .ref("transform")
        case .color: .ref("color")
        case .colorList: .array(.ref("color"))
        case .numberList: .either([.array(.number), .null])
        case .gradientType: .oneOf(GradientType.allCases.map(\.rawValue))
        }
    }
}
