/// UIUserInterfaceSizeClass.
public enum SizeClass: String, Sendable, CaseIterable {
    case compact, regular
}

/// A scene's size classes (UITraitCollection's horizontalSizeClass and verticalSizeClass): docs/PROTOCOL.md
/// "Size classes". Split views, and every later adaptive behaviour, read these and no other rule.
public struct Traits: Sendable, Equatable {
    public var horizontal: SizeClass
    public var vertical: SizeClass

    public init(horizontal: SizeClass, vertical: SizeClass) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// Below this width a scene is horizontally compact (pt).
    public static let compactWidthBelow = 600.0
    /// Below this height a scene is vertically compact (pt).
    public static let compactHeightBelow = 500.0

    /// The size rule, with what `override` sets taking its place axis by axis.
    public static func of(_ size: Size, override: TraitOverride = TraitOverride()) -> Traits {
        Traits(horizontal: override.horizontal ?? (size.w < compactWidthBelow ? .compact : .regular),
               vertical: override.vertical ?? (size.h < compactHeightBelow ? .compact : .regular))
    }
}

/// Size classes a client sets instead of the size rule (`traits` of scene.create and scene.resize); an axis left
/// nil follows the size.
public struct TraitOverride: Sendable, Equatable {
    public var horizontal: SizeClass?
    public var vertical: SizeClass?

    public init(horizontal: SizeClass? = nil, vertical: SizeClass? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}
