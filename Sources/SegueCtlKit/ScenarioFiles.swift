import Foundation

/// Finding and reading scenario files.
public enum ScenarioFiles {
    /// The files to run: each path as given, and for a folder its `*.json` files but motion snapshots, sorted by name.
    public static func expand(_ paths: [String]) throws(ScenarioError) -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioError("no such file or folder: \(path)")
            }
            guard isDirectory.boolValue else {
                out.append(path)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // A motion snapshot (`NAME.motion.json`) lives beside its scenario file; it is not a scenario.
            let files = names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".motion.json") }.sorted()
            if files.isEmpty { throw ScenarioError("no *.json scenario files in \(path)") }
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            out += files.map { folder + "/" + $0 }
        }
        return out
    }

    /// The file's text.
    public static func read(_ path: String) throws(ScenarioError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
