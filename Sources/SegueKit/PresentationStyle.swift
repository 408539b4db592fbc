/// UIModalPresentationStyle, the three segued has.
public enum PresentationStyle: String, Sendable, CaseIterable {
    case fullScreen, custom, overFullScreen
}
