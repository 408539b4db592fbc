@testable import SegueCtlKit
import SegueJSON
import Testing

@Suite("seguectl's printers")
struct PrinterTests {
    static func view(_ id: String, x: Double = 0, alpha: Double = 1, tx: Double = 0, color: String = "#ffffff",
                     hidden: Bool = false, subviews: [JSONValue] = [], now: JSONValue? = nil) -> JSONValue
    {
        var o: JSONObject = [
            "id": .string(id), "frame": ["x": .number(x), "y": 0, "w": 320, "h": 480], "alpha": .number(alpha),
            "transform": ["a": 1, "b": 0, "c": 0, "d": 1, "tx": .number(tx), "ty": 0], "hidden": .bool(hidden),
            "color": .string(color), "corner_radius": 0, "z": 0,
        ]
        if let now { o["presentation"] = now }
        o["subviews"] = .array(subviews)
        return .object(o)
    }

    @Test("tree: one line per node, indented, presentation values only where they differ")
    func tree() throws {
        let nowRed: JSONValue = ["frame": ["x": 0, "y": 0, "w": 320, "h": 480], "alpha": 0.4,
                                 "transform": ["a": 1, "b": 0, "c": 0, "d": 1, "tx": -85.09951, "ty": 0],
                                 "hidden": false, "color": "#ff3b30", "corner_radius": 0, "z": 0]
        let nowTabs: JSONValue = ["frame": ["x": 0, "y": 0, "w": 320, "h": 480], "alpha": 1,
                                  "transform": ["a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0],
                                  "hidden": false, "color": "#ffffff", "corner_radius": 0, "z": 0]
        let result: JSONValue = [
            "views": Self.view("window", color: "#00000000", subviews: [
                Self.view("tabs.view", subviews: [
                    Self.view("red.view", tx: -320, color: "#ff3b30", now: nowRed),
                    Self.view("blue.view", x: 12.5, color: "#007aff", hidden: true),
                ], now: nowTabs),
            ]),
            "controllers": ["id": "tabs", "kind": "custom", "view": "tabs.view", "appearance": "appeared", "children": [
                ["id": "red", "kind": "vc", "appearance": "disappearing", "children": []],
            ], "presented": ["id": "m", "kind": "vc", "appearance": "appeared", "children": []]],
        ]
        #expect(TreePrinter.render(result) == """
            view controllers
              tabs  custom  appeared
                red  vc  disappearing
                presented: m  vc  appeared
            views
              window  0,0 320×480  alpha 1  #00000000
                tabs.view  0,0 320×480  alpha 1  #ffffff
                  red.view  0,0 320×480  alpha 1  #ff3b30  transform translate(-320, 0)  | now: alpha 0.4  transform translate(-85.1, 0)
                  blue.view  12.5,0 320×480  alpha 1  #007aff  hidden
            """)
    }

    @Test("tree: a scene without a root says so")
    func emptyTree() {
        #expect(TreePrinter.render(["views": Self.view("window"), "controllers": nil]).contains("(no root view controller)"))
    }

    @Test("transforms print in the shortest honest form")
    func transforms() {
        #expect(TreePrinter.transform(["a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0]) == "identity")
        #expect(TreePrinter.transform("identity") == "identity")
        #expect(TreePrinter.transform(["a": 0.3, "b": 0, "c": 0, "d": 0.3, "tx": 0, "ty": 0]) == "scale(0.3, 0.3)")
        #expect(TreePrinter.transform(["a": 0, "b": 1, "c": -1, "d": 0, "tx": 5, "ty": 0]) == "[0 1 -1 0 5 0]")
        #expect(TreePrinter.transform(["m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]])
            == "3d[1 0 0 0 0 1 0 0 0 0 1 -0.002 0 0 0 1]")
    }

    @Test("plugins: an aligned table with a dash for what is missing")
    func plugins() {
        let list: JSONValue = [
            ["name": "cross-dissolve", "kind": "animator", "version": "1.0.0", "file": "plugins/cross-dissolve.lua",
             "status": "loaded", "calls": 3],
            ["name": "broken", "kind": "animator", "version": nil, "file": "plugins/broken.lua", "status": "failed",
             "error": "broken.lua:3: unexpected symbol\nnear 'end'"],
        ]
        #expect(PluginTable.render(list) == """
            NAME            KIND      VERSION  STATUS  FILE                        ERROR
            cross-dissolve  animator  1.0.0    loaded  plugins/cross-dissolve.lua  -
            broken          animator  -        failed  plugins/broken.lua          broken.lua:3: unexpected symbol near 'end'
            """)
        #expect(PluginTable.render([]) == "no plugins")
    }

    static let failedCheck = """
        {"passed": false, "cases": [
          {"case": "select forward", "passed": true, "problems": []},
          {"case": "interactive cancel at 0.3", "passed": false, "problems": [
            {"code": "from_view_not_restored", "message": "from-view alpha is 0, was 1"},
            {"code": "completed_when_cancelled", "message": "complete(true) after a cancel"}]}]}
        """

    @Test("check: a verdict, each case, and each problem of a failed case with its code")
    func checkFailed() throws {
        let result = try JSONParser.parse(Self.failedCheck)
        #expect(!CheckReport.passed(result))
        #expect(CheckReport.render(result, plugin: "fade") == """
            fade: FAILED (1 of 2 cases failed)
              pass  select forward
              FAIL  interactive cancel at 0.3
                      from_view_not_restored: from-view alpha is 0, was 1
                      completed_when_cancelled: complete(true) after a cancel
            """)
    }

    @Test("check: a pass, and a result without `passed` counts as failed")
    func checkPassed() throws {
        let result = try JSONParser.parse(#"{"passed": true, "cases": [{"case": "push", "passed": true, "problems": []}]}"#)
        #expect(CheckReport.passed(result))
        #expect(CheckReport.render(result, plugin: "dt-slide") == "dt-slide: passed (1 case)\n  pass  push")
        #expect(!CheckReport.passed(["cases": []]))
    }

    @Test("stats: counters, then the latency table")
    func stats() throws {
        let stats = try JSONParser.parse("""
            {"requests": 18, "errors": {"-32601": 2}, "transitions": {"started": 1, "failed_over": 0},
             "frames": 6, "events_dropped": 0,
             "latency": {"clock.advance": {"count": 1, "p50_us": 234.078, "p99_us": 234.078, "p999_us": 234.078},
                         "vc.create": {"count": 12, "p50_us": 41.42, "p99_us": 65, "p999_us": 65.267}}}
            """)
        #expect(StatsPrinter.render(stats) == """
            requests        18
            errors          -32601: 2
            transitions     started 1, failed over 0
            frames          6
            events dropped  0

            METHOD         COUNT  P50 µs  P99 µs  P999 µs
            clock.advance      1   234.1   234.1    234.1
            vc.create         12    41.4    65.0     65.3
            """)
        #expect(StatsPrinter.render(["requests": 0, "errors": [:]]) == "requests  0\nerrors    none")
    }

    @Test("numbers for people: short, rounded, no negative zero")
    func numbers() {
        #expect(Format.number(160) == "160")
        #expect(Format.number(0.28) == "0.28")
        #expect(Format.number(-106.666666) == "-106.67")
        #expect(Format.number(-0.001) == "0")
        #expect(Format.fixed(17, decimals: 1) == "17.0")
        #expect(Format.fixed(-0.04, decimals: 1) == "0.0")
        #expect(Format.fixed(2.25, decimals: 2) == "2.25")
        #expect(Format.fixed(1.05, decimals: 2) == "1.05")
    }

    @Test("--size takes WxH")
    func sizes() {
        #expect(CheckSize.parse("320x480") == ["w": 320, "h": 480])
        #expect(CheckSize.parse("768×1024") == ["w": 768, "h": 1024])
        #expect(CheckSize.parse("3x") == nil)
        #expect(CheckSize.parse("0x10") == nil)
        #expect(CheckSize.parse("axb") == nil)
    }
}
