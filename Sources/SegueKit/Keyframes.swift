/// An open `animate` or `animateKeyframes` block.
struct AnimationBlock {
    let options: AnimationOptions
    let group: AnimationGroup
    let keyframes: KeyframeRecorder?
}

/// What a keyframe block records: per (view, property), the value before the block and the segments set.
final class KeyframeRecorder {
    /// The block's `calculation_mode` (UIView.KeyframeAnimationOptions.calculationMode…).
    let mode: CalculationMode

    init(mode: CalculationMode = .linear) { self.mode = mode }

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
                                initial: view.presentationValues(of: property), segments: [segment]))
        }
    }
}

extension KeyframeRecorder {
    /// The key values and times of one recorded track (see `AnimationClock.commitKeyframes`).
    static func path(_ track: Track, property: ViewProperty, mode: CalculationMode) -> KeyframePath {
        var values = [track.initial]
        var times = [0.0]
        for segment in track.segments.sorted(by: { $0.u0 < $1.u0 }) {
            let last = times[times.count - 1]
            switch mode {
            case .linear:
                // Hold the value reached until this keyframe starts.
                if segment.u0 > last {
                    values.append(values[values.count - 1])
                    times.append(segment.u0)
                }
                times.append(max(segment.u1, times[times.count - 1]))
            case .discrete:
                times.append(max(segment.u0, last))
            case .cubic, .paced, .cubicPaced:
                times.append(max(segment.u1, last))
            }
            values.append(segment.to)
        }
        return KeyframePath(values: values, keyTimes: times, timings: [], mode: mode,
                            segment: LayerKeyPath.segmentInterpolation(for: property))
    }
}
