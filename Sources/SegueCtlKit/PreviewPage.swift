import SegueJSON

/// `seguectl preview`'s page: one self-contained HTML file (no network: no scripts, styles, fonts or images from
/// anywhere else) that plays a transition with a scrubber and play/pause, and shows its filmstrip, its property
/// curves and its events.
///
/// The player is a filmstrip of every frame (one per 1/fps of the transition) drawn once; playing it moves the
/// picture's viewBox from frame to frame, so every frame is in the page and nothing is drawn by script.
public enum PreviewPage {
    /// The inputs: `render.filmstrip` results (a few frames to look at, and every frame for the player) and a
    /// `render.timeline` result, all of the same spec.
    public struct Input {
        public var animator: String
        public var kind: String
        public var filmstrip: JSONValue
        public var player: JSONValue
        public var timeline: JSONValue
        /// The colors of the spec's `from` and `to` view controllers, for the player's legend.
        public var colors: (from: String, to: String)

        public init(animator: String, kind: String, filmstrip: JSONValue, player: JSONValue, timeline: JSONValue,
                    colors: (from: String, to: String) = ("#ff3b30", "#007aff"))
        {
            self.animator = animator
            self.kind = kind
            self.filmstrip = filmstrip
            self.player = player
            self.timeline = timeline
            self.colors = colors
        }
    }

    /// How many frames the player needs: one per 1/fps over the transition's span, both ends included (2…600).
    public static func playerFrames(span: Double, fps: Double = 60) -> Int {
        guard span.isFinite, span > 0 else { return 2 }
        return min(600, max(2, Int((span * fps).rounded()) + 1))
    }

    /// How far above its scene a filmstrip cell (SegueRender's `Filmstrip.Cell`) begins.
    static let cellTopMargin = 4.0

    public static func html(_ input: Input) -> String {
        let transition = input.filmstrip["transition"] ?? .null
        let started = transition["started_at"]?.doubleValue ?? 0
        // A filmstrip cell starts `cellTopMargin` above its scene (room for the current frame's mark): the stage
        // shows the scene and its time label, not that strip, which was a white band above the stage.
        let frames: [JSONValue] = (input.player["frames"]?.arrayValue ?? []).map { cell in
            let y = (cell["y"]?.doubleValue ?? 0) + cellTopMargin
            let h = max((cell["h"]?.doubleValue ?? 0) - cellTopMargin, 1)
            return .object(JSONObject([
                ("time", cell["time"] ?? 0), ("x", cell["x"] ?? 0), ("y", .number(y)), ("w", cell["w"] ?? 0),
                ("h", .number(h)),
            ]))
        }
        let first = frames.first
        let cellW = first?["w"]?.doubleValue ?? 160, cellH = first?["h"]?.doubleValue ?? 260
        let title = "\(input.animator) · \(input.kind)"
        var summary: [String] = []
        if let d = transition["duration"]?.doubleValue { summary.append("duration \(Format.number(d, decimals: 3)) s") }
        if let state = transition["state"]?.stringValue { summary.append("ended \(state)") }
        if transition["forced"] == true { summary.append("forced by the watchdog") }
        if transition["failed_over"] == true { summary.append("the animator raised: the default finished it") }
        let problems = transition["problems"]?.arrayValue ?? []

        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(escape(title)) — segued preview</title>
            <style>
            body { font: 14px/1.4 system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 24px; color: #1c1c1e; background: #fff; }
            h1 { font-size: 20px; margin: 0 0 4px; }
            h2 { font-size: 15px; margin: 28px 0 8px; }
            .summary { color: #636366; margin: 0 0 16px; }
            .problems { color: #c0392b; }
            #player { display: flex; gap: 20px; align-items: flex-start; }
            #stage svg { border: 1px solid #c7c7cc; background: #fff; }
            .controls { display: flex; flex-direction: column; gap: 10px; min-width: 260px; }
            .controls button { font-size: 15px; padding: 6px 14px; width: 110px; }
            #scrub { width: 100%; }
            #readout { font-variant-numeric: tabular-nums; }
            .scroll { overflow-x: auto; border: 1px solid #e5e5ea; }
            .scroll.fit svg { max-width: 100%; height: auto; }
            .scroll svg { cursor: zoom-in; }
            .scroll:not(.fit) svg { cursor: zoom-out; }
            .legend { display: flex; gap: 16px; }
            .swatch { display: inline-block; width: 14px; height: 14px; border: 1px solid #8e8e93; vertical-align: -2px; margin-right: 6px; }
            table { border-collapse: collapse; font-size: 13px; }
            td, th { text-align: left; padding: 3px 12px 3px 0; vertical-align: top; }
            th { color: #636366; font-weight: 600; }
            td.t { font-variant-numeric: tabular-nums; text-align: right; }
            code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
            </style>
            </head>
            <body>
            <h1>\(escape(title))</h1>
            <p class="summary">\(escape(summary.joined(separator: " · "))) · \(frames.count) frames · made by <code>seguectl preview</code></p>

            """
        if !problems.isEmpty {
            page += "<p class=\"problems\">Problems: "
                + problems.map { escape("\($0["code"]?.stringValue ?? "?"): \($0["message"]?.stringValue ?? "")") }
                    .joined(separator: "; ") + "</p>\n"
        }
        page += """
            <h2>Play</h2>
            <div id="player">
            <div id="stage">
            \(inline(input.player["svg"]?.stringValue ?? ""))
            </div>
            <div class="controls">
            <button id="play" type="button">Play</button>
            <input id="scrub" type="range" min="0" max="\(max(0, frames.count - 1))" value="0" step="1" aria-label="frame">
            <div id="readout">0 s</div>
            <label>speed <select id="speed">
              <option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option>
              <option value="1" selected>1×</option><option value="2">2×</option>
            </select></label>
            <label><input id="loop" type="checkbox" checked> loop</label>
            <div class="legend" aria-label="views">
            <span><span class="swatch" style="background: \(escape(input.colors.from))"></span><code>from</code> (the view controller leaving)</span>
            <span><span class="swatch" style="background: \(escape(input.colors.to))"></span><code>to</code> (the one arriving)</span>
            </div>
            <p class="summary">Unlabelled shapes are the animator's own views (snapshots, dimming). Space plays and pauses; \
            ← and → step one frame; #frame=N in the address opens frame N (from 0, as every index here).</p>
            </div>
            </div>
            <h2>Filmstrip</h2>
            <p class="summary">Fitted to the page; click it for full size (then scroll sideways), again to fit.</p>
            <div class="scroll fit">
            \(inline(input.filmstrip["svg"]?.stringValue ?? ""))
            </div>
            <h2>Curves</h2>
            <div class="scroll fit">
            \(inline(input.timeline["svg"]?.stringValue ?? ""))
            </div>
            <h2>Events</h2>
            <table>
            <tr><th>time (s)</th><th>event</th><th>details</th></tr>

            """
        for event in input.filmstrip["events"]?.arrayValue ?? [] {
            let time = (event["time"]?.doubleValue ?? started) - started
            var details: [String] = []
            for (key, value) in event.objectValue ?? JSONObject() where !["seq", "scene", "type", "time"].contains(key) {
                details.append("\(key)=\(value.stringValue ?? value.serialized())")
            }
            page += "<tr><td class=\"t\">\(Format.fixed(time, decimals: 3))</td>"
                + "<td><code>\(escape(event["type"]?.stringValue ?? "?"))</code></td>"
                + "<td><code>\(escape(details.joined(separator: " ")))</code></td></tr>\n"
        }
        page += """
            </table>
            <script>
            "use strict";
            const frames = \(scriptJSON(.array(frames)));
            const stage = document.querySelector("#stage svg");
            const scrub = document.getElementById("scrub");
            const readout = document.getElementById("readout");
            const playButton = document.getElementById("play");
            const speedSelect = document.getElementById("speed");
            const loop = document.getElementById("loop");
            const scale = Math.min(2, 520 / \(Format.number(cellH, decimals: 2)));
            const end = frames.length ? frames[frames.length - 1].time : 0;
            let index = 0, playing = false, origin = null;
            if (stage) {
              stage.setAttribute("width", String(\(Format.number(cellW, decimals: 2)) * scale));
              stage.setAttribute("height", String(\(Format.number(cellH, decimals: 2)) * scale));
            }
            function show(i) {
              if (!frames.length || !stage) return;
              index = Math.max(0, Math.min(frames.length - 1, i));
              const f = frames[index];
              stage.setAttribute("viewBox", f.x + " " + f.y + " " + f.w + " " + f.h);
              scrub.value = String(index);
              readout.textContent = f.time.toFixed(3) + " s / " + end.toFixed(3) + " s  (frame " + index
                + " of 0–" + (frames.length - 1) + ")";
              if (!playing) history.replaceState(null, "", "#frame=" + index);
            }
            function frameAt(t) {
              let i = 0;
              while (i + 1 < frames.length && frames[i + 1].time <= t + 1e-9) i++;
              return i;
            }
            function setPlaying(on) {
              playing = on;
              playButton.textContent = on ? "Pause" : "Play";
              origin = null;
              if (on) {
                if (index >= frames.length - 1) show(0);
                requestAnimationFrame(tick);
              }
            }
            function tick(now) {
              if (!playing) return;
              const speed = Number(speedSelect.value) || 1;
              if (origin === null) origin = now - frames[index].time * 1000 / speed;
              let t = (now - origin) / 1000 * speed;
              if (t > end) {
                if (loop.checked) { origin = now; t = 0; } else { show(frames.length - 1); setPlaying(false); return; }
              }
              show(frameAt(t));
              requestAnimationFrame(tick);
            }
            playButton.addEventListener("click", () => setPlaying(!playing));
            scrub.addEventListener("input", () => { setPlaying(false); show(Number(scrub.value)); });
            speedSelect.addEventListener("change", () => { origin = null; });
            document.addEventListener("keydown", (e) => {
              if (e.target && e.target.tagName === "SELECT") return;
              if (e.key === " ") { e.preventDefault(); setPlaying(!playing); }
              else if (e.key === "ArrowRight") { setPlaying(false); show(index + 1); }
              else if (e.key === "ArrowLeft") { setPlaying(false); show(index - 1); }
            });
            for (const box of document.querySelectorAll(".scroll")) {
              box.addEventListener("click", () => box.classList.toggle("fit"));
            }
            // #frame=N opens the page at frame N (0-based, like the filmstrip's data-index), e.g. to link to a moment.
            const wanted = /frame=(\\d+)/.exec(location.hash);
            show(wanted ? Number(wanted[1]) : 0);
            </script>
            </body>
            </html>

            """
        return page
    }

    /// An SVG document as an element of the page: the XML declaration-free root keeps its attributes except the
    /// namespace declaration, which HTML supplies (so the page names no URL at all).
    static func inline(_ svg: String) -> String {
        svg.replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    }

    /// JSON inside a `<script>`: `<` escaped so no string can close the element.
    static func scriptJSON(_ value: JSONValue) -> String {
        value.serialized().replacingOccurrences(of: "<", with: "\\u003c")
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
