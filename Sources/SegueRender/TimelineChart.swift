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
        var plotted = Array((changing.isEmpty ? viewOrder : changing).prefix(TimelineChart.maxViews))
        var chosen = candidates
        if requested == nil {
            chosen = candidates.filter { p in plotted.contains { changes(series(p, $0)) } }
            if chosen.isEmpty { chosen = PlotProperty.named("alpha").map { [$0] } ?? [] }
        }
        if plotted.isEmpty { plotted = [] }
        properties = chosen.map(\.name)
        views = plotted

        // Layout.
        let width = 760.0, left = 78.0, right = 20.0, top = 62.0, panelHeight = 130.0, panelGap = 34.0
        let plotWidth = width - left - right
        let xMax = max(Double(span) / 1e9, source.duration, 1e-3)
        let xAxis = Ticks.axis(0, xMax, count: 8)
        let xLow = 0.0, xHigh = xMax
        let xTicks = xAxis.ticks.filter { $0 >= xLow - 1e-12 && $0 <= xHigh + 1e-12 }
        let xStep = xTicks.count > 1 ? xTicks[1] - xTicks[0] : xMax
        func px(_ t: Double) -> Double { left + (t - xLow) / (xHigh - xLow) * plotWidth }
        let legendRows = (plotted.count + 5) / 6
        let panelsTop = top + Double(legendRows) * 16
        let height = panelsTop + Double(max(chosen.count, 1)) * (panelHeight + panelGap) + 10
        let palette = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                       "#7f7f7f", "#bcbd22"]
        var colors: [String: String] = [:]
        for (i, view) in plotted.enumerated() { colors[view] = palette[i % palette.count] }

        var svg = SVG.open(width: width, height: height)
        svg += "<title>\(SVG.escape(source.title))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += "<text x=\"12\" y=\"20\" font-size=\"14\" font-weight=\"bold\" fill=\"#1c1c1e\">\(SVG.escape(source.title))</text>\n"
        svg += "<text x=\"12\" y=\"36\" font-size=\"11\" fill=\"#636366\">property curves over \(SVG.num(Double(span) / 1e9, 3)) s, sampled at \(source.fps) fps; dashed: the declared duration (\(SVG.num(source.duration, 3)) s)</text>\n"
        // Legend: views, then phases.
        for (i, view) in plotted.enumerated() {
            let x = 12 + Double(i % 6) * 122, y = top - 8 + Double(i / 6) * 16
            svg += "<g class=\"legend\" data-view=\"\(SVG.escape(view))\"><line x1=\"\(SVG.num(x))\" y1=\"\(SVG.num(y - 4))\" x2=\"\(SVG.num(x + 18))\" y2=\"\(SVG.num(y - 4))\" stroke=\"\(colors[view] ?? "#000")\" stroke-width=\"2.5\"/>"
            svg += "<text x=\"\(SVG.num(x + 24))\" y=\"\(SVG.num(y))\" font-size=\"11\" fill=\"#1c1c1e\">\(SVG.escape(view))</text></g>\n"
        }
        let phaseColors: [TimelinePhase.Kind: String] = [.scrub: "#0a84ff", .finish: "#30d158", .cancel: "#ff453a"]

        for (p, property) in chosen.enumerated() {
            let y0 = panelsTop + Double(p) * (panelHeight + panelGap)
            var lo = Double.infinity, hi = -Double.infinity
            var all: [(String, [Double?])] = []
            for view in plotted {
                let values = series(property, view)
                all.append((view, values))
                for v in values.compactMap({ $0 }) where v.isFinite {
                    lo = min(lo, v)
                    hi = max(hi, v)
                }
            }
            let yAxis = Ticks.axis(lo, hi, count: 4)
            func py(_ v: Double) -> Double { y0 + panelHeight - (v - yAxis.low) / (yAxis.high - yAxis.low) * panelHeight }
            svg += "<g class=\"plot\" data-property=\"\(SVG.escape(property.name))\" data-y-low=\"\(SVG.num(yAxis.low, 6))\" data-y-high=\"\(SVG.num(yAxis.high, 6))\">\n"
            svg += "<rect x=\"\(SVG.num(left))\" y=\"\(SVG.num(y0))\" width=\"\(SVG.num(plotWidth))\" height=\"\(SVG.num(panelHeight))\" fill=\"#fafafa\" stroke=\"#c7c7cc\"/>\n"
            // Interactive phases, under everything else.
            for phase in source.timeline.phases {
                let a = max(xLow, source.seconds(phase.start))
                let b = min(xHigh, source.seconds(phase.end ?? source.end))
                guard b > a else { continue }
                svg += "<rect class=\"phase\" data-phase=\"\(phase.kind.rawValue)\" x=\"\(SVG.num(px(a)))\" y=\"\(SVG.num(y0))\" width=\"\(SVG.num(px(b) - px(a)))\" height=\"\(SVG.num(panelHeight))\" fill=\"\(phaseColors[phase.kind] ?? "#999")\" fill-opacity=\"0.14\"/>\n"
                if p == 0 {
                    svg += "<text x=\"\(SVG.num(px(a) + 3))\" y=\"\(SVG.num(y0 + 11))\" font-size=\"10\" fill=\"\(phaseColors[phase.kind] ?? "#999")\">\(phase.kind.rawValue)</text>\n"
                }
            }
            // Grid and tick labels.
            let yDigits = Ticks.digits(for: yAxis.ticks.count > 1 ? yAxis.ticks[1] - yAxis.ticks[0] : 1)
            for tick in yAxis.ticks {
                let y = py(tick)
                svg += "<line x1=\"\(SVG.num(left))\" y1=\"\(SVG.num(y))\" x2=\"\(SVG.num(left + plotWidth))\" y2=\"\(SVG.num(y))\" stroke=\"#e5e5ea\"/>"
                svg += "<text x=\"\(SVG.num(left - 5))\" y=\"\(SVG.num(y + 3.5))\" font-size=\"10\" text-anchor=\"end\" fill=\"#3a3a3c\">\(SVG.num(tick, yDigits))</text>\n"
            }
            let xDigits = Ticks.digits(for: xStep)
            for tick in xTicks {
                let x = px(tick)
                svg += "<line x1=\"\(SVG.num(x))\" y1=\"\(SVG.num(y0 + panelHeight))\" x2=\"\(SVG.num(x))\" y2=\"\(SVG.num(y0 + panelHeight + 4))\" stroke=\"#8e8e93\"/>"
                svg += "<text x=\"\(SVG.num(x))\" y=\"\(SVG.num(y0 + panelHeight + 15))\" font-size=\"10\" text-anchor=\"middle\" fill=\"#3a3a3c\">\(SVG.num(tick, xDigits))</text>\n"
            }
            svg += "<text x=\"\(SVG.num(left + plotWidth))\" y=\"\(SVG.num(y0 + panelHeight + 28))\" font-size=\"10\" text-anchor=\"end\" fill=\"#636366\">time (s)</text>\n"
            let yTitle = property.unit.isEmpty ? property.name : "\(property.name) (\(property.unit))"
            let cy = y0 + panelHeight / 2
            svg += "<text class=\"axis-title\" x=\"14\" y=\"\(SVG.num(cy))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#1c1c1e\" transform=\"rotate(-90 14 \(SVG.num(cy)))\">\(SVG.escape(yTitle))</text>\n"
            // The declared duration, and now (running transitions).
            if source.duration > 0, source.duration <= xHigh + 1e-9 {
                let x = px(source.duration)
                svg += "<line class=\"duration\" x1=\"\(SVG.num(x))\" y1=\"\(SVG.num(y0))\" x2=\"\(SVG.num(x))\" y2=\"\(SVG.num(y0 + panelHeight))\" stroke=\"#636366\" stroke-dasharray=\"5 4\"/>\n"
                if p == 0 {
                    svg += "<text x=\"\(SVG.num(x - 3))\" y=\"\(SVG.num(y0 - 4))\" font-size=\"10\" text-anchor=\"end\" fill=\"#636366\">duration \(SVG.num(source.duration, 3)) s</text>\n"
                }
            }
            if source.now < source.end {
                let x = px(max(0, source.seconds(source.now)))
                svg += "<line class=\"now\" x1=\"\(SVG.num(x))\" y1=\"\(SVG.num(y0))\" x2=\"\(SVG.num(x))\" y2=\"\(SVG.num(y0 + panelHeight))\" stroke=\"#ff9f0a\" stroke-width=\"1.5\"/>\n"
                if p == 0 {
                    svg += "<text x=\"\(SVG.num(x + 3))\" y=\"\(SVG.num(y0 - 4))\" font-size=\"10\" fill=\"#ff9f0a\">now (later: predicted)</text>\n"
                }
            }
            // The curves.
            for (view, values) in all {
                var d = ""
                var pen = false
                for (k, value) in values.enumerated() {
                    guard let value, value.isFinite else {
                        pen = false
                        continue
                    }
                    d += (pen ? "L" : "M") + SVG.num(px(source.seconds(times[k]))) + " " + SVG.num(py(value))
                    pen = true
                }
                guard !d.isEmpty else { continue }
                let present = values.compactMap { $0 }.filter(\.isFinite)
                let last = values.last(where: { $0 != nil }).flatMap { $0 } ?? 0
                svg += "<path class=\"series\" data-view=\"\(SVG.escape(view))\" data-min=\"\(SVG.num(present.min() ?? 0, 6))\" data-max=\"\(SVG.num(present.max() ?? 0, 6))\" data-last=\"\(SVG.num(last, 6))\" d=\"\(d)\" fill=\"none\" stroke=\"\(colors[view] ?? "#000")\" stroke-width=\"1.8\" stroke-linejoin=\"round\"/>\n"
            }
            svg += "</g>\n"
        }
        if chosen.isEmpty || plotted.isEmpty {
            svg += "<text x=\"\(SVG.num(left + 8))\" y=\"\(SVG.num(panelsTop + 20))\" font-size=\"12\" fill=\"#636366\">no view of this transition changes</text>\n"
        }
        svg += "</svg>\n"
        self.svg = svg
    }
}
