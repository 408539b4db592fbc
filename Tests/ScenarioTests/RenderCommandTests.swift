import Foundation
import SegueCtlKit
import SegueJSON
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Render: seguectl preview and filmstrip against a real segued", .serialized)
struct RenderCommandTests {
    func temporaryFile(_ name: String) -> String {
        NSTemporaryDirectory() + "segue-render-\(UUID().uuidString.prefix(8))-" + name
    }

    @Test("preview writes one page holding every frame of the transition and nothing from outside")
    func preview() throws {
        let path = temporaryFile("cross-dissolve.html")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try ctl(["preview", "cross-dissolve", "--spawn", "--out", path])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("wrote \(path)"))
        let html = try String(contentsOfFile: path, encoding: .utf8)
        // The player's frames: one per 1/60 s of the transition, all in the page, each drawn.
        let script = try #require(html.components(separatedBy: "const frames = ").dropFirst().first?.split(separator: "\n").first)
        let frames = try #require(try JSONParser.parse(String(script.dropLast())).arrayValue)
        let span = try #require(frames.last?["time"]?.doubleValue)
        #expect(frames.count == PreviewPage.playerFrames(span: span))
        #expect(span >= 0.5)
        let stage = try #require(html.components(separatedBy: "<div id=\"stage\">").dropFirst().first?
            .components(separatedBy: "</div>").first)
        for i in 0..<frames.count { #expect(stage.contains("data-index=\"\(i)\""), "player frame \(i) missing") }
        #expect(stage.contains("data-view=\"from.view\"") && stage.contains("data-view=\"to.view\""))
        // Curves and events are there too.
        #expect(html.contains("data-property=\"alpha\""))
        #expect(html.contains("transition.completed"))
        let external = ["http://", "https://", "src=", "@import", "<link"].filter { html.lowercased().contains($0) }
        #expect(external == [])
    }

    @Test("preview: an unknown animator is the daemon's error, exit 1; a bad --kind is a usage error, exit 2")
    func previewErrors() throws {
        let unknown = try ctl(["preview", "no-such", "--spawn", "--out", temporaryFile("x.html")])
        #expect(unknown.status == 1)
        #expect(unknown.err.contains("spec.animator"))
        let usage = try ctl(["preview", "flip", "--kind", "sideways"])
        #expect(usage.status == 2)
    }

    @Test("filmstrip stacks several animators into one SVG that parses as XML")
    func filmstripSheet() throws {
        let run = try ctl(["filmstrip", "default-slide", "flip", "--frames", "4", "--spawn"])
        #expect(run.status == 0, "\(run.err)")
        let parser = XMLParser(data: Data(run.out.utf8))
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(run.out.contains("default-slide · select") && run.out.contains("flip · select"))
        #expect(run.out.components(separatedBy: "class=\"frame\"").count - 1 == 8)
    }

    @Test("filmstrip --style and --presentation draw a presentation as it is presented: the presenter stays")
    func filmstripStyle() throws {
        let over = try ctl(["filmstrip", "overlay-present:present", "--style", "overFullScreen", "--frames", "4", "--spawn"])
        #expect(over.status == 0, "\(over.err)")
        #expect(over.out.components(separatedBy: "data-view=\"from.view\"").count - 1 == 4)
        let full = try ctl(["filmstrip", "overlay-present:present", "--frames", "4", "--spawn"])
        #expect(full.out.components(separatedBy: "data-view=\"from.view\"").count - 1 < 4)
        let panel = try ctl(["preview", "side-panel-slide", "--kind", "dismiss", "--presentation", "side-panel",
                             "--spawn", "--out", "-"])
        #expect(panel.status == 0, "\(panel.err)")
        let wrong = try ctl(["filmstrip", "flip", "--style", "custom"])
        #expect(wrong.status == 2 && wrong.err.contains("--style and --presentation go with present or dismiss"))
    }

    @Test("the README's picture is what the README's command makes (regenerate it with that command if this fails)")
    func readmePicture() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("](docs/filmstrips.svg)"))
        #expect(readme.contains("""
            seguectl filmstrip default-slide dt-slide cross-dissolve objcio-animator flip:push \\
                --frames 6 --spawn --out docs/filmstrips.svg
            """))
        let run = try ctl(["filmstrip", "default-slide", "dt-slide", "cross-dissolve", "objcio-animator", "flip:push",
                           "--frames", "6", "--spawn"])
        #expect(run.status == 0, "\(run.err)")
        let committed = try String(contentsOfFile: repositoryRoot + "/docs/filmstrips.svg", encoding: .utf8)
        #expect(run.out == committed, "docs/filmstrips.svg is out of date: run the command in the README's Pictures section")
    }
}
