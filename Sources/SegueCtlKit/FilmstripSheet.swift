import SegueJSON

/// Several `render.filmstrip` pictures stacked into one SVG, one above the other (`seguectl filmstrip A B C`; the
/// README's picture of the bundled animators is one).
public enum FilmstripSheet {
    /// Each result's `svg` is nested as-is at its offset; `width`/`height` come from the results.
    public static func stack(_ results: [JSONValue]) -> String {
        var y = 0.0, width = 0.0
        var body = ""
        for result in results {
            guard let svg = result["svg"]?.stringValue, svg.hasPrefix("<svg") else { continue }
            let w = result["width"]?.doubleValue ?? 0, h = result["height"]?.doubleValue ?? 0
            body += "<svg x=\"0\" y=\"\(Format.number(y))\"" + svg.dropFirst(4)
            y += h
            width = max(width, w)
        }
        let W = Format.number(width), H = Format.number(y)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(W)\" height=\"\(H)\" viewBox=\"0 0 \(W) \(H)\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" + body + "</svg>\n"
    }
}
