extension AnimatorProvider {
    public func presentation(named name: String, for scene: Scene) throws(EngineError) -> (any PresentationController)? { nil }
}
