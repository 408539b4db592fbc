import SegueCtlKit
import SegueJSON
import Testing

/// What a newcomer tripped on in the preview page: indexes from 0, a wide filmstrip, unlabelled views.
@Suite("seguectl preview's page: layout")
struct PreviewPageLayoutTests {
    static let page = PreviewPage.html(PreviewPage.Input(
        animator: "a", kind: "push", filmstrip: RenderPreviewPageTests.strip(40), player: RenderPreviewPageTests.strip(31),
        timeline: ["svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2000\"><g class=\"plot\"/></svg>"],
        colors: ("#112233", "#445566")))

    @Test("#frame=N counts from 0, like the filmstrip's data-index, and the readout says so")
    func frameFromZero() {
        #expect(Self.page.contains("show(wanted ? Number(wanted[1]) : 0);"))
        #expect(!Self.page.contains("Number(wanted[1]) - 1"))
        #expect(Self.page.contains("\" of 0–\" + (frames.length - 1)"))
    }

    @Test("the filmstrip and the curves are fitted to the page width (a click shows them full size, scrolling)")
    func fitted() {
        #expect(Self.page.components(separatedBy: "<div class=\"scroll fit\">").count - 1 == 2)
        #expect(Self.page.contains(".scroll.fit svg { max-width: 100%; height: auto; }"))
        #expect(Self.page.contains(".scroll { overflow-x: auto;"))
    }

    @Test("the stage shows the scene from its top edge: the 4 px above a filmstrip cell's scene is not a white band")
    func noBandAboveStage() {
        // The strip's cells start at y 36 and are 264 high; the stage's frames start 4 lower and are 4 shorter.
        #expect(Self.page.contains(#""y":40,"w":160,"h":260"#), "\(Self.page.prefix(0))")
        #expect(!Self.page.contains(#""y":36,"#))
    }

    @Test("the player has a legend naming the from and to views in their colors")
    func legend() {
        #expect(Self.page.contains("background: #112233\"></span><code>from</code>"))
        #expect(Self.page.contains("background: #445566\"></span><code>to</code>"))
    }
}
