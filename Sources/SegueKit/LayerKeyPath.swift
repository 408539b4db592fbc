#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key path an explicit layer animation (`view:add_animation`) animates: a view property, or one field of it,
/// named as Core Animation names it (`opacity`, `position.x`, `transform.rotation.z`, `bounds.size.width`) or by
/// segued's property name (`alpha`, `center.x`).
///
/// **The key-path table** is `ViewProperty.caKeyPath` (one entry per property, derived from the property table:
/// the camelCase of its Lua name unless CA names it otherwise) and `fields(of:)` (the fields of a value kind). A
/// property added to `ViewProperty` gets its key paths from here without another edit, unless CA's name is not
/// the camelCase of segued's (then it goes in `caNames`).
public struct LayerKeyPath: Sendable, Equatable {
    /// Which part of the property's value the animation's values are.
    public enum Field: Sendable, Equatable {
        /// The whole value.
        case whole
        /// `count` channels of the property from `start` (`position.x`, `bounds.size`).
        case channels(start: Int, count: Int)
        /// A field of a transform, on its 3-D decomposition (`transform.rotation.y`, `transform.scale`).
        case transform(TransformField)
    }

    /// CA's transform key paths (Apple, Core Animation Programming Guide, "Key-Value Coding Extensions",
    /// "CATransform3D Key Paths"): `rotation` is `rotation.z`, `scale` the average of the three scales (writing it
    /// sets all three), `translation` a size (x and y).
    public enum TransformField: String, Sendable, CaseIterable {
        case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation = "rotation"
        case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale = "scale"
        case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
        case translation = "translation"

        /// How many numbers the field's values have.
        var count: Int { self == .translation ? 2 : 1 }
    }

    public let property: ViewProperty
    public let field: Field

    /// How many numbers one value of the animation has.
    public var valueCount: Int {
        switch field {
        case .whole: property.count
        case .channels(_, let count): count
        case .transform(let t): t.count
        }
    }

    /// The value kind a value of the animation is written in: the property's own for the whole value; a number,
    /// or a pair for two channels.
    public var valueKind: ViewValueKind {
        if case .whole = field { return property.info.kind }
        return valueCount == 1 ? .number : .point
    }

    /// CA's names of the properties whose CA name is not the camelCase of segued's (UIView.center is
    /// CALayer.position, alpha its opacity, backgroundColor its color).
    static let caNames: [String: String] = [
        "center": "position", "alpha": "opacity", "color": "backgroundColor", "z": "zPosition",
        "clips_to_bounds": "masksToBounds",
    ]

    /// The fields of a value kind and where they lie in its channels: CGPoint's, CGRect's and CATransform3D's key
    /// paths. A kind not named here has none (only the whole value animates).
    static func fields(of kind: ViewValueKind) -> [(String, Field)] {
        switch kind {
        case .point:
            return [("x", .channels(start: 0, count: 1)), ("y", .channels(start: 1, count: 1))]
        case .rect:
            return [("origin", .channels(start: 0, count: 2)), ("size", .channels(start: 2, count: 2)),
                    ("origin.x", .channels(start: 0, count: 1)), ("origin.y", .channels(start: 1, count: 1)),
                    ("size.width", .channels(start: 2, count: 1)), ("size.height", .channels(start: 3, count: 1))]
        case .transform:
            return TransformField.allCases.map { ($0.rawValue, .transform($0)) }
        default:
            return []
        }
    }

    /// Every key path by name: CA's and segued's, for every property that animates.
    public static let table: [String: LayerKeyPath] = {
        var table: [String: LayerKeyPath] = [:]
        // `position` is `center` under CALayer's name (one stored value): its key paths are center's, already here.
        for property in ViewProperty.allCases where property.animates && property.stored == property {
            for base in Set([property.caKeyPath, property.name]) {
                table[base] = LayerKeyPath(property: property, field: .whole)
                for (suffix, field) in fields(of: property.info.kind) {
                    table[base + "." + suffix] = LayerKeyPath(property: property, field: field)
                }
            }
        }
        return table
    }()

    /// The key paths in CA's names, sorted (for docs and "did you mean").
    public static var caNamesListed: [String] {
        ViewProperty.allCases.filter { $0.animates && $0.stored == $0 }.flatMap { p in
            [p.caKeyPath] + fields(of: p.info.kind).map { p.caKeyPath + "." + $0.0 }
        }
    }

    /// The key path `name` names, nil when none does.
    public static func named(_ name: String) -> LayerKeyPath? { table[name] }

    /// How a straight segment between two values of `property` is interpolated: a 2-D transform by decomposition
    /// (`AffineDecomposition`), anything else channel by channel (nil).
    static func segmentInterpolation(for property: ViewProperty) -> (([Double], [Double]) -> ((Double) -> [Double])?)? {
        switch property.info.kind {
        case .transform: { AffineDecomposition.path(from: $0, to: $1) }
        // A gradient's lists of different lengths jump half-way (`GradientValues.discretePath`); equal ones are lines.
        case .colorList, .numberList: { $0.count != $1.count ? GradientValues.discretePath(from: $0, to: $1) : nil }
        default: nil
        }
    }

    /// The presentation value of the property when the animation shows `value` over the model value `model`.
    /// A field replaces its part of the model (added to it when `additive`): a transform's field its part of the
    /// model's 3-D decomposition (`TransformFields`), the others kept. A whole additive value is added channel by
    /// channel, a transform concatenated (the animation's first, then the model's).
    func compose(_ value: [Double], over model: [Double], additive: Bool) -> [Double] {
        switch field {
        case .whole:
            guard additive else { return value }
            if property.info.kind == .transform {
                return Transform3D.concat(Transform3D(values: value), Transform3D(values: model)).values
            }
            var out = model
            for c in 0..<min(out.count, value.count) { out[c] += value[c] }
            return out
        case .channels(let start, let count):
            var out = model
            for k in 0..<min(count, value.count) where start + k < out.count {
                out[start + k] = additive ? out[start + k] + value[k] : value[k]
            }
            return out
        case .transform(let t):
            var f = TransformFields(Transform3D(values: model))
            func put(_ old: Double, _ v: Double) -> Double { additive ? old + v : v }
            let v = value.first ?? 0
            switch t {
            case .rotationX: f.rotation.x = put(f.rotation.x, v)
            case .rotationY: f.rotation.y = put(f.rotation.y, v)
            case .rotation, .rotationZ: f.rotation.z = put(f.rotation.z, v)
            case .scaleX: f.scale.x = put(f.scale.x, v)
            case .scaleY: f.scale.y = put(f.scale.y, v)
            case .scaleZ: f.scale.z = put(f.scale.z, v)
            case .scale:
                f.scale = SIMD3(put(f.scale.x, v), put(f.scale.y, v), put(f.scale.z, v))
            case .translationX: f.translation.x = put(f.translation.x, v)
            case .translationY: f.translation.y = put(f.translation.y, v)
            case .translationZ: f.translation.z = put(f.translation.z, v)
            case .translation:
                f.translation.x = put(f.translation.x, v)
                f.translation.y = put(f.translation.y, value.count > 1 ? value[1] : 0)
            }
            return f.transform.values
        }
    }

    /// The field's value in a model value (what `from` or `to` defaults to).
    func read(_ model: [Double]) -> [Double] {
        switch field {
        case .whole: return model
        case .channels(let start, let count): return Array(model[start..<min(model.count, start + count)])
        case .transform(let t):
            let f = TransformFields(Transform3D(values: model))
            switch t {
            case .rotationX: return [f.rotation.x]
            case .rotationY: return [f.rotation.y]
            case .rotation, .rotationZ: return [f.rotation.z]
            case .scaleX: return [f.scale.x]
            case .scaleY: return [f.scale.y]
            case .scaleZ: return [f.scale.z]
            case .scale: return [(f.scale.x + f.scale.y + f.scale.z) / 3]
            case .translationX: return [f.translation.x]
            case .translationY: return [f.translation.y]
            case .translationZ: return [f.translation.z]
            case .translation: return [f.translation.x, f.translation.y]
            }
        }
    }
}

extension ViewProperty {
    /// The property's Core Animation key path (`opacity` for `alpha`): `LayerKeyPath.caNames`, else the camelCase
    /// of its Lua name (`corner_radius` → `cornerRadius`, `shadow_opacity` → `shadowOpacity`).
    public var caKeyPath: String {
        if let name = LayerKeyPath.caNames[name] { return name }
        var out = ""
        var upper = false
        for ch in name {
            if ch == "_" {
                upper = true
                continue
            }
            out += upper ? ch.uppercased() : String(ch)
            upper = false
        }
        return out
    }
}
