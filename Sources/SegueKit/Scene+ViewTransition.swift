extension Scene {
    /// The perspective UIKit's flips use: m34 = −1/500.
    public static let flipPerspective = 500.0

    /// UIView.transition(from:to:duration:options:completion:): `to` takes `from`'s place at once while a
    /// snapshot of `from` animates away (AnimationClock.transitionViews).
    public func transitionViews(from: View, to: View, duration: Double, style: ViewTransitionStyle,
                                completion: ((Bool) -> Void)?) throws(EngineError)
    {
        try clock.transitionViews(from: from, to: to, duration: duration, style: style, completion: completion, in: self)
    }
}
