import Foundation
import SegueJSON
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import SegueDaemon

@Suite("render.frames: a transition as a movie's frames")
struct RenderFramesTests {
    @Test("a 0.5 s flip at 30 fps is 15 whole-scene SVGs, frame i at i/30 s, each well-formed")
    func flipFrames() throws {
        let h = try Harness()
        let result = try #require(try h.result("render.frames", ["spec": ["animator": "flip", "kind": "push"], "fps": 30]))
        #expect(result["fps"] == 30 && result["width"] == 320 && result["height"] == 480)
        #expect(result["span"] == 0.5)
        #expect(result["transition"]?["state"] == "completed")
        let frames = try #require(result["frames"]?.arrayValue)
        #expect(frames.count == 15)
        for (i, frame) in frames.enumerated() {
            #expect(frame["index"]?.intValue == i)
            let time = try #require(frame["time"]?.doubleValue)
            #expect(abs(time - Double(i) / 30) < 1e-9)
            let svg = try #require(frame["svg"]?.stringValue)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"480\""))
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse(), "frame \(i): \(String(describing: parser.parserError))")
        }
        // The first frame is the from-view (red) as the flip begins; the middle one, turned; the last, a frame
        // before the end, the to-view (blue).
        #expect(frames[0]["svg"]?.stringValue?.contains("fill=\"#ff3b30\"") == true)
        #expect(frames[7]["svg"]?.stringValue != frames[0]["svg"]?.stringValue)
        #expect(frames[14]["svg"]?.stringValue?.contains("fill=\"#007aff\"") == true)
    }

    @Test("the frame count is fps × span rounded to the nearest, a half up, at least 1")
    func count() throws {
        let h = try Harness()
        func frames(_ fps: Int, _ duration: Double) throws -> Int? {
            try h.result("render.frames", ["spec": ["animator": "default-slide", "duration": .number(duration)],
                                           "fps": .number(Double(fps))])?["frames"]?.arrayValue?.count
        }
        #expect(try frames(30, 0.25) == 8)   // 7.5 → 8
        #expect(try frames(10, 0.24) == 2)   // 2.4 → 2
        #expect(try frames(1, 0.1) == 1)     // 0.1 → at least one
        #expect(try frames(60, 0.5) == 30)
    }

    @Test("bad fps is -32602 naming fps; more than 600 frames is -32004; the spec is checked as render.* checks it")
    func errors() throws {
        let h = try Harness()
        func error(_ params: JSONValue) throws -> (code: Int?, param: String?, limit: Int?) {
            let e = try h.call("render.frames", params).last?["error"]
            return (e?["code"]?.intValue, e?["data"]?["param"]?.stringValue, e?["data"]?["limit"]?.intValue)
        }
        #expect(try error(["spec": ["animator": "flip"], "fps": 0]) == (-32602, "fps", nil))
        #expect(try error(["spec": ["animator": "flip"], "fps": 121]) == (-32602, "fps", nil))
        #expect(try error(["spec": ["animator": "flip"], "fps": 29.5]) == (-32602, "fps", nil))
        #expect(try error(["spec": ["animator": "no-such"]]) == (-32001, "spec.animator", nil))
        #expect(try error(["spec": ["animator": "flip"], "format": "gif"]) == (-32602, "format", nil))
        #expect(try error([:]) == (-32602, "transition", nil))
        // 10 s at 120 fps.
        #expect(try error(["spec": ["animator": "flip", "duration": 10], "fps": 120]) == (-32004, nil, 600))
        #expect(try h.result("scene.list")?.arrayValue?.count == 0)
    }
}
