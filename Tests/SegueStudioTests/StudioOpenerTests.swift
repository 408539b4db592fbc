import Foundation
import Testing

@testable import SegueStudio

@Suite("--open's redirect file")
struct StudioOpenerTests {
    @Test("the token goes into a 0600 file in a 0700 folder of its own, escaped, never into arguments")
    func redirectFile() throws {
        let url = "http://127.0.0.1:8700/?token=abc&x=\"1\""
        let path = try StudioOpener.writeRedirect(url: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = (path as NSString).deletingLastPathComponent
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("url=http://127.0.0.1:8700/?token=abc&amp;x=&quot;1&quot;"))
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test("a folder that cannot be written is an error, not a crash")
    func unwritable() {
        #expect(throws: StudioOpener.Failure.self) { try StudioOpener.writeRedirect(url: "x", in: "/nonexistent/dir") }
    }
}
