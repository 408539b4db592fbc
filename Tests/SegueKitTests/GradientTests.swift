import Testing

@testable import SegueKit

/// Gradient views (issue 26 item 4: `segue.gradient_view`, a view drawn by a CAGradientLayer) in the engine, on a
/// manual clock: CAGradientLayer's defaults, the stops, colours and locations animated per component by blocks,
/// keyframes, property animators and explicit animations, lists of different lengths, and frame events.
@Suite("Gradient views")
struct GradientTests {
    static let red = Color(r: 1, g: 0, b: 0), blue = Color(r: 0, g: 0, b: 1), green = Color(r: 0, g: 1, b: 0)

    func gradientScene(_ colors: [Color] = [red, blue], locations: [Double] = []) throws -> (Scene, View, EventRecorder) {
        let recorder = EventRecorder()
        let scene = Scene(id: "grad", size: Size(w: 320, h: 480), clock: .manual, fps: 100)
        scene.sink = recorder
        let view = try scene.makeGradientView(id: "g", frame: Rect(x: 0, y: 0, w: 100, h: 200),
                                              gradient: GradientValues(colors: colors, locations: locations))
        scene.addSubview(view, to: scene.window)
        return (scene, view, recorder)
    }

    func lastFrame(_ recorder: EventRecorder, _ id: String) -> FrameView? {
        for event in recorder.events.reversed() where event.type == "frame" {
            if case .frame(let views) = event.payload, let v = views.first(where: { $0.id == id }) { return v }
        }
        return nil
    }

    @Test("CAGradientLayer's defaults: axial, start (0.5, 0), end (0.5, 1), locations nil, background clear")
    func defaults() throws {
        let (_, view, _) = try gradientScene()
        let g = try #require(view.model.gradient)
        #expect(g.type == .axial)
        #expect(g.startPoint == Point(x: 0.5, y: 0) && g.endPoint == Point(x: 0.5, y: 1))
        #expect(g.locations.isEmpty)
        #expect(view.model.color == .clear)
        // A plain view has no gradient: nothing beside its channels.
        let plain = try Scene(id: "p", size: Size(w: 10, h: 10), clock: .manual).makeView(frame: .zero)
        #expect(plain.model.gradient == nil && plain.model.get(.colors).isEmpty)
    }

    @Test("locations nil spread the colours evenly; the colour between stops is interpolated per component (RGBA)")
    func stops() {
        let g = GradientValues(colors: [Self.red, Self.green, Color(r: 0, g: 0, b: 1, a: 0)])
        #expect(g.stops.map(\.location) == [0, 0.5, 1])
        let quarter = g.color(at: 0.25)
        #expect(abs(quarter.r - 0.5) < 1e-12 && abs(quarter.g - 0.5) < 1e-12 && quarter.b == 0 && quarter.a == 1)
        let late = g.color(at: 0.75)
        #expect(abs(late.g - 0.5) < 1e-12 && abs(late.b - 0.5) < 1e-12 && abs(late.a - 0.5) < 1e-12)
        // Before the first stop and after the last the end colours hold.
        let placed = GradientValues(colors: [Self.red, Self.blue], locations: [0.2, 0.6])
        #expect(placed.color(at: 0.1) == Self.red && placed.color(at: 0.9) == Self.blue)
        #expect(abs(placed.color(at: 0.4).r - 0.5) < 1e-12)
        // Fewer locations than colours: the colours past the last location are not drawn.
        let fewer = GradientValues(colors: [Self.red, Self.green, Self.blue], locations: [0, 1])
        #expect(fewer.stops.count == 2 && fewer.stops[1].color == Self.green)
    }

    @Test("bad values are refused naming the property and the value")
    func refusals() throws {
        let (scene, view, _) = try gradientScene()
        #expect(scene.gradientRefusal(view, .locations, [0, 1.5])?.contains("view.locations[2] must be in 0…1, got 1.5") == true)
        #expect(scene.gradientRefusal(view, .locations, [0.5, 0.2])?.contains("locations must ascend") == true)
        #expect(scene.gradientRefusal(view, .locations, [0, .nan])?.contains("view.locations[2] must be in 0…1, got nan") == true)
        #expect(scene.gradientRefusal(view, .locations, [0, 0.5, 1])?.contains("more locations than colours") == true)
        #expect(scene.gradientRefusal(view, .colors, [])?.contains("at least one colour") == true)
        #expect(scene.gradientRefusal(view, .gradientType, [7])?.contains("\"axial\", \"radial\" or \"conic\"") == true)
        #expect(scene.gradientRefusal(view, .startPoint, [.infinity, 0]) != nil)
        #expect(scene.gradientRefusal(view, .locations, [0, 1]) == nil)
        scene.set(view, .locations, [0, 1])
        #expect(scene.gradientRefusal(view, .colors, [1, 0, 0, 1])?.contains("more locations than colours") == true)
        let plain = try scene.makeView(id: "plain", frame: .zero)
        #expect(scene.gradientRefusal(plain, .colors, [1, 0, 0, 1])?.contains("view plain is not a gradient view") == true)
        // The engine ignores a write of a gradient part on a view that is no gradient view.
        scene.set(plain, .colors, [1, 0, 0, 1])
        #expect(plain.model.gradient == nil)
    }

    @Test("colours and locations animate per component inside a block; frame events carry them")
    func blockAnimates() throws {
        let (scene, view, recorder) = try gradientScene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, .colors, [0, 1, 0, 1, 1, 1, 1, 0.5])
            scene.set(view, .locations, [0.2, 0.8])
            scene.set(view, .startPoint, [0, 0])
            scene.set(view, .endPoint, [1, 1])
        }
        #expect(view.model.gradient?.colors == [0, 1, 0, 1, 1, 1, 1, 0.5])
        scene.advance(by: 500_000_000)
        let g = try #require(view.presentation.gradient)
        let expected: [Double] = [0.5, 0.5, 0, 1, 0.5, 0.5, 1, 0.75]
        #expect(zip(g.colors, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(g.colors)")
        // From nil (evenly spaced: 0, 1) to 0.2, 0.8.
        #expect(zip(g.locations, [0.1, 0.9]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(g.locations)")
        #expect(abs(g.startPoint.x - 0.25) < 1e-9 && abs(g.endPoint.x - 0.75) < 1e-9)
        let frame = try #require(lastFrame(recorder, "g"))
        #expect(frame.changes.contains(.colors) && frame.changes.contains(.locations) && frame.changes.contains(.startPoint))
        #expect(zip(frame.value(of: .colors), expected).allSatisfy { abs($0 - $1) < 1e-9 })
        scene.advance(by: 600_000_000)
        #expect(view.presentation.gradient == view.model.gradient)
    }

    @Test("lists of different lengths jump half-way (Web Animations' discrete rule), not per component")
    func differentLengthsJump() throws {
        let (scene, view, _) = try gradientScene()
        let three: [Double] = [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1]
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, .colors, three) }
        scene.advance(by: 400_000_000)
        #expect(view.presentation.gradient?.colorCount == 2)
        scene.advance(by: 200_000_000)
        #expect(view.presentation.gradient?.colors == three)
        scene.advance(by: 500_000_000)
        #expect(view.presentation.gradient?.colors == three)
    }

    @Test("a write outside a block sets at once; type is not animated, even inside a block")
    func setAtOnce() throws {
        let (scene, view, recorder) = try gradientScene()
        scene.animate(AnimationOptions(duration: 1)) { scene.set(view, .gradientType, [GradientType.radial.code]) }
        #expect(view.presentation.gradient?.type == .radial)
        scene.set(view, .endPoint, [1, 0.5])
        #expect(view.presentation.gradient?.endPoint == Point(x: 1, y: 0.5))
        scene.advance(by: 10_000_000)
        let frame = try #require(lastFrame(recorder, "g"))
        #expect(frame.changes.contains(.endPoint) && frame.changes.contains(.gradientType))
        #expect(frame.value(of: .gradientType).first == GradientType.radial.code)
    }

    @Test("keyframes move the colours through each keyframe's value; an explicit animation of `colors` leaves the model")
    func keyframesAndExplicit() throws {
        let (scene, view, _) = try gradientScene()
        scene.beginKeyframes(AnimationOptions(duration: 1, timing: .curve(.linear)), completion: nil)
        scene.addKeyframe(start: 0, duration: 0.5) { scene.set(view, .colors, [0, 0, 0, 1, 0, 0, 0, 1]) }
        scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, .colors, [1, 1, 1, 1, 1, 1, 1, 1]) }
        scene.commitAnimations()
        scene.advance(by: 250_000_000)
        // Half-way to black from red, blue.
        let quarter = try #require(view.presentation.gradient?.colors)
        #expect(abs(quarter[0] - 0.5) < 1e-9 && abs(quarter[6] - 0.5) < 1e-9, "\(quarter)")
        scene.advance(by: 1_000_000_000)
        #expect(view.presentation.gradient?.colors == [1, 1, 1, 1, 1, 1, 1, 1])

        var spec = LayerAnimationSpec(keyPath: "locations", duration: 1)
        spec.from = [0, 0.5]
        spec.to = [0.5, 1]
        try scene.addAnimation(spec, forKey: "slide", to: view)
        var point = LayerAnimationSpec(keyPath: "startPoint.x", duration: 1)
        point.to = [1]
        try scene.addAnimation(point, forKey: "start", to: view)
        scene.advance(by: 500_000_000)
        let p = try #require(view.presentation.gradient)
        #expect(zip(p.locations, [0.25, 0.75]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(p.locations)")
        #expect(abs(p.startPoint.x - 0.75) < 1e-9 && p.startPoint.y == 0)
        #expect(view.model.gradient?.locations.isEmpty == true && view.model.gradient?.startPoint.x == 0.5)
        scene.advance(by: 600_000_000)
        // Removed on completion: the model shows again.
        #expect(view.presentation.gradient?.locations.isEmpty == true)
        #expect(view.presentation.gradient?.startPoint.x == 0.5)

        var bad = LayerAnimationSpec(keyPath: "locations", duration: 1)
        bad.to = [0.5, 0.2]
        #expect(throws: LayerAnimationError.self) { try scene.addAnimation(bad, forKey: "bad", to: view) }
        let plain = try scene.makeView(id: "plain", frame: .zero)
        var colors = LayerAnimationSpec(keyPath: "colors", duration: 1)
        colors.to = [1, 0, 0, 1]
        #expect(throws: LayerAnimationError.self) { try scene.addAnimation(colors, forKey: "c", to: plain) }
    }

    @Test("a view without a gradient sends no gradient field; a journal restore puts the gradient back")
    func plainViewsUnchanged() throws {
        let (scene, view, recorder) = try gradientScene()
        let plain = try scene.makeView(id: "plain", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(plain, to: scene.window)
        scene.advance(by: 10_000_000)
        scene.set(plain, .alpha, [0.5])
        scene.advance(by: 10_000_000)
        let frame = try #require(lastFrame(recorder, "plain"))
        #expect(frame.changes.isDisjoint(with: ViewChanges(rawValue: ViewPropertyLayout.shared.gradientParts)))
        #expect(view.model.gradient?.colorCount == 2)
    }
}
