/// The options of UIView.transition(from:to:duration:options:).
public enum ViewTransitionStyle: String, Sendable, CaseIterable {
    case flipFromLeft = "flip_from_left", flipFromRight = "flip_from_right"
    case flipFromTop = "flip_from_top", flipFromBottom = "flip_from_bottom"
    case curlUp = "curl_up", curlDown = "curl_down"
    case crossDissolve = "cross_dissolve"
}
