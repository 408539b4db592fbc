import SegueJSON
import Testing

@testable import SegueCtlKit

/// Whatever in a page would make a browser fetch something: URLs, src/href attributes that are not fragments,
/// url(...) that is not a fragment, CSS imports.
func externalReferences(in html: String) -> [String] {
    var found: [String] = []
    let lower = html.lowercased()
    for needle in ["http://", "https://", "ftp://", "file://", "src=", "@import", "srcset=", "<link", "<iframe",
                   "<object", "<embed", "<img"] where lower.contains(needle) {
        found.append(needle)
    }
    for marker in ["href=\"", "href='", "url("] {
        var rest = Substring(lower)
        while let range = rest.range(of: marker) {
            rest = rest[range.upperBound...]
            let next = rest.first.map(String.init) ?? ""
            if next != "#" { found.append(marker + String(rest.prefix(20))) }
        }
    }
    return found
}

@Suite("Render: seguectl preview's page")
struct RenderPreviewPageTests {
    /// A render.filmstrip-like result with `n` frames.
    static func strip(_ n: Int, warning: String = "a warning") -> JSONValue {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n * 172)\" height=\"300\">"
        var frames: [JSONValue] = []
        for i in 0..<n {
            svg += "<g class=\"frame\" data-index=\"\(i)\"><rect x=\"\(i * 172)\" width=\"160\" height=\"240\" fill=\"#ff0000\"/></g>"
            frames.append(["index": .number(Double(i)), "time": .number(Double(i) / 60), "x": .number(Double(i * 172)),
                           "y": 36, "w": 160, "h": 264])
        }
        svg += "</svg>"
        return [
            "svg": .string(svg), "frames": .array(frames),
            "transition": ["duration": 0.5, "state": "completed", "started_at": 0, "ended_at": 0.5, "problems": []],
            "events": [
                ["seq": 1, "type": "transition.began", "time": 0, "animator": "x"],
                ["seq": 2, "type": "plugin.warning", "time": 0.1,
                 "message": .string(warning)],
            ],
        ]
    }

    static func page(playerFrames: Int = 31, warning: String = "a warning") -> String {
        PreviewPage.html(PreviewPage.Input(
            animator: "my<animator>", kind: "select", filmstrip: strip(8, warning: warning), player: strip(playerFrames),
            timeline: ["svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><g class=\"plot\"/></svg>"]))
    }

    @Test("the page holds every frame of the player, with a scrubber over all of them")
    func everyFrame() throws {
        let html = Self.page(playerFrames: 31)
        for i in 0..<31 { #expect(html.contains("data-index=\"\(i)\""), "frame \(i) missing") }
        // 31 player frames + 8 filmstrip frames.
        #expect(html.components(separatedBy: "class=\"frame\"").count - 1 == 39)
        #expect(html.contains("type=\"range\" min=\"0\" max=\"30\""))
        #expect(html.contains("id=\"play\""))
        // The player's script knows each frame's place and time.
        let script = try #require(html.components(separatedBy: "const frames = ").dropFirst().first?.split(separator: "\n").first)
        let frames = try JSONParser.parse(String(script.dropLast()))
        #expect(frames.arrayValue?.count == 31)
        #expect(frames.arrayValue?.last?["x"] == 5160)
    }

    @Test("the page refers to nothing outside itself")
    func selfContained() throws {
        #expect(externalReferences(in: Self.page()) == [])
    }

    @Test("text from plugins (an event's message, the animator's name) cannot break out of the page")
    func escaped() throws {
        let html = Self.page(warning: "</script><script>alert(1)</script> & <b>")
        #expect(!html.contains("</script><script"))
        #expect(!html.contains("<b>"))
        #expect(html.contains("&lt;/script&gt;"))
        #expect(html.contains("my&lt;animator&gt;"))
        #expect(html.components(separatedBy: "<script>").count == 2)  // the page's own script, once
    }

    @Test("the checker itself finds external references")
    func checkerFinds() {
        #expect(externalReferences(in: "<img src=\"a.png\">") != [])
        #expect(externalReferences(in: "<a href=\"https://x\">") != [])
        #expect(externalReferences(in: "<rect fill=\"url(pattern.svg#p)\"/>") != [])
        #expect(externalReferences(in: "<rect clip-path=\"url(#c)\"/><a href=\"#top\">") == [])
    }

    @Test("player frames: one per 1/60 s over the span, both ends included, within 2…600")
    func playerFrames() {
        #expect(PreviewPage.playerFrames(span: 0.5) == 31)
        #expect(PreviewPage.playerFrames(span: 0) == 2)
        #expect(PreviewPage.playerFrames(span: 100) == 600)
    }

    @Test("filmstrip sheets stack results one under another")
    func sheet() {
        let a: JSONValue = ["svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\"><rect/></svg>", "width": 100, "height": 50]
        let b: JSONValue = ["svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"40\"><rect/></svg>", "width": 120, "height": 40]
        let sheet = FilmstripSheet.stack([a, b])
        #expect(sheet.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"90\""))
        #expect(sheet.contains("<svg x=\"0\" y=\"0\" xmlns") && sheet.contains("<svg x=\"0\" y=\"50\" xmlns"))
    }
}
