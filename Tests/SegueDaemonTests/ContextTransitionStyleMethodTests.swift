import Testing
@testable import SegueDaemon
import SegueJSON

/// vc.set's `transition_style` and `provides_presentation_context_transition_style`, and the grabber in scene.tree,
/// on the real connection code.
@Suite("Context transition styles and the grabber over the protocol")
struct ContextTransitionStyleMethodTests {
    @Test("a context that defines and provides its transition style gives it to a currentContext present; vc.get reports transition_style")
    func providedStyle() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("vc.create", ["id": "m"])
        let set = try h.result("vc.set", ["vc": "a", "defines_presentation_context": true,
                                          "provides_presentation_context_transition_style": true,
                                          "transition_style": "crossDissolve"])
        #expect(set?["transition_style"] == "crossDissolve" && set?["provides_presentation_context_transition_style"] == true)
        let started = try h.result("modal.present", ["presenting": "a", "presented": "m", "style": "currentContext",
                                                     "transition_style": "flipHorizontal"])
        #expect(started?["animator"] == "cross-dissolve")
        try h.call("clock.advance", ["ms": 600])
        #expect(try h.result("modal.dismiss", ["presented": "m"])?["animator"] == "cross-dissolve")
        try h.call("clock.advance", ["ms": 600])
        // Not a context style: the request's own.
        #expect(try h.result("modal.present", ["presenting": "a", "presented": "m", "style": "overFullScreen",
                                               "transition_style": "flipHorizontal"])?["animator"] == "flip-horizontal")
        // vc.get of a view controller without one shows no transition_style; a bad one is -32602 naming it.
        #expect(try h.result("vc.get", ["vc": "b"])?["transition_style"] == nil)
        let error = try h.call("vc.set", ["vc": "b", "transition_style": "pageCurl"]).last?["error"]
        #expect(error?["code"] == -32602 && error?["data"]?["param"] == "transition_style")
        #expect(try h.result("vc.create", ["id": "c", "transition_style": "partialCurl"])?["vc"] == "c")
        #expect(try h.result("vc.get", ["vc": "c"])?["transition_style"] == "partialCurl")
    }

    @Test("the grabber is in scene.tree only when a sheet asks for it")
    func grabberInTree() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "main", "size": ["w": 390, "h": 844], "clock": "manual"])
        try h.call("vc.create", ["id": "root"])
        try h.call("scene.set_root", ["vc": "root"])
        try h.call("vc.create", ["id": "m"])
        try h.call("vc.create", ["id": "n"])
        try h.call("modal.present", ["presenting": "root", "presented": "m", "style": "pageSheet", "animated": false])
        #expect(try h.result("scene.tree")?.serialized().contains("grabber") == false)
        try h.call("modal.dismiss", ["presented": "m", "animated": false])
        try h.call("modal.present", ["presenting": "root", "presented": "n", "style": "pageSheet", "animated": false,
                                     "sheet": ["grabber": true]])
        let tree = try h.result("scene.tree")?.serialized() ?? ""
        #expect(tree.contains("\"id\":\"n.presentation.grabber\",\"frame\":{\"x\":177,\"y\":5,\"w\":36,\"h\":5}"))
    }

    @Test("render's spec draws a sheet's grabber when asked for, and refuses one without a sheet style")
    func specGrabber() throws {
        let h = try Harness()
        let spec: JSONValue = ["animator": "default-slide", "kind": "present", "style": "pageSheet", "grabber": true,
                               "size": ["w": 390, "h": 844]]
        let svg = try h.result("render.filmstrip", ["spec": spec, "frames": 2])?["svg"]?.stringValue ?? ""
        #expect(svg.contains("data-view=\"to.presentation.grabber\""))
        #expect(svg.contains("width=\"36\" height=\"5\" rx=\"2.5\""))
        let plain = try h.result("render.filmstrip", ["spec": ["animator": "default-slide", "kind": "present",
                                                               "style": "pageSheet"], "frames": 2])?["svg"]?.stringValue
        #expect(plain?.contains("grabber") == false)
        let error = try h.call("render.filmstrip", ["spec": ["animator": "default-slide", "kind": "present",
                                                             "style": "fullScreen", "grabber": true]]).last?["error"]
        #expect(error?["code"] == -32602 && error?["data"]?["param"] == "spec.grabber")
    }
}
