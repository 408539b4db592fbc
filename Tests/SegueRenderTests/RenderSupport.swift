import Foundation
import SegueKit
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A manual scene with a custom container [a (red), b (blue)] on screen.
func makeScene() throws -> (Scene, ContainerViewController, ViewController, ViewController) {
    let scene = Scene(id: "render-test", size: Size(w: 320, h: 480), clock: .manual)
    let a = try scene.createViewController(id: "a", title: "A", color: Color(hex: "#ff0000"))
    let b = try scene.createViewController(id: "b", title: "B", color: Color(hex: "#0000ff"))
    let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
    try scene.setRoot(container)
    return (scene, container, a, b)
}

/// A parsed XML element: name, attributes, children, text.
final class Element {
    let name: String
    let attributes: [String: String]
    var children: [Element] = []
    var text = ""
    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every descendant (and self) that matches.
    func all(_ where: (Element) -> Bool) -> [Element] {
        var found: [Element] = []
        func walk(_ e: Element) {
            if `where`(e) { found.append(e) }
            for c in e.children { walk(c) }
        }
        walk(self)
        return found
    }

    func all(named name: String, class cls: String? = nil) -> [Element] {
        all { $0.name == name && (cls == nil || $0.attributes["class"] == cls) }
    }

    func double(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
}

/// Parses XML with FoundationXML's XMLParser (it reports an error for anything that is not well-formed XML).
func parseXML(_ text: String) throws -> Element {
    final class Delegate: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let e = Element(name: name, attributes: attributes)
            stack.last?.children.append(e)
            if root == nil { root = e }
            stack.append(e)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }
    let parser = XMLParser(data: Data(text.utf8))
    let delegate = Delegate()
    parser.delegate = delegate
    let ok = parser.parse()
    let root = try #require(delegate.root)
    #expect(ok, "XML error: \(String(describing: parser.parserError))")
    return root
}

/// The rsvg-convert that scripts/setup installs (librsvg2-bin).
func rsvgConvert() -> String? {
    ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Draws the SVG to a PNG with rsvg-convert; returns the PNG's bytes.
func rasterize(_ svg: String) throws -> Data {
    let tool = try #require(rsvgConvert(), "rsvg-convert is missing: run scripts/setup (apt-get install librsvg2-bin)")
    let dir = NSTemporaryDirectory() + "segue-render-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try svg.write(toFile: dir + "/in.svg", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-o", dir + "/out.png", dir + "/in.svg"]
    let err = Pipe()
    process.standardError = err
    try process.run()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "rsvg-convert: \(message)")
    return (try? Data(contentsOf: URL(fileURLWithPath: dir + "/out.png"))) ?? Data()
}

/// The points of an SVG path's M/L commands.
func pathPoints(_ d: String) -> [(x: Double, y: Double)] {
    var numbers: [Double] = []
    var current = ""
    for ch in d {
        if ch.isNumber || ch == "." || (ch == "-" && current.isEmpty) {
            current.append(ch)
        } else {
            if let n = Double(current) { numbers.append(n) }
            current = ch == "-" ? "-" : ""
        }
    }
    if let n = Double(current) { numbers.append(n) }
    return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
}
