import SegueJSON

@testable import SegueKit

/// Collects a scene's events.
final class EventRecorder: EventSink {
    var events: [EngineEvent] = []
    func emit(_ event: EngineEvent) { events.append(event) }

    /// "type vc" lines for the lifecycle events, in order.
    var lifecycle: [String] {
        events.filter { $0.category == .lifecycle }.map { event in
            var line = "\(event.type.dropFirst(3)) \(event.payload.vc ?? "?")"
            switch event.payload {
            case .willMoveToParent(_, let parent), .didMoveToParent(_, let parent): line += "(\(parent ?? "nil"))"
            default: break
            }
            return line
        }
    }

    func types(_ category: EventCategory) -> [String] { events.filter { $0.category == category }.map(\.type) }
}

/// A manual scene with a custom container of two view controllers on screen.
func makeScene(recorder: EventRecorder, config: EngineConfig = EngineConfig()) throws
    -> (Scene, ContainerViewController, ViewController, ViewController)
{
    let scene = Scene(id: "test", size: Size(w: 320, h: 480), clock: .manual, config: config)
    scene.sink = recorder
    let a = try scene.createViewController(id: "a", title: "A", color: Color(hex: "#ff0000"))
    let b = try scene.createViewController(id: "b", title: "B", color: Color(hex: "#0000ff"))
    let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
    try scene.setRoot(container)
    recorder.events.removeAll()
    return (scene, container, a, b)
}

/// Test animators.
final class NeverCompletes: Animator {
    let name = "never"
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }
    func animateTransition(using context: TransitionContext) {
        context.scene.addSubview(context.toViewController.view, to: context.containerView)
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

final class Raises: Animator {
    let name = "raises"
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }
    func animateTransition(using context: TransitionContext) throws(AnimatorFault) {
        let scene = context.scene
        scene.addSubview(context.toViewController.view, to: context.containerView)
        scene.set(context.fromViewController.view, alpha: 0.25)
        scene.animate(AnimationOptions(duration: 0.5)) { scene.set(context.fromViewController.view, alpha: 0) }
        throw AnimatorFault("boom")
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

final class CompletesTwice: Animator {
    let name = "twice"
    func transitionDuration(using context: TransitionContext) -> Double { 0 }
    func animateTransition(using context: TransitionContext) {
        context.scene.addSubview(context.toViewController.view, to: context.containerView)
        context.completeTransition(true)
        context.completeTransition(true)
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

extension Scene {
    /// Gives the scene these test animators; the caller keeps the returned provider alive (scenes hold it weakly).
    func use(_ animators: [String: () -> any Animator]) -> StaticProvider {
        let provider = StaticProvider(animators)
        animatorProvider = provider
        return provider
    }
}

/// A sink that records everything but says it listens to no frames.
final class FrameDeafRecorder: EventSink {
    var events: [EngineEvent] = []
    func emit(_ event: EngineEvent) { events.append(event) }
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool { kind != .frame }
}

final class StaticProvider: AnimatorProvider {
    let make: [String: () -> any Animator]
    init(_ make: [String: () -> any Animator]) { self.make = make }
    func animator(named name: String, for scene: Scene) -> (any Animator)? { make[name]?() }
}
