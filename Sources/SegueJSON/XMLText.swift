/// Text for XML (and so SVG and HTML) element content and attribute values: the five predefined entities, and
/// every character XML 1.0 cannot carry at all — control characters other than tab, newline and carriage return,
/// U+FFFE and U+FFFF — as `replacement`. Shared by the SVG pictures and seguectl's JUnit reports.
public enum XMLText {
    public static func escape(_ text: String, replacement: String = "\u{FFFD}") -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += replacement
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
