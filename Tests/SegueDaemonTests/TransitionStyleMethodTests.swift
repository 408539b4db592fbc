import Testing
@testable import SegueDaemon
import SegueJSON

/// modal.present's `transition_style` on the real connection code.
@Suite("modal.present transition_style")
struct TransitionStyleMethodTests {
    @Test("an unknown transition style, or partialCurl off fullScreen, is -32602 naming transition_style; nothing is presented")
    func badTransitionStyle() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("vc.create", ["id": "m"])
        let cases: [(JSONValue, String)] = [
            (["presenting": "tabs", "presented": "m", "transition_style": "pageCurl"], "coverVertical"),
            (["presenting": "tabs", "presented": "m", "transition_style": 3], "transition_style"),
            (["presenting": "tabs", "presented": "m", "style": "overFullScreen", "transition_style": "partialCurl"],
             "fullScreen"),
        ]
        for (params, mentions) in cases {
            let error = try h.call("modal.present", params).last?["error"]
            #expect(error?["code"] == -32602, "\(params.serialized())")
            #expect(error?["data"]?["param"] == "transition_style", "\(params.serialized())")
            #expect(error?["message"]?.stringValue?.contains(mentions) == true, "\(params.serialized())")
        }
        #expect(try h.result("transition.list")?.arrayValue?.isEmpty == true)
        let started = try h.result("modal.present", ["presenting": "tabs", "presented": "m", "transition_style": "crossDissolve"])
        #expect(started?["animator"] == "cross-dissolve")
        #expect(started?["duration"] == 0.5)
    }
}
