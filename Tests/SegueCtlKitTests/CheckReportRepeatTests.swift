import SegueCtlKit
import SegueJSON
import Testing

@Suite("check report: a problem repeated across cases")
struct CheckReportRepeatTests {
    @Test("a traceback repeated in several cases prints once, naming the cases; the others refer back to it")
    func repeatedTracebackOnce() throws {
        let traceback = "animate raised: x.lua:3: boom\\nstack traceback:\\n\\tx.lua:3: in function <x.lua:2>"
        let result = try JSONParser.parse("""
            {"passed": false, "cases": [
              {"case": "push", "passed": false, "problems": [{"code": "raised", "message": "\(traceback)"}]},
              {"case": "pop", "passed": false, "problems": [{"code": "raised", "message": "\(traceback)"},
                                                            {"code": "too_slow", "message": "late"}]},
              {"case": "select forward", "passed": true, "problems": []},
              {"case": "dismiss (custom)", "passed": false, "problems": [{"code": "raised", "message": "\(traceback)"}]}]}
            """)
        let text = CheckReport.render(result, plugin: "x")
        #expect(text == """
            x: FAILED (3 of 4 cases failed)
              FAIL  push
                      raised: animate raised: x.lua:3: boom
                      stack traceback:
                      \tx.lua:3: in function <x.lua:2>
                      (also in pop, dismiss (custom))
              FAIL  pop
                      raised: the same as in push
                      too_slow: late
              pass  select forward
              FAIL  dismiss (custom)
                      raised: the same as in push
            """)
        #expect(text.components(separatedBy: "stack traceback").count == 2)
    }
}
