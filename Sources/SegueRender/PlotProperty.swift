#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueKit

/// A number `render.timeline` can plot for a view: a property or one component of it, by the name clients give in
/// `properties` (`frame.x`, `alpha`, `transform.rotation_y`, …).
public struct PlotProperty: Sendable, Equatable {
    public let name: String
    /// What the y axis says.
    public let unit: String
    let value: @Sendable (ViewValues) -> Double

    public static func == (l: PlotProperty, r: PlotProperty) -> Bool { l.name == r.name }

    static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }

    /// Every name, in the order panels are drawn.
    public static let all: [PlotProperty] = {
        var list: [PlotProperty] = [
            PlotProperty(name: "frame.x", unit: "pt") { $0.frame.x },
            PlotProperty(name: "frame.y", unit: "pt") { $0.frame.y },
            PlotProperty(name: "frame.w", unit: "pt") { $0.frame.w },
            PlotProperty(name: "frame.h", unit: "pt") { $0.frame.h },
            PlotProperty(name: "center.x", unit: "pt") { $0.center.x },
            PlotProperty(name: "center.y", unit: "pt") { $0.center.y },
            PlotProperty(name: "bounds.x", unit: "pt") { $0.bounds.x },
            PlotProperty(name: "bounds.y", unit: "pt") { $0.bounds.y },
            PlotProperty(name: "bounds.w", unit: "pt") { $0.bounds.w },
            PlotProperty(name: "bounds.h", unit: "pt") { $0.bounds.h },
            PlotProperty(name: "alpha", unit: "") { $0.alpha },
            // Translation, scale and single-axis rotation angles read off the matrix (exact for a transform made
            // of one rotation, a scale and a translation, which is what animators build).
            PlotProperty(name: "transform.tx", unit: "pt") { $0.channels[7 + 12] },
            PlotProperty(name: "transform.ty", unit: "pt") { $0.channels[7 + 13] },
            PlotProperty(name: "transform.tz", unit: "pt") { $0.channels[7 + 14] },
            PlotProperty(name: "transform.sx", unit: "×") { c in
                let m = c.channels
                return (m[7] * m[7] + m[8] * m[8] + m[9] * m[9]).squareRoot()
            },
            PlotProperty(name: "transform.sy", unit: "×") { c in
                let m = c.channels
                return (m[11] * m[11] + m[12] * m[12] + m[13] * m[13]).squareRoot()
            },
            PlotProperty(name: "transform.rotation", unit: "°") { degrees(atan2($0.channels[8], $0.channels[7])) },
            PlotProperty(name: "transform.rotation_x", unit: "°") { degrees(atan2($0.channels[13], $0.channels[12])) },
            PlotProperty(name: "transform.rotation_y", unit: "°") { degrees(atan2(-$0.channels[9], $0.channels[7])) },
        ]
        for row in 1...4 {
            for column in 1...4 {
                let index = 7 + (row - 1) * 4 + (column - 1)
                list.append(PlotProperty(name: "transform.m\(row)\(column)", unit: "") { $0.channels[index] })
            }
        }
        list += [
            PlotProperty(name: "color.r", unit: "") { $0.color.r },
            PlotProperty(name: "color.g", unit: "") { $0.color.g },
            PlotProperty(name: "color.b", unit: "") { $0.color.b },
            PlotProperty(name: "color.a", unit: "") { $0.color.a },
        ]
        return list + scalars.filter { scalar in !list.contains { $0.name == scalar.name } }
    }()

    /// Each one-number property of the view-property table kept in channels (the corner radius, …), under its name.
    static let scalars: [PlotProperty] = ViewProperty.allCases.compactMap { property in
        let info = property.info
        guard info.kind == .number, case .channels(let offset) = info.storage else { return nil }
        return PlotProperty(name: info.name, unit: info.unit) { $0.channels[offset] }
    }

    /// The ones considered when `properties` is not given (each drawn only if it changes).
    public static let defaults: [String] = [
        "frame.x", "frame.y", "frame.w", "frame.h", "alpha", "transform.tx", "transform.ty", "transform.sx",
        "transform.sy", "transform.rotation", "transform.rotation_x", "transform.rotation_y", "color.r", "color.g",
        "color.b", "color.a",
    ] + scalars.map(\.name).filter { $0 != "alpha" }

    public static func named(_ name: String) -> PlotProperty? { all.first { $0.name == name } }
}
