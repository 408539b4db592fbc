import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON

#if canImport(Glibc)
import Glibc
#endif

/// What `preview` and `filmstrip` share: which transition to run, in what scene.
struct SpecOptions: ParsableArguments {
    @Option(help: """
        The kind of transition: select (a custom container), push or pop (a navigation container), present or \
        dismiss (full screen unless --style or --presentation says otherwise).
        """)
    var kind: String = "select"

    @Option(help: "The private scene's size, WxH.")
    var size: String = "320x480"

    @Option(help: "present and dismiss: the presentation style, fullScreen, overFullScreen, custom, pageSheet or formSheet.")
    var style: String?

    @Flag(help: "present and dismiss with --style pageSheet or formSheet: the sheet shows its grabber.")
    var grabber = false

    @Option(help: "present and dismiss: a presentation plugin (style custom), e.g. side-panel.",
            completion: Completions.plugins)
    var presentation: String?

    static let kinds = ["select", "push", "pop", "present", "dismiss"]
    static let styles = ["fullScreen", "overFullScreen", "custom", "pageSheet", "formSheet"]

    func validate() throws {
        guard SpecOptions.kinds.contains(kind) else {
            throw ValidationError("--kind must be select, push, pop, present or dismiss")
        }
        if CheckSize.parse(size) == nil { throw ValidationError("--size must be WxH with positive numbers, e.g. 320x480") }
        if let style, !SpecOptions.styles.contains(style) {
            throw ValidationError("--style must be fullScreen, overFullScreen, custom, pageSheet or formSheet")
        }
        if grabber, style != "pageSheet", style != "formSheet" {
            throw ValidationError("--grabber goes with --style pageSheet or formSheet")
        }
        if let style, presentation != nil, style != "custom" {
            throw ValidationError("--presentation goes with --style custom (or no --style)")
        }
    }

    /// Whether `--style` or `--presentation` was given (they apply to present and dismiss only).
    var isModal: Bool { style != nil || presentation != nil }

    /// The spec for `animator` run as `kind` (default: `--kind`); the style and presentation go with present and
    /// dismiss only.
    func spec(_ animator: String, kind: String? = nil) -> JSONValue {
        let kind = kind ?? self.kind
        var spec = JSONObject([("animator", .string(animator)), ("kind", .string(kind))])
        if let parsed = CheckSize.parse(size) { spec["size"] = parsed }
        if kind == "present" || kind == "dismiss" {
            if let style { spec["style"] = .string(style) }
            if let presentation { spec["presentation"] = .string(presentation) }
            if grabber { spec["grabber"] = true }
        }
        return .object(spec)
    }
}

/// Writes text to a file, or to stdout for `-`; exit status 2 when the file cannot be written.
func writeOutput(_ text: String, to path: String) throws {
    if path == "-" {
        print(text, terminator: "")
        return
    }
    guard let file = fopen(path, "w") else {
        printError("seguectl: cannot write \(path): \(String(cString: strerror(errno)))")
        throw ExitCode(2)
    }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
        printError("seguectl: cannot write \(path)")
        throw ExitCode(2)
    }
}

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write one self-contained HTML page that plays an animator's transition and shows its pictures.",
        discussion: """
            The daemon runs the transition in a private manual scene (render.* with a spec: two view controllers, \
            "from" in red and "to" in blue) and draws it; the page plays it frame by frame with a scrubber, \
            play/pause, speed and loop, and shows the filmstrip, the property curves (render.timeline) and the \
            events. It needs no network: open it in any browser, or send it to someone.

            Examples:
              seguectl preview flip --kind push                  # writes flip-push.html
              seguectl preview dt-slide --out /tmp/dt-slide.html
              seguectl preview overlay-present --kind present --style overFullScreen
              seguectl preview my-animator --spawn               # no daemon running: start one just for this
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var specOptions: SpecOptions
    @OptionGroup var spawnOptions: SpawnOptions

    @Argument(help: "The animator: a plugin's name, or default-slide (the built-in default).",
              completion: Completions.plugins)
    var animator: String

    @Option(help: "The HTML file to write (default: ANIMATOR-KIND.html in the current folder; - for stdout).")
    var out: String?

    @Option(help: "How many frames the filmstrip shows (the player always has every frame).")
    var frames: Int = 8

    func validate() throws {
        if !(1...600).contains(frames) { throw ValidationError("--frames must be 1…600") }
        if specOptions.isModal, specOptions.kind != "present", specOptions.kind != "dismiss" {
            throw ValidationError("--style and --presentation go with --kind present or dismiss")
        }
    }

    /// `ANIMATOR-KIND.html` in the current folder, with anything but letters, digits, `.`, `-` and `_` in the
    /// animator's name made `_` (a name is never a path).
    static func defaultFile(animator: String, kind: String) -> String {
        let safe = String(animator.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        return "\(safe.hasPrefix(".") ? "_" + safe : safe)-\(kind).html"
    }

    func run() throws {
        let daemon = try spawnOptions.launch()
        defer { daemon?.stop() }
        let client = try spawnOptions.client(of: daemon, else: connection)
        let spec = specOptions.spec(animator)
        let strip = try client.callOrExit("render.filmstrip", JSONObject([("spec", spec), ("frames", .number(Double(frames)))]))
        let t = strip["transition"]
        let span = (t?["ended_at"]?.doubleValue ?? 0) - (t?["started_at"]?.doubleValue ?? 0)
        let player = try client.callOrExit("render.filmstrip", JSONObject([
            ("spec", spec), ("frames", .number(Double(PreviewPage.playerFrames(span: span)))),
        ]))
        let timeline = try client.callOrExit("render.timeline", JSONObject([("spec", spec)]))
        let html = PreviewPage.html(PreviewPage.Input(
            animator: animator, kind: specOptions.kind, filmstrip: strip, player: player, timeline: timeline))
        let path = out ?? Preview.defaultFile(animator: animator, kind: specOptions.kind)
        try writeOutput(html, to: path)
        if path != "-" { printLine("wrote \(path)") }
    }
}

struct FilmstripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filmstrip",
        abstract: "Write animators' filmstrips as one SVG (render.filmstrip with a spec), one row per animator.",
        discussion: """
            Examples:
              seguectl filmstrip flip --kind push --out flip.svg
              seguectl filmstrip default-slide dt-slide flip:push --frames 6 --spawn --out docs/filmstrips.svg
              seguectl filmstrip side-panel-slide:present side-panel-slide:dismiss --presentation side-panel
              rsvg-convert flip.svg -o flip.png                   # a PNG, with librsvg2-bin
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var specOptions: SpecOptions
    @OptionGroup var spawnOptions: SpawnOptions

    @Argument(help: "Animators: plugin names, or default-slide; NAME:KIND gives one its own kind (flip:push).",
              completion: Completions.animators)
    var animators: [String]

    /// `flip:push` → ("flip", "push"); nil for a bare name.
    static func split(_ name: String) -> (String, String)? {
        guard let colon = name.lastIndex(of: ":") else { return nil }
        let kind = String(name[name.index(after: colon)...])
        guard ["select", "push", "pop", "present", "dismiss"].contains(kind) else { return nil }
        return (String(name[..<colon]), kind)
    }

    @Option(help: "Frames per filmstrip.")
    var frames: Int = 8

    @Option(help: "The SVG file to write (- for stdout, the default).")
    var out: String = "-"

    func validate() throws {
        if animators.isEmpty { throw ValidationError("name at least one animator") }
        for name in animators where name.contains(":") && FilmstripCommand.split(name) == nil {
            throw ValidationError("'\(name)': after ':' comes a kind (select, push, pop, present, dismiss)")
        }
        if !(1...600).contains(frames) { throw ValidationError("--frames must be 1…600") }
        let kinds = animators.map { FilmstripCommand.split($0)?.1 ?? specOptions.kind }
        if specOptions.isModal, !kinds.contains("present"), !kinds.contains("dismiss") {
            throw ValidationError("--style and --presentation go with present or dismiss (--kind, or NAME:present)")
        }
    }

    func run() throws {
        let daemon = try spawnOptions.launch()
        defer { daemon?.stop() }
        let client = try spawnOptions.client(of: daemon, else: connection)
        var results: [JSONValue] = []
        for name in animators {
            let (animator, kind) = FilmstripCommand.split(name) ?? (name, specOptions.kind)
            let spec = specOptions.spec(animator, kind: kind)
            results.append(try client.callOrExit("render.filmstrip", JSONObject([
                ("spec", spec), ("frames", .number(Double(frames))),
            ])))
        }
        let svg = results.count == 1 ? (results[0]["svg"]?.stringValue ?? "") : FilmstripSheet.stack(results)
        try writeOutput(svg, to: out)
        if out != "-" { printLine("wrote \(out)") }
    }
}
