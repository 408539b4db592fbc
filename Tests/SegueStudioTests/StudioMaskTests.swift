import Foundation
import Testing

@testable import SegueStudio

/// The studio page's own Chromium (scripts/setup --tests installs it).
private let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// The studio's CSS mask (CALayer.mask): the page's own `maskLook` run in headless Chromium on hand-made tree nodes,
/// its mask image read back and held to hand-computed geometry — the mask view placed about its anchor point, through
/// its own transform, at its position in the masked view's bounds.
@Suite("Studio: the mask image follows the mask view's transform")
struct StudioMaskTests {
    /// The text of the page's `function name(…) { … }` (from its line to the first line that is just `}`).
    static func function(_ name: String) throws -> String {
        let html = StudioPage.html
        let start = try #require(html.range(of: "function \(name)("))
        let end = try #require(html.range(of: "\n}\n", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// Runs `maskLook` on each (view, mask view) pair of JavaScript objects and returns each mask image's SVG.
    static func maskImages(_ pairs: [String]) throws -> [String] {
        let tool = try #require(chromium)
        let script = try ["clamp", "maskShape", "maskLook"].map(function).joined(separator: "\n") + """
            const out = [];
            for (const [v, m] of [\(pairs.joined(separator: ","))]) {
              const el = { style: {} };
              maskLook(el, v, m);
              out.push(el.style.maskImage);
            }
            document.body.setAttribute("data-out", encodeURIComponent(JSON.stringify(out)));
            """
        let folder = NSTemporaryDirectory() + "segue-studio-mask-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = folder + "/page.html"
        try "<!doctype html><html><body><script>\n\(script)\n</script></body></html>".write(
            toFile: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder)/profile",
                             "--dump-dom", "file://" + page]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let dom = String(decoding: data, as: UTF8.self)
        let attribute = try #require(dom.range(of: "data-out=\""))
        let value = dom[attribute.upperBound...].prefix { $0 != "\"" }
        let json = try #require(String(value).removingPercentEncoding)
        let urls = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        // url("data:image/svg+xml,…") → the SVG.
        return try urls.map { url in
            let body = try #require(url.range(of: "data:image/svg+xml,"))
            return try #require(String(url[body.upperBound...].dropLast(2)).removingPercentEncoding)
        }
    }

    /// The numbers in `text` after `marker` (up to the next quote).
    static func numbers(_ text: String, after marker: String) throws -> [Double] {
        let start = try #require(text.range(of: marker))
        let field = text[start.upperBound...].prefix { $0 != "'" }
        return field.split(whereSeparator: { " ,MLZ()".contains($0) }).compactMap { Double($0) }
    }

    @Test("2-D: a turned mask view is placed about its anchor point at its position (the masked bounds' origin off)",
          .enabled(if: chromium != nil, "needs chromium (scripts/setup --tests)"))
    func affine() throws {
        let view = #"{ bounds: { x: 10, y: 0, w: 200, h: 100 } }"#
        let mask = ##"{ bounds: { x: 0, y: 0, w: 40, h: 20 }, center: { x: 50, y: 30 }, alpha: 1, color: "#000000","##
            + ##" transform: { a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0 } }"##
        let svg = try #require(try Self.maskImages(["[\(view), \(mask)]"]).first)
        #expect(svg.contains("<rect x='0' y='0' width='40' height='20'"), "\(svg)")
        // (p − (20, 10))·[0 1; −1 0] + (50, 30) − (10, 0): the corner (0, 0) lands at (50, 10).
        let m = try Self.numbers(svg, after: "matrix(")
        let expected: [Double] = [0, 1, -1, 0, 50, 10]
        #expect(m.count == 6 && zip(m, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(m)")
    }

    @Test("3-D: a mask view with a perspective is drawn projected, about an anchor point at its corner",
          .enabled(if: chromium != nil, "needs chromium (scripts/setup --tests)"))
    func projected() throws {
        let view = #"{ bounds: { x: 0, y: 0, w: 300, h: 200 } }"#
        let mask = #"{ bounds: { x: 0, y: 0, w: 100, h: 50 }, center: { x: 100, y: 50 }, anchor_point: { x: 0, y: 0 },"#
            + ##" alpha: 0.5, color: "#000000", transform: { m: [1, 0, 0, 0.001, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] } }"##
        let svg = try #require(try Self.maskImages(["[\(view), \(mask)]"]).first)
        #expect(svg.contains("fill-opacity='0.5'"), "\(svg)")
        // w = 1 + 0.001·x: the corners (0, 0), (100, 0), (100, 50), (0, 50) at (100, 50), (190.909, 50),
        // (190.909, 95.4545), (100, 100).
        let points = try Self.numbers(svg, after: "d='")
        let expected: [Double] = [100, 50, 190.9090909, 50, 190.9090909, 95.4545454, 100, 100]
        #expect(points.count == 8 && zip(points, expected).allSatisfy { abs($0 - $1) < 1e-3 }, "\(points)")
    }
}
