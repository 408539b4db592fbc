import SegueCtlKit
import SegueJSON
import Testing

@Suite("check report: skipped and pending cases")
struct CheckReportSkipTests {
    @Test("skipped cases print with their reason, then the cases not run yet")
    func skippedAndPending() throws {
        let result = try JSONParser.parse(#"""
            {"passed": true, "cases": [{"case": "pop", "passed": true, "problems": []}],
             "skipped": [{"case": "push", "reason": "the animator declares kinds = {\"pop\"}"}],
             "pending": ["present (custom)", "interactive cancel at 0.3"]}
            """#)
        #expect(CheckReport.render(result, plugin: "p") == """
            p: passed (1 case)
              pass  pop
              skip  push  (the animator declares kinds = {"pop"})
              not run yet: present (custom), interactive cancel at 0.3
            """)
    }
}
