import SegueJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small helpers for writing SVG text by hand: numbers short and locale-free, text escaped.
enum SVG {
    /// A number with at most `digits` decimals, trailing zeros dropped; non-finite values are written as 0 so the
    /// document always parses.
    static func num(_ value: Double, _ digits: Int = 2) -> String {
        guard value.isFinite else { return "0" }
        let scale = pow(10, Double(digits))
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 }  // no "-0"
        let negative = rounded < 0
        let magnitude = abs(rounded)
        guard magnitude < 1e15 else { return negative ? "-1e15" : "1e15" }
        let whole = magnitude.rounded(.down)
        var text = String(Int64(whole))
        var fraction = Int64(((magnitude - whole) * scale).rounded())
        if fraction >= Int64(scale) {
            text = String(Int64(whole) + 1)
            fraction = 0
        }
        if fraction > 0 {
            var digitsText = String(fraction)
            while digitsText.count < digits { digitsText = "0" + digitsText }
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return negative ? "-" + text : text
    }

    /// Text for an element's content or an attribute value (a character XML cannot carry becomes `?`).
    static func escape(_ text: String) -> String { XMLText.escape(text, replacement: "?") }

    /// One element: `<name a="v" …/>`, or with escaped text content `<name …>text</name>`. Attribute values are
    /// escaped; numbers should already be formatted with `num`.
    static func tag(_ name: String, _ attributes: KeyValuePairs<String, String>, text: String? = nil) -> String {
        var out = "<" + name
        for (key, value) in attributes { out += " \(key)=\"\(escape(value))\"" }
        guard let text else { return out + "/>" }
        return out + ">" + escape(text) + "</\(name)>"
    }

    static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

    /// The document's opening tag.
    static func open(width: Double, height: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(width, 0))\" height=\"\(num(height, 0))\" "
            + "viewBox=\"0 0 \(num(width, 0)) \(num(height, 0))\" font-family=\"\(fontFamily)\">\n"
    }
}
