/// An open `animate` or `animateKeyframes` block.
struct AnimationBlock {
    let options: AnimationOptions
    let group: AnimationGroup
    let keyframes: KeyframeRecorder?
}

/// What a keyframe block records: per (view, property), the value before the block and the segments set.
final class KeyframeRecorder {
    struct Segment {
        let u0: Double
        let u1: Double
        let to: [Double]
    }

    struct Track {
        let serial: Int
        let property: Int
        let initial: [Double]
        var segments: [Segment]
    }

    /// The window of the `addKeyframe` running now; a set outside any window spans the whole block.
    var window: (Double, Double)?
    private(set) var tracks: [Track] = []

    func record(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        let (u0, u1) = window ?? (0, 1)
        let segment = Segment(u0: u0, u1: u1, to: values)
        if let i = tracks.firstIndex(where: { $0.serial == view.serial && $0.property == property.rawValue }) {
            tracks[i].segments.append(segment)
        } else {
            tracks.append(Track(serial: view.serial, property: property.rawValue,
                                initial: Array(view.presentation.get(property)), segments: [segment]))
        }
    }
}
