import Foundation
import Testing

/// `seguectl test --record/--motion/--update` against a real segued: an animator's change is caught with a
/// picture of the difference and accepted with --update (issue 29, item 4).
@Suite("seguectl test: motion snapshots", .serialized)
struct MotionCommandTests {
    @Test("record, catch a changed curve with a picture, accept it with --update")
    func recordCatchAccept() throws {
        let work = NSTemporaryDirectory() + "segue-motion-cmd-\(UUID().uuidString)"
        let plugins = work + "/plugins", reports = work + "/reports"
        for dir in [work, reports] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.copyItem(atPath: repositoryRoot + "/plugins", toPath: plugins)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Tests/Scenarios/cross-dissolve.json", toPath: work + "/cross-dissolve.json")

        let missing = try ctl(["test", "--spawn", "--plugins", plugins, "--motion", work])
        #expect(missing.status == 1)
        #expect(missing.out.contains("no snapshot of this scenario"), "\(missing.out)")

        let record = try ctl(["test", "--spawn", "--plugins", plugins, "--record", work])
        #expect(record.status == 0, "\(record.out)\(record.err)")
        let snapshot = work + "/cross-dissolve.motion.json"
        #expect(FileManager.default.fileExists(atPath: snapshot))
        #expect(try ctl(["test", "--spawn", "--plugins", plugins, "--motion", work]).status == 0)

        let source = try String(contentsOfFile: plugins + "/cross-dissolve.lua", encoding: .utf8)
        try source.replacingOccurrences(of: #"curve = "ease_in_out""#, with: #"curve = "linear""#)
            .write(toFile: plugins + "/cross-dissolve.lua", atomically: true, encoding: .utf8)
        let changed = try ctl(["test", "--spawn", "--plugins", plugins, "--junit", reports + "/junit.xml", work])
        #expect(changed.status == 1)
        #expect(changed.out.contains("motion differs from \(snapshot)"), "\(changed.out)")
        #expect(changed.out.contains("alpha"))
        let pictures = try FileManager.default.contentsOfDirectory(atPath: reports).filter { $0.hasSuffix(".motion-diff.svg") }
        #expect(pictures.count == 2, "\(pictures)")
        let loose = try ctl(["test", "--spawn", "--plugins", plugins, "--tolerance", "alpha=0.2", work])
        #expect(loose.status == 0, "\(loose.out)")

        let update = try ctl(["test", "--spawn", "--plugins", plugins, "--update", work])
        #expect(update.status == 0 && update.out.contains("wrote \(snapshot)"), "\(update.out)")
        #expect(try ctl(["test", "--spawn", "--plugins", plugins, "--motion", work]).status == 0)
        #expect(try ctl(["test", "--tolerance", "alpha", work]).status == 2)
    }
}
