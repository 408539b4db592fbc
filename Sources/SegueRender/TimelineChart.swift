import SegueKit

/// `render.timeline`: the animated properties of each view over time, one line plot per property, stacked, sharing
/// the time axis (seconds from the transition's start). The declared duration is a dashed line, interactive phases
/// (scrub, finish, cancel) are shaded bands, and for a running transition a line marks "now".
///
/// Each plot is a `<g class="plot" data-property>` holding one `<path class="series" data-view data-min data-max
/// data-last>` per view (a view that leaves the tree mid-way gets a gap, not a line to nowhere).
public struct TimelineChart {
    public let svg: String
    /// The properties drawn, in order.
    public let properties: [String]
    /// The views plotted.
    public let views: [String]

    /// At most this many views get a line (the first ones, in tree order, whose values change).
    public static let maxViews = 16

    /// - Parameter properties: names from `PlotProperty.all` to draw; nil for each of `PlotProperty.defaults`
    ///   that changes during the span (alpha alone when nothing does).
    public init(_ source: RenderSource, properties requested: [PlotProperty]? = nil) {
        // Sample every frame of the span (at most 600 steps), plus the end.
        let span = max(source.end - source.start, 0)
        // Huge trees get fewer samples: at most a million view samples in all.
        let cap = max(2, min(600, 1_000_000 / max(1, source.maxViews)))
        let steps = max(2, min(cap, Int((Double(span) / 1e9 * Double(source.fps)).rounded(.up))))
        var times: [Int64] = []
        for k in 0...steps { times.append(source.start + Int64((Double(span) * Double(k) / Double(steps)).rounded())) }
        let samples: [[Timeline.ViewSample]] = times.map { source.timeline.sample(at: $0)?.views ?? [] }
        let indices: [[String: Int]] = samples.map { views in
            var index: [String: Int] = [:]
            for (i, view) in views.enumerated() where index[view.id] == nil { index[view.id] = i }
            return index
        }

        // Views in order of first appearance, skipping the root (the container view).
        var viewOrder: [String] = []
        var seen: Set<String> = []
        for views in samples {
            for view in views where view.parent >= 0 && seen.insert(view.id).inserted { viewOrder.append(view.id) }
        }
        func series(_ property: PlotProperty, _ view: String) -> [Double?] {
            samples.indices.map { k in indices[k][view].map { property.value(samples[k][$0].values) } }
        }
        func changes(_ values: [Double?]) -> Bool {
            let present = values.compactMap { $0 }.filter(\.isFinite)
            guard let lo = present.min(), let hi = present.max() else { return false }
            return hi - lo > 1e-6
        }
        let candidates = requested ?? PlotProperty.defaults.compactMap(PlotProperty.named)
        var changing: [String] = []
        for view in viewOrder where candidates.contains(where: { changes(series($0, view)) }) { changing.append(view) }
        let plotted = Array((changing.isEmpty ? viewOrder : changing).prefix(TimelineChart.maxViews))
        var chosen = candidates
        if requested == nil {
            chosen = candidates.filter { p in plotted.contains { changes(series(p, $0)) } }
            if chosen.isEmpty { chosen = PlotProperty.named("alpha").map { [$0] } ?? [] }
        }
        properties = chosen.map(\.name)
        views = plotted

        // Layout: panels stacked under the title and the legend, sharing the time axis.
        let xMax = max(Double(span) / 1e9, source.duration, 1e-3)
        let frame = Frame(xMax: xMax, legendRows: (plotted.count + 5) / 6)
        let height = frame.panelsTop + Double(max(chosen.count, 1)) * (Frame.panelHeight + Frame.panelGap) + 10
        var colors: [String: String] = [:]
        for (i, view) in plotted.enumerated() { colors[view] = Frame.palette[i % Frame.palette.count] }

        var svg = SVG.open(width: Frame.width, height: height)
        svg += SVG.tag("title", [:], text: source.title) + "\n"
        svg += SVG.tag("rect", ["width": "100%", "height": "100%", "fill": "#ffffff"]) + "\n"
        svg += SVG.tag("text", ["x": "12", "y": "20", "font-size": "14", "font-weight": "bold", "fill": "#1c1c1e"],
                       text: source.title) + "\n"
        let caption = "property curves over \(SVG.num(Double(span) / 1e9, 3)) s, sampled at \(source.fps) fps; "
            + "dashed: the declared duration (\(SVG.num(source.duration, 3)) s)"
        svg += SVG.tag("text", ["x": "12", "y": "36", "font-size": "11", "fill": "#636366"], text: caption) + "\n"
        for (i, view) in plotted.enumerated() {
            let x = 12 + Double(i % 6) * 122, y = Frame.top - 8 + Double(i / 6) * 16
            svg += "<g class=\"legend\" data-view=\"\(SVG.escape(view))\">"
            svg += SVG.tag("line", ["x1": SVG.num(x), "y1": SVG.num(y - 4), "x2": SVG.num(x + 18), "y2": SVG.num(y - 4),
                                    "stroke": colors[view] ?? "#000000", "stroke-width": "2.5"])
            svg += SVG.tag("text", ["x": SVG.num(x + 24), "y": SVG.num(y), "font-size": "11", "fill": "#1c1c1e"], text: view)
            svg += "</g>\n"
        }
        for (p, property) in chosen.enumerated() {
            let top = frame.panelsTop + Double(p) * (Frame.panelHeight + Frame.panelGap)
            let lines = plotted.map { view in (view: view, values: series(property, view), color: colors[view] ?? "#000000") }
            svg += TimelineChart.panel(property, lines, times: times, top: top, first: p == 0, frame: frame, source: source)
        }
        if plotted.isEmpty {
            svg += SVG.tag("text", ["x": SVG.num(Frame.left + 8), "y": SVG.num(frame.panelsTop + 20), "font-size": "12",
                                    "fill": "#636366"], text: "no view of this transition changes") + "\n"
        }
        svg += "</svg>\n"
        self.svg = svg
    }

    /// Where things go: the fixed margins, and the time axis.
    struct Frame {
        static let width = 760.0, left = 78.0, right = 20.0, top = 62.0, panelHeight = 130.0, panelGap = 34.0
        static let palette = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                              "#7f7f7f", "#bcbd22"]
        static let phaseColors: [RenderPhase.Kind: String] = [.scrub: "#0a84ff", .finish: "#30d158", .cancel: "#ff453a"]
        let xMax: Double
        let xTicks: [Double]
        let panelsTop: Double

        init(xMax: Double, legendRows: Int) {
            self.xMax = xMax
            xTicks = Ticks.axis(0, xMax, count: 8).ticks.filter { $0 >= -1e-12 && $0 <= xMax + 1e-12 }
            panelsTop = Frame.top + Double(legendRows) * 16
        }

        var plotWidth: Double { Frame.width - Frame.left - Frame.right }
        /// Seconds from the start to x.
        func x(_ t: Double) -> Double { Frame.left + t / xMax * plotWidth }
    }

    /// One property's plot: the band, phases, grid, ticks, axis titles, duration and now marks, and the curves.
    static func panel(_ property: PlotProperty, _ lines: [(view: String, values: [Double?], color: String)],
                      times: [Int64], top: Double, first: Bool, frame: Frame, source: RenderSource) -> String
    {
        let height = Frame.panelHeight, left = Frame.left, width = frame.plotWidth, bottom = top + height
        let present = lines.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        let axis = Ticks.axis(present.min() ?? 0, present.max() ?? 0, count: 4)
        func y(_ v: Double) -> Double { bottom - (v - axis.low) / (axis.high - axis.low) * height }
        func vertical(_ x: Double, _ attributes: KeyValuePairs<String, String>) -> String {
            var line = "<line x1=\"\(SVG.num(x))\" y1=\"\(SVG.num(top))\" x2=\"\(SVG.num(x))\" y2=\"\(SVG.num(bottom))\""
            for (key, value) in attributes { line += " \(key)=\"\(value)\"" }
            return line + "/>\n"
        }
        var out = "<g class=\"plot\" data-property=\"\(SVG.escape(property.name))\" "
            + "data-y-low=\"\(SVG.num(axis.low, 6))\" data-y-high=\"\(SVG.num(axis.high, 6))\">\n"
        out += SVG.tag("rect", ["x": SVG.num(left), "y": SVG.num(top), "width": SVG.num(width), "height": SVG.num(height),
                                "fill": "#fafafa", "stroke": "#c7c7cc"]) + "\n"
        // Interactive phases, under everything else.
        for phase in source.phases {
            let a = max(0, source.seconds(phase.start)), b = min(frame.xMax, source.seconds(phase.end ?? source.end))
            guard b > a else { continue }
            let color = Frame.phaseColors[phase.kind] ?? "#999999"
            out += SVG.tag("rect", ["class": "phase", "data-phase": phase.kind.rawValue, "x": SVG.num(frame.x(a)),
                                    "y": SVG.num(top), "width": SVG.num(frame.x(b) - frame.x(a)),
                                    "height": SVG.num(height), "fill": color, "fill-opacity": "0.14"]) + "\n"
            if first {
                out += SVG.tag("text", ["x": SVG.num(frame.x(a) + 3), "y": SVG.num(top + 11), "font-size": "10",
                                        "fill": color], text: phase.kind.rawValue) + "\n"
            }
        }
        // Grid, ticks and their labels, axis titles.
        let yDigits = Ticks.digits(for: axis.ticks.count > 1 ? axis.ticks[1] - axis.ticks[0] : 1)
        for tick in axis.ticks {
            out += SVG.tag("line", ["x1": SVG.num(left), "y1": SVG.num(y(tick)), "x2": SVG.num(left + width),
                                    "y2": SVG.num(y(tick)), "stroke": "#e5e5ea"])
            out += SVG.tag("text", ["x": SVG.num(left - 5), "y": SVG.num(y(tick) + 3.5), "font-size": "10",
                                    "text-anchor": "end", "fill": "#3a3a3c"], text: SVG.num(tick, yDigits)) + "\n"
        }
        let xDigits = Ticks.digits(for: frame.xTicks.count > 1 ? frame.xTicks[1] - frame.xTicks[0] : frame.xMax)
        for tick in frame.xTicks {
            let x = frame.x(tick)
            out += SVG.tag("line", ["x1": SVG.num(x), "y1": SVG.num(bottom), "x2": SVG.num(x), "y2": SVG.num(bottom + 4),
                                    "stroke": "#8e8e93"])
            out += SVG.tag("text", ["x": SVG.num(x), "y": SVG.num(bottom + 15), "font-size": "10", "text-anchor": "middle",
                                    "fill": "#3a3a3c"], text: SVG.num(tick, xDigits)) + "\n"
        }
        out += SVG.tag("text", ["x": SVG.num(left + width), "y": SVG.num(bottom + 28), "font-size": "10",
                                "text-anchor": "end", "fill": "#636366"], text: "time (s)") + "\n"
        let title = property.unit.isEmpty ? property.name : "\(property.name) (\(property.unit))"
        let middle = SVG.num(top + height / 2)
        out += SVG.tag("text", ["class": "axis-title", "x": "14", "y": middle, "font-size": "11", "text-anchor": "middle",
                                "fill": "#1c1c1e", "transform": "rotate(-90 14 \(middle))"], text: title) + "\n"
        // The declared duration, and now (a running transition: what lies after it is predicted).
        if source.duration > 0, source.duration <= frame.xMax + 1e-9 {
            let x = frame.x(source.duration)
            out += vertical(x, ["class": "duration", "stroke": "#636366", "stroke-dasharray": "5 4"])
            if first {
                out += SVG.tag("text", ["x": SVG.num(x - 3), "y": SVG.num(top - 4), "font-size": "10", "text-anchor": "end",
                                        "fill": "#636366"], text: "duration \(SVG.num(source.duration, 3)) s") + "\n"
            }
        }
        if source.now < source.end {
            let x = frame.x(max(0, source.seconds(source.now)))
            out += vertical(x, ["class": "now", "stroke": "#ff9f0a", "stroke-width": "1.5"])
            if first {
                out += SVG.tag("text", ["x": SVG.num(x + 3), "y": SVG.num(top - 4), "font-size": "10", "fill": "#ff9f0a"],
                               text: "now (later: predicted)") + "\n"
            }
        }
        // The curves: a gap wherever the view was not in the tree.
        for line in lines {
            var d = ""
            var pen = false
            for (k, value) in line.values.enumerated() {
                guard let value, value.isFinite else {
                    pen = false
                    continue
                }
                d += (pen ? "L" : "M") + SVG.num(frame.x(source.seconds(times[k]))) + " " + SVG.num(y(value))
                pen = true
            }
            guard !d.isEmpty else { continue }
            let values = line.values.compactMap { $0 }.filter(\.isFinite)
            out += SVG.tag("path", [
                "class": "series", "data-view": line.view, "data-min": SVG.num(values.min() ?? 0, 6),
                "data-max": SVG.num(values.max() ?? 0, 6), "data-last": SVG.num(values.last ?? 0, 6), "d": d,
                "fill": "none", "stroke": line.color, "stroke-width": "1.8", "stroke-linejoin": "round",
            ]) + "\n"
        }
        return out + "</g>\n"
    }
}
