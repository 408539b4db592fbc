import Testing

@testable import SegueStudio

/// The studio page's small fixes of issue 29, seen in headless Chromium (README, "Studio"): the layout at 700 px and
/// the filmstrip frame highlighted while scrubbing.
@Suite("Studio page layout")
struct StudioPageLayoutTests {
    @Test("the right column may shrink below its widest control, and under 760 px the columns stack")
    func narrow() {
        #expect(StudioPage.html.contains("grid-template-columns: 270px minmax(0, 1fr)"))
        #expect(StudioPage.html.contains("@media (max-width: 760px) { main { grid-template-columns: minmax(0, 1fr); } }"))
    }

    @Test("while scrubbing, the filmstrip frame nearer the playhead is highlighted; while playing, the one reached")
    func nearerFrame() {
        #expect(StudioPage.html.contains("if (studio.mode === \"scrubbing\") {"))
        #expect(StudioPage.html.contains("Math.abs(f.time - studio.t) < Math.abs(pick.time - studio.t) - 1e-9"))
    }
}
