import SegueKit

/// The parameters several methods share and the shapes the OpenRPC document defines once (`components.schemas`).
extension Shape.Field {
    static let scene = optional("scene", .id, "default: the connection's current scene")

    /// What every transition-starting method takes besides its own parameters.
    static let startOptions: [Shape.Field] = [
        optional("animated", .boolean, "default true; false completes at once, with the same events"),
        optional("interactive", .ref("interactive"), "default false"),
        optional("animator", .string, "an animator's name: overrides every other choice"),
        optional("when_busy", .oneOf(["reject", "queue", "interrupt"]), "default: the container's (reject)"),
    ]

    static let checkParams: [Shape.Field] = [
        required("name", .id, "an animator plugin"),
        optional("size", .ref("size"), "default {w: 320, h: 480}"),
        optional("presentation", .id, "a presentation plugin for the present and dismiss cases"),
        optional("delegate", .id, "a delegate plugin for the container cases"),
        optional("strict", .boolean, "warnings (unknown names, curves, options) fail the check; default false"),
        optional("animator", .id, "for an interaction plugin: the animator its gestures drive; default default-slide"),
    ]

    static let containerParams: [Shape.Field] = [
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

    static let renderParams: [Shape.Field] = [
        .scene, optional("transition", .id, "a transition of the scene; or give spec"),
        optional("spec", .ref("render_spec"), "runs an animator in a private scene"),
        optional("format", .oneOf(["svg"])),
    ]

    /// A render result's `events`: only the `spec` form has them (a scene's own transition has its subscribers).
    static let renderEvents = optional("events", .array(.object([])),
                                       "with spec: the private scene's events, frames aside")

    static let endParams: [Shape.Field] = [
        .scene, required("transition", .id),
        optional("speed", .number, "0 < speed ≤ 100; default the interaction's completion speed, else 1"),
        optional("curve", .ref("curve"), "default ease_in_out"),
    ]
}

extension Shape {
    /// Shapes defined once and referred to by name.
    static let components: [(String, Shape)] = [
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
            .optional("style", .oneOf(["fullScreen", "custom", "overFullScreen"])), .optional("presentation", .string),
        ])),
        ("transition_start", .object([
            .optional("transition", .id, "absent when nothing needed to move"),
            .required("animator", .either([.string, .null])),
            .required("duration", .number), .optional("state", .string),
        ])),
        ("interactive_state", .object([.required("transition", .id), .required("state", .string),
                                       .required("percent", .number)])),
        ("transition", .object([
            .required("transition", .id), .required("scene", .id), .required("kind", .string), .required("from", .id),
            .required("to", .id), .optional("from_index", .integer), .optional("to_index", .integer),
            .optional("direction", .oneOf(["forward", "backward"])), .optional("container", .id),
            .required("interactive", .boolean), .required("animator", .string), .optional("interaction", .string),
            .required("state", .string),
            .required("percent", .number), .required("duration", .number), .required("started_at", .number),
            .optional("ended_at", .number), .required("forced", .boolean), .required("failed_over", .boolean),
            .required("problems", .array(.object([.required("code", .string), .required("message", .string)]))),
        ])),
        ("view_node", .object(
            [.required("id", .id), .required("frame", .ref("rect"))]
                + ViewProperty.listed.map { Shape.Field.required($0.name, Shapes.shape($0.info.kind)) }
                + [.optional("presentation", .object([])), .required("subviews", .array(.ref("view_node")))])),
        ("vc_node", .object([
            .required("id", .id), .required("kind", .string), .required("view", .id), .required("appearance", .string),
            .required("children", .array(.ref("vc_node"))), .optional("presented", .ref("vc_node")),
        ])),
        ("vc", .object([
            .required("vc", .id), .required("kind", .string), .optional("title", .string), .optional("parent", .id),
            .required("children", .array(.id)), .required("view", .id),
            .required("appearance", .oneOf(["disappeared", "appearing", "appeared", "disappearing"])),
            .optional("presented", .id), .optional("presenting", .id),
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
}
