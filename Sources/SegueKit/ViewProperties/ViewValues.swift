/// The values of a view kept in channels, flat, at the offsets of the view-property table (`ViewProperty`): center
/// (2), bounds (4), alpha, transform (16), color (4), corner radius.
/// `frame` is derived from center and bounds size (the layout frame: the transform is applied on top of it).
public struct ViewValues: Sendable, Equatable {
    public var channels: [Double]
    /// A gradient view's CAGradientLayer values (`segue.gradient_view`); nil for every other view.
    public var gradient: GradientValues?

    /// From `channelCount` channels (a shorter array is padded with zeros, then the layer geometry's defaults where
    /// it lacks them: anchor point 0.5, 0.5, identity sublayer transform, double-sided).
    public init(channels: [Double]) {
        var c = channels
        let given = c.count
        if c.count < ViewProperty.channelCount {
            c.append(contentsOf: [Double](repeating: 0, count: ViewProperty.channelCount - c.count))
        }
        self.channels = c
        if given <= ViewProperty.anchorPoint.offset { anchorPoint = Point(x: 0.5, y: 0.5) }
        if given <= ViewProperty.sublayerTransform.offset { sublayerTransform = .identity }
        if given <= ViewProperty.doubleSided.offset { doubleSided = true }
    }

    /// A copy of `channels` (exactly `ViewProperty.channelCount` of them: a view's own storage) and `gradient`.
    init(copying channels: UnsafeBufferPointer<Double>, gradient: GradientValues?) {
        self.channels = Array(channels)
        self.gradient = gradient
    }

    public init(frame: Rect, alpha: Double = 1, color: Color = .white) {
        channels = ViewValues.initialChannels
        self.frame = frame
        self.alpha = alpha
        self.transform = .identity
        self.color = color
    }

    /// The values of `property`: its channels, or a gradient view's part (none when the view has no gradient).
    public func get(_ property: ViewProperty) -> ArraySlice<Double> {
        if property.isGradient { return ArraySlice(gradient?.values(of: property) ?? []) }
        return channels[property.offset..<(property.offset + property.count)]
    }

    public mutating func set(_ property: ViewProperty, _ values: some Collection<Double>) {
        if property.isGradient {
            gradient?.set(property, values)
            return
        }
        var i = property.offset
        for v in values {
            channels[i] = v
            i += 1
        }
    }

    public var center: Point {
        get { Point(x: channels[0], y: channels[1]) }
        set { channels[0] = newValue.x; channels[1] = newValue.y }
    }

    public var bounds: Rect {
        get { Rect(x: channels[2], y: channels[3], w: channels[4], h: channels[5]) }
        set { channels[2] = newValue.x; channels[3] = newValue.y; channels[4] = newValue.w; channels[5] = newValue.h }
    }

    /// The layout frame: a rect of the bounds' size placed so that its anchor point sits at `center` (UIKit's frame
    /// with an identity transform; CALayer's position − anchorPoint × size).
    public var frame: Rect {
        get {
            Rect(x: channels[0] - channels[4] * channels[28], y: channels[1] - channels[5] * channels[29],
                 w: channels[4], h: channels[5])
        }
        set {
            channels[0] = newValue.x + newValue.w * channels[28]
            channels[1] = newValue.y + newValue.h * channels[29]
            channels[4] = newValue.w
            channels[5] = newValue.h
        }
    }

    public var alpha: Double {
        get { channels[6] }
        set { channels[6] = newValue }
    }

    public var transform: Transform3D {
        get { Transform3D(values: Array(channels[7..<23])) }
        set { set(.transform, newValue.values) }
    }

    public var color: Color {
        get { Color(r: channels[23], g: channels[24], b: channels[25], a: channels[26]) }
        set { channels[23] = newValue.r; channels[24] = newValue.g; channels[25] = newValue.b; channels[26] = newValue.a }
    }

    public var cornerRadius: Double {
        get { channels[27] }
        set { channels[27] = newValue }
    }

    /// CALayer.anchorPoint, in unit coordinates of the bounds.
    public var anchorPoint: Point {
        get { Point(x: channels[28], y: channels[29]) }
        set { channels[28] = newValue.x; channels[29] = newValue.y }
    }

    /// CALayer.sublayerTransform.
    public var sublayerTransform: Transform3D {
        get { Transform3D(values: Array(channels[30..<46])) }
        set { set(.sublayerTransform, newValue.values) }
    }

    /// CALayer.doubleSided.
    public var doubleSided: Bool {
        get { channels[46] != 0 }
        set { channels[46] = newValue ? 1 : 0 }
    }

    /// Every channel zero but those of the properties with an initial value in the table (`ViewPropertyInfo.initial`:
    /// CALayer's defaults for the border and the shadow), made once.
    static let initialChannels: [Double] = {
        var c = [Double](repeating: 0, count: ViewProperty.channelCount)
        for property in ViewProperty.allCases {
            guard let initial = property.info.initial, case .channels(let offset) = property.info.storage else { continue }
            for (k, v) in initial.enumerated() { c[offset + k] = v }
        }
        return c
    }()

    /// Whether `property` is at its table's initial value (always false for one without).
    public func isInitial(_ property: ViewProperty) -> Bool {
        guard let initial = property.info.initial, case .channels = property.info.storage else { return false }
        return get(property).elementsEqual(initial)
    }

    public var borderWidth: Double { channels[ViewProperty.borderWidth.offset] }
    public var borderColor: Color { color(at: ViewProperty.borderColor.offset) }
    public var shadowColor: Color { color(at: ViewProperty.shadowColor.offset) }
    public var shadowOpacity: Double { channels[ViewProperty.shadowOpacity.offset] }
    public var shadowRadius: Double { channels[ViewProperty.shadowRadius.offset] }
    public var shadowOffset: Size {
        Size(w: channels[ViewProperty.shadowOffset.offset], h: channels[ViewProperty.shadowOffset.offset + 1])
    }
    public var clipsToBounds: Bool { channels[ViewProperty.clipsToBounds.offset] != 0 }

    private func color(at o: Int) -> Color { Color(r: channels[o], g: channels[o + 1], b: channels[o + 2], a: channels[o + 3]) }
}

extension ViewValues {
    /// The values of `property`: from the channels, or the view's own `z` / `hidden` (a flag as 1 or 0) for the
    /// properties kept on the view.
    public func value(of property: ViewProperty, z: Double, hidden: Bool) -> ArraySlice<Double> {
        switch property.info.storage {
        case .channels: get(property)
        case .zPosition: [z]
        case .hiddenFlag: [hidden ? 1 : 0]
        case .gradient: get(property)
        }
    }
}
