import Foundation
import SegueJSON
import Testing

@testable import SegueDaemon

/// rpc.discover's OpenRPC document, -32601's nearest method, and docs/PROTOCOL.md naming the same methods.
@Suite("rpc.discover and method names")
struct DiscoverTests {
    /// Method names docs/PROTOCOL.md documents: its `### \`name\`` headings.
    static func documentedMethods() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("#### `") {
            let name = line.dropFirst(6).prefix { $0 != "`" }
            names.insert(String(name))
        }
        return names
    }

    @Test("the method table, rpc.discover's OpenRPC document and docs/PROTOCOL.md name the same methods")
    func sameMethods() throws {
        let h = try Harness()
        let document = try #require(try h.result("rpc.discover"))
        let discovered = Set((document["methods"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        let table = Set(Daemon.methodTable.names)
        #expect(discovered == table)
        let documented = try DiscoverTests.documentedMethods()
        #expect(documented.subtracting(table).isEmpty, "documented but not in the table")
        #expect(table.subtracting(documented).isEmpty, "in the table but not documented")
    }

    @Test("every method's section in docs/PROTOCOL.md has an example request of that method and its answer")
    func everyMethodHasAnExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let sections = text.components(separatedBy: "\n#### `").dropFirst()
        #expect(sections.count == Daemon.methodTable.count)
        for section in sections {
            let name = String(section.prefix { $0 != "`" })
            let body = section.components(separatedBy: "\n#").first ?? ""
            #expect(body.contains("→ {\"jsonrpc\":\"2.0\",\"id\":") && body.contains("\"method\":\"\(name)\""), "\(name)")
            #expect(body.contains("← {\"jsonrpc\":\"2.0\""), "\(name)")
        }
    }

    @Test("the document is OpenRPC 1.x: every method has by-name params with schemas, a result and its errors")
    func documentShape() throws {
        let h = try Harness()
        let document = try #require(try h.result("rpc.discover"))
        #expect(document["openrpc"]?.stringValue?.hasPrefix("1.") == true)
        #expect(document["info"]?["version"]?.stringValue == Daemon.version)
        let top = Set(document.objectValue?.keys ?? [])
        #expect(top == ["openrpc", "info", "methods", "components"])
        let schemas = try #require(document["components"]?["schemas"]?.objectValue)
        var refs: Set<String> = []
        func collectRefs(_ value: JSONValue) {
            switch value {
            case .object(let o):
                for (key, v) in o {
                    if key == "$ref", let r = v.stringValue { refs.insert(String(r.split(separator: "/").last ?? "")) }
                    collectRefs(v)
                }
            case .array(let a): a.forEach(collectRefs)
            default: break
            }
        }
        for method in document["methods"]?.arrayValue ?? [] {
            let name = method["name"]?.stringValue ?? "?"
            // The OpenRPC meta-schema's methodObject and contentDescriptorObject allow no other keys.
            let methodKeys: Set<String> = ["name", "summary", "description", "tags", "paramStructure", "params", "result",
                                           "errors", "links", "examples", "deprecated"]
            let present = Set(method.objectValue?.keys ?? [])
            #expect(present.isSubset(of: methodKeys), "\(name)")
            #expect(method["paramStructure"] == "by-name", "\(name)")
            #expect(method["result"]?["schema"]?.objectValue != nil, "\(name)")
            let errors = method["errors"]?.arrayValue ?? []
            #expect(errors.contains { $0["code"] == -32005 }, "\(name)")
            let params = method["params"]?.arrayValue ?? []
            #expect(errors.contains { $0["code"] == -32602 }, "\(name)")  // an unknown parameter, even to daemon.ping
            for param in params {
                #expect(param["name"]?.stringValue != nil && param["schema"]?.objectValue != nil, "\(name)")
                let keys: Set<String> = ["name", "summary", "description", "schema", "required", "deprecated"]
                let given = Set(param.objectValue?.keys ?? [])
                #expect(given.isSubset(of: keys), "\(name)")
            }
            collectRefs(method)
        }
        collectRefs(.object(schemas))
        #expect(refs.subtracting(schemas.keys).isEmpty, "every $ref names a component schema")
    }

    @Test("no oneOf in the document has a member every value matches (oneOf rejects a value two members match)")
    func oneOfMembersAreDisjointFromAnything() throws {
        let h = try Harness()
        let document = try #require(try h.result("rpc.discover"))
        var oneOfs = 0
        func walk(_ value: JSONValue) {
            if let members = value["oneOf"]?.arrayValue {
                oneOfs += 1
                #expect(!members.contains { $0.objectValue?.pairs.isEmpty == true }, "\(members)")
            }
            for (_, member) in value.objectValue?.pairs ?? [] { walk(member) }
            for member in value.arrayValue ?? [] { walk(member) }
        }
        walk(document)
        #expect(oneOfs > 0)
    }

    @Test("each descriptor's parameters are the ones its handler accepts: an undeclared one is refused, a declared one is not 'unknown'")
    func declaredParams() throws {
        let h = try Harness()
        try h.setUpScene()
        for (name, entry) in Daemon.methods where name != "daemon.shutdown" && name != "daemon.reload" {
            var params = JSONObject()
            params["zz_not_a_param"] = 1
            let error = try h.call(name, .object(params)).last?["error"]
            #expect(error?["data"]?["param"] != nil, "\(name) refuses an unknown parameter")
            for field in entry.descriptor.params {
                var one = JSONObject()
                one[field.name] = .array([.array([])])  // the wrong type for every parameter
                let answer = try h.call(name, .object(one)).last
                let message = answer?["error"]?["message"]?.stringValue ?? ""
                #expect(!message.contains("unknown parameter '\(field.name)'"), "\(name) declares \(field.name)")
            }
        }
    }

    @Test("an unknown method is -32601 with the nearest method name in data.did_you_mean")
    func didYouMean() throws {
        let h = try Harness()
        let error = try h.call("daemon.pnig").last?["error"]
        #expect(error?["code"] == -32601)
        #expect(error?["data"]?["kind"] == "method_not_found")
        #expect(error?["data"]?["did_you_mean"] == "daemon.ping")
        #expect(try h.call("ping").last?["error"]?["data"]?["did_you_mean"] == "daemon.ping")
        #expect(try h.call("scene.craete").last?["error"]?["data"]?["did_you_mean"] == "scene.create")
        let far = try h.call("make.me.a.sandwich").last?["error"]
        #expect(far?["code"] == -32601 && far?["data"]?["did_you_mean"] == nil)
    }
}
