import Foundation
import SegueKit
import Testing

@testable import SegueRender

@Suite("Render: timeline charts")
struct TimelineChartTests {
    /// A finished default slide (seed 000's spring, damping 0.75) and its chart.
    func springChart(properties: [PlotProperty]? = nil, phases: [RenderPhase] = []) throws -> (Element, TimelineChart) {
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 1_200_000_000)
        var source = RenderSource(transition: t, scene: scene)
        source.phases = phases.map {
            RenderPhase(kind: $0.kind, start: t.startedAt + $0.start, end: $0.end.map { t.startedAt + $0 })
        }
        let chart = TimelineChart(source, properties: properties)
        return (try parseXML(chart.svg), chart)
    }

    @Test("the timeline of a spring shows its overshoot: the to-view's translation dips past its end value")
    func springOvershoot() throws {
        let (root, chart) = try springChart()
        #expect(chart.properties.contains("transform.tx") && chart.properties.contains("alpha"))
        #expect(chart.views == ["a.view", "b.view"])
        let plot = try #require(root.all { $0.attributes["data-property"] == "transform.tx" && $0.name == "g" }.first)
        let series = try #require(plot.all(named: "path", class: "series").first { $0.attributes["data-view"] == "b.view" })
        // Values: from W + 16 = 336 down past 0 (the overshoot) and back to 0.
        #expect(try #require(series.double("data-max")) > 335)
        #expect(try #require(series.double("data-min")) < -1)
        #expect(abs(try #require(series.double("data-last"))) < 1e-6)
        // On the picture: some point is drawn lower than where the curve ends (y grows downwards).
        let points = pathPoints(try #require(series.attributes["d"]))
        let last = try #require(points.last)
        let lowest = try #require(points.map(\.y).max())
        #expect(lowest > last.y + 1, "no visible overshoot: lowest y \(lowest), end y \(last.y)")
        // And the axis reaches below 0 so the dip is inside the plot.
        let axisLow = try #require(plot.double("data-y-low")), seriesMin = try #require(series.double("data-min"))
        #expect(axisLow < seriesMin)
    }

    @Test("axes are labelled, the duration is marked, and the SVG draws")
    func axesAndDuration() throws {
        let (root, chart) = try springChart()
        let texts = root.all(named: "text").map(\.text)
        #expect(texts.contains("time (s)"))
        #expect(root.all(named: "text", class: "axis-title").map(\.text).contains("transform.tx (pt)"))
        #expect(texts.contains("duration 1 s"))
        #expect(root.all(named: "line", class: "duration").count == chart.properties.count)
        _ = try rasterize(chart.svg)
    }

    @Test("interactive phases are shaded where they happened (phases appended by hand)")
    func phasesShaded() throws {
        let (root, _) = try springChart(
            properties: [try #require(PlotProperty.named("alpha"))],
            phases: [RenderPhase(kind: .scrub, start: 0, end: 400_000_000),
                     RenderPhase(kind: .cancel, start: 400_000_000, end: nil)])
        let bands = root.all(named: "rect", class: "phase")
        #expect(bands.map { $0.attributes["data-phase"] } == ["scrub", "cancel"])
        let scrub = try #require(bands.first), cancel = try #require(bands.last)
        let x0 = try #require(scrub.double("x")), w0 = try #require(scrub.double("width"))
        let x1 = try #require(cancel.double("x")), w1 = try #require(cancel.double("width"))
        // Scrub covers 0…0.4 s and the open cancel phase the rest: back to back, the first narrower.
        #expect(abs(x0 + w0 - x1) < 0.02)
        #expect(w0 > 0 && w1 > w0)
        #expect(root.all(named: "text").map(\.text).contains("scrub"))
    }

    @Test("asked-for properties are drawn even when flat; the rest are left out")
    func requestedProperties() throws {
        let names = ["frame.w", "corner_radius"]
        let (root, chart) = try springChart(properties: names.compactMap(PlotProperty.named))
        #expect(chart.properties == names)
        #expect(root.all(named: "g", class: "plot").map { $0.attributes["data-property"] ?? "" } == names)
    }

    /// Stand-ins for the engine's Transition and TransitionPhase (interactive transitions record their phases there).
    @Test("a transition's recorded phases come from the engine: scrubbed, then cancelled; none when never driven")
    func recordedPhases() throws {
        let (driven, drivenContainer, _, _) = try makeScene()
        let scrubbed = try #require(try driven.select(drivenContainer, index: 1, interactive: .percent).transition)
        driven.advance(by: 100_000_000)
        try driven.updateTransition(scrubbed, percent: 0.4)
        try driven.endInteraction(scrubbed, cancel: true, speed: 1, curve: .linear)
        driven.advance(by: 500_000_000)
        #expect(RenderPhase.recorded(by: scrubbed) == [
            RenderPhase(kind: .scrub, start: 0, end: 100_000_000),
            RenderPhase(kind: .cancel, start: 100_000_000, end: 500_000_000),
        ])
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 1_200_000_000)
        #expect(RenderSource(transition: t, scene: scene).phases == [])  // never driven: nothing to shade
    }
}
