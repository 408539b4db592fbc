import SegueJSON

/// `plugins.list`'s result as an aligned table: name, kind, version, status, file, error.
public enum PluginTable {
    public static func render(_ list: JSONValue) -> String {
        guard let plugins = list.arrayValue else { return Format.compact(list, limit: 10_000) }
        if plugins.isEmpty { return "no plugins" }
        var table = TextTable(header: ["NAME", "KIND", "VERSION", "STATUS", "FILE", "ERROR"])
        for p in plugins {
            let error = Format.cell(p["error"]).split(whereSeparator: \.isNewline).joined(separator: " ")
            table.append([
                Format.cell(p["name"]), Format.cell(p["kind"]), Format.cell(p["version"]), Format.cell(p["status"]),
                Format.cell(p["file"]), error,
            ])
        }
        return table.render()
    }
}
