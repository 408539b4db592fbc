import SegueJSON
import SegueKit
import SegueRender

/// The picture of a motion difference (SVG): for each view property that moved differently, its old curve (grey,
/// dashed) and its new one (red) over the transition's frames; then the first differing frame, old and new side by
/// side, each view drawn at its presentation frame. Alpha is clamped to 0…1 and a corner radius below 0 drawn as 0
/// (a spring's overshoot gives such values; the snapshot keeps them raw).
public enum MotionPicture {
    public static func svg(old: JSONValue, new: JSONValue, difference: MotionDifference, sceneSize: (w: Double, h: Double),
                           title: String) -> String
    {
        let oldT = old["transitions"]?.arrayValue ?? [], newT = new["transitions"]?.arrayValue ?? []
        let oldFrames = difference.transition < oldT.count ? states(oldT[difference.transition]) : []
        let newFrames = difference.transition < newT.count ? states(newT[difference.transition]) : []
        // One chart per numeric component that moved (frame.x, alpha, transform.tx, …), at most 12.
        var series: [(label: String, old: [Double?], new: [Double?])] = []
        for (view, property) in difference.moved {
            var components: [String] = []
            for state in oldFrames + newFrames {
                for c in numericComponents(state[view]?[property]) where !components.contains(c.name) { components.append(c.name) }
            }
            for name in components {
                func values(_ frames: [[String: JSONObject]]) -> [Double?] {
                    frames.map { state in
                        numericComponents(state[view]?[property]).first { $0.name == name }.map { clamp(property, $0.value) }
                    }
                }
                let o = values(oldFrames), n = values(newFrames)
                if o.count == n.count, zip(o, n).allSatisfy({ $0 == $1 }) { continue }
                series.append(("\(view) \(property)\(name.isEmpty ? "" : "." + name)", o, n))
            }
        }
        series = Array(series.prefix(12))
        let chartW = 360.0, chartH = 120.0, margin = 16.0
        let scale = min(1, 240 / max(sceneSize.w, sceneSize.h / 1.5))
        let panelW = sceneSize.w * scale, panelH = sceneSize.h * scale
        let columns = 2.0
        let rows = (Double(series.count) / columns).rounded(.up)
        let chartsHeight = rows * (chartH + 36)
        let width = max(columns * (chartW + margin) + margin, 2 * (panelW + margin) + margin)
        let top = 64.0
        let height = top + chartsHeight + (difference.frame == nil ? 0 : panelH + 56) + margin
        var out = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(width))" height="\##(n(height))" font-family="sans-serif" font-size="11">"## + "\n"
        out += ##"<rect width="100%" height="100%" fill="#ffffff"/>"## + "\n"
        out += text(margin, 20, Format.truncate(title, limit: 110), size: 13, bold: true)
        out += text(margin, 36, Format.truncate(difference.description, limit: 150), size: 11)
        out += text(margin, 52, "- - snapshot (old)", color: "#888888") + text(margin + 120, 52, "—— new", color: "#d0021b")
            + text(margin + 200, 52, "| first differing frame", color: "#f5a623")
        for (i, s) in series.enumerated() {
            let x = margin + Double(i % Int(columns)) * (chartW + margin)
            let y = top + Double(i / Int(columns)) * (chartH + 36)
            out += chart(s, x: x, y: y, w: chartW, h: chartH, mark: difference.frame)
        }
        if let f = difference.frame {
            let y = top + chartsHeight + 20
            out += text(margin, y - 4, "\(MotionSnapshot.frameName(f)): snapshot", bold: true)
            out += text(margin * 2 + panelW, y - 4, "\(MotionSnapshot.frameName(f)): new", bold: true)
            let order = (newT.indices.contains(difference.transition) ? newT[difference.transition]["start"]?.arrayValue ?? [] : [])
                .compactMap { $0["id"]?.stringValue }
            out += panel(f < oldFrames.count ? oldFrames[f] : [:], order: order, x: margin, y: y, w: panelW, h: panelH, scale: scale,
                         prefix: "old")
            out += panel(f < newFrames.count ? newFrames[f] : [:], order: order, x: margin * 2 + panelW, y: y, w: panelW, h: panelH,
                         scale: scale, prefix: "new")
        }
        return out + "</svg>\n"
    }

    /// Each frame's full presentation state of the views seen so far in the transition (frame events carry only
    /// what changed).
    static func states(_ transition: JSONValue) -> [[String: JSONObject]] {
        var current: [String: JSONObject] = MotionSnapshot.views(.object(JSONObject([("views", transition["start"] ?? .null)])))
        var out: [[String: JSONObject]] = [current]
        for frame in transition["frames"]?.arrayValue ?? [] {
            for (id, values) in MotionSnapshot.views(frame) {
                var merged = current[id] ?? JSONObject()
                for (k, v) in values { merged[k] = v }
                current[id] = merged
            }
            out.append(current)
        }
        return out
    }

    static func numericComponents(_ value: JSONValue?) -> [(name: String, value: Double)] {
        switch value {
        case .number(let x)?: return [("", x)]
        case .bool(let b)?: return [("", b ? 1 : 0)]
        case .object(let o)?:
            if case .array(let m)? = o["m"] { return m.enumerated().compactMap { i, v in v.doubleValue.map { ("m\(i + 1)", $0) } } }
            return o.compactMap { k, v in v.doubleValue.map { (k, $0) } }
        default: return []
        }
    }

    /// A value as the picture draws it: pulled into its property's model range (the view-property table's).
    static func clamp(_ property: String, _ x: Double) -> Double {
        ViewProperty.allCases.first { $0.info.name == property }?.info.range.pinned(x) ?? x
    }

    static func chart(_ s: (label: String, old: [Double?], new: [Double?]), x: Double, y: Double, w: Double, h: Double,
                      mark: Int?) -> String
    {
        let all = (s.old + s.new).compactMap { $0 }
        var lo = all.min() ?? 0, hi = all.max() ?? 1
        if hi - lo < 1e-9 { lo -= 0.5; hi += 0.5 }
        let count = max(s.old.count, s.new.count, 2)
        func px(_ i: Int) -> Double { x + Double(i) / Double(count - 1) * w }
        func py(_ v: Double) -> Double { y + 16 + h - (v - lo) / (hi - lo) * h }
        var out = text(x, y + 10, s.label, bold: true)
        out += ##"<rect x="\##(n(x))" y="\##(n(y + 16))" width="\##(n(w))" height="\##(n(h))" fill="none" stroke="#dddddd"/>"## + "\n"
        out += text(x + w + 2, y + 20, Format.number(hi, decimals: 3), color: "#888888")
        out += text(x + w + 2, y + 16 + h, Format.number(lo, decimals: 3), color: "#888888")
        if let mark {
            out += ##"<line x1="\##(n(px(mark)))" y1="\##(n(y + 16))" x2="\##(n(px(mark)))" y2="\##(n(y + 16 + h))" stroke="#f5a623"/>"## + "\n"
        }
        func line(_ values: [Double?], color: String, dash: Bool) -> String {
            let points = values.enumerated().compactMap { i, v in v.map { "\(n(px(i))),\(n(py($0)))" } }
            guard !points.isEmpty else { return "" }
            return ##"<polyline fill="none" stroke="\##(color)" stroke-width="1.5"\##(dash ? ##" stroke-dasharray="4 3""## : "") points="\##(points.joined(separator: " "))"/>"## + "\n"
        }
        return out + line(s.old, color: "#888888", dash: true) + line(s.new, color: "#d0021b", dash: false)
    }

    /// One frame's views drawn as the filmstrip draws them (SegueRender's `StateDrawing`: anchor points, 3-D
    /// transforms as projected quads, the superview's sublayer transform, z order, the layer's look), scaled into
    /// the panel. `prefix` keeps the two panels' element ids apart.
    static func panel(_ state: [String: JSONObject], order: [String], x: Double, y: Double, w: Double, h: Double,
                      scale: Double, prefix: String) -> String
    {
        var out = ##"<rect x="\##(n(x))" y="\##(n(y))" width="\##(n(w))" height="\##(n(h))" fill="#f4f4f4" stroke="#cccccc"/>"## + "\n"
        out += ##"<svg x="\##(n(x))" y="\##(n(y))" width="\##(n(w))" height="\##(n(h))"><g transform="scale(\##(Format.number(scale, decimals: 6)))">"## + "\n"
        out += StateDrawing.svg(state, order: order, labelSize: 11 / max(scale, 1e-6), idPrefix: prefix)
        return out + "</g></svg>\n"
    }

    static func text(_ x: Double, _ y: Double, _ s: String, size: Double = 11, bold: Bool = false,
                     color: String = "#222222") -> String
    {
        ##"<text x="\##(n(x))" y="\##(n(y))" font-size="\##(n(size))" fill="\##(color)"\##(bold ? ##" font-weight="bold""## : "")>\##(XMLText.escape(s))</text>"## + "\n"
    }

    static func n(_ x: Double) -> String { Format.number(x, decimals: 2) }
}
