import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SegueClient
import SegueCtlKit
import SegueJSON
import Testing

/// The output with each scenario's time (`  12 ms` at the end of a PASS/FAIL line) taken out.
func withoutTimes(_ text: String) -> String {
    text.replacingOccurrences(of: #"(?m)^((PASS|FAIL)  .*)  [0-9.]+ m?s$"#, with: "$1", options: .regularExpression)
}

/// Runs seguectl (`environment` added to the test's); returns (status, stdout, stderr).
func ctl(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: seguectl)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

@Suite("seguectl against a real segued", .serialized)
struct SegueCtlCommandTests {
    @Test("test --spawn on the failing fixture prints each failure with step and difference, and exits 1")
    func failingFixture() throws {
        let run = try ctl(["test", "--spawn", "Tests/ScenarioFixtures/failing.json"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("PASS  fixture: this one passes"))
        let out = withoutTimes(run.out)
        #expect(out.contains("""
            FAIL  fixture: dt-slide with a wrong duration and a wrong event  (Tests/ScenarioFixtures/failing.json)
                  step 5 container.select (deliberately wrong):
                    result.duration: expected 0.3, got 0.28
                    expected event 1: expected {"type":"vc.will_move_to_parent","vc":"a","parent":"c"}, got event 1 differs: parent: expected "c", got null
                    the step caused 5 events:
                      1: vc.will_move_to_parent vc=a parent=null
            """), "\(run.out)")
        #expect(run.out.contains("step 1 clock.now:\n        error: expected error -32001, got a result {\"time\":0}"))
        #expect(!run.out.contains("never reached"))
        #expect(run.out.hasSuffix("1 passed, 2 failed\n"))
    }

    @Test("test --jobs 3 --junit: the same results in file order as one job, each with its time, and a JUnit file CI can read")
    func jobsAndJUnit() throws {
        let junit = NSTemporaryDirectory() + "segue-junit-\(UUID().uuidString).xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let files = ["Tests/Scenarios", "Tests/ScenarioFixtures/failing.json"]
        let parallel = try ctl(["test", "--spawn", "--jobs", "3", "--junit", junit] + files)
        let serial = try ctl(["test", "--spawn"] + files)
        #expect(parallel.status == 1 && serial.status == 1, "\(parallel.err)")
        func names(_ out: String) -> [Substring] {
            withoutTimes(out).split(separator: "\n").filter { $0.hasPrefix("PASS  ") || $0.hasPrefix("FAIL  ") }
        }
        #expect(names(parallel.out) == names(serial.out))
        #expect(names(parallel.out).count >= 10)
        let timed = parallel.out.split(separator: "\n").filter { $0.hasPrefix("PASS  ") }
        #expect(timed.allSatisfy { $0.hasSuffix(" ms") || $0.hasSuffix(" s") }, "\(timed)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(XMLParser(data: Data(xml.utf8)).parse())
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == names(serial.out).count)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(xml.contains("result.duration: expected 0.3, got 0.28"))
    }

    @Test("test --filter runs only matching scenarios; --tap prints TAP; a filter matching nothing is status 2")
    func filterAndTAP() throws {
        let run = try ctl(["test", "--spawn", "--tap", "--filter", "errors:", "Tests/Scenarios"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.first == "TAP version 13")
        let plan = try #require(lines.dropFirst().first)
        let count = try #require(Int(plan.dropFirst(3)))
        #expect(count >= 2)
        #expect(lines.filter { $0.hasPrefix("ok ") }.count == count)
        #expect(lines.filter { $0.hasPrefix("ok ") }.allSatisfy { $0.contains(" - errors:") && $0.contains(" # time=") })
        #expect(lines.last == "# \(count) passed, 0 failed")
        let none = try ctl(["test", "--spawn", "--filter", "no scenario is called this", "Tests/Scenarios"])
        #expect(none.status == 2)
        #expect(none.err.contains("no scenario's name contains"))
    }

    @Test("test: a scenario with a typo or a misspelt method fails alone, with a did-you-mean; the others run; JUnit <error>")
    func invalidFixture() throws {
        let junit = NSTemporaryDirectory() + "segue-junit-\(UUID().uuidString).xml"
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let run = try ctl(["test", "--spawn", "--junit", junit, "Tests/ScenarioFixtures/invalid.json"])
        #expect(run.status == 1)
        #expect(run.out.contains("scenario 1: step 1: unknown key 'expcet' (did you mean 'expect'?)"), "\(run.out)")
        #expect(run.out.contains("step 1: unknown method 'daemon.pnig' (did you mean 'daemon.ping'?)"), "\(run.out)")
        #expect(run.out.contains("PASS  fixture: the file's other scenarios still run"))
        #expect(run.out.hasSuffix("1 passed, 2 failed (2 could not run)\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="3" failures="0" errors="2""#))
        #expect(xml.components(separatedBy: "<error ").count - 1 == 2)
    }

    @Test("test --spawn --json runs the project's suite and reports it as JSON, exit 0")
    func suiteAsJSON() throws {
        let run = try ctl(["test", "--spawn", "--json", "Tests/Scenarios"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let report = try JSONParser.parse(run.out)
        #expect(report["failed"] == 0)
        #expect((report["passed"]?.intValue ?? 0) >= 5)
        #expect(report["scenarios"]?.arrayValue?.allSatisfy { $0["passed"] == true } == true)
    }

    @Test("test: no daemon, a missing file, or bad arguments exit 2")
    func exitTwo() throws {
        let dir = NSTemporaryDirectory() + "sgn-" + String(UUID().uuidString.prefix(8))
        let down = try ctl(["test", "--socket", dir + "/none.sock", "Tests/Scenarios"])
        #expect(down.status == 2)
        #expect(down.err.contains("cannot connect"))
        #expect(try ctl(["test", "--spawn", "Tests/no-such-file.json"]).status == 2)
        #expect(try ctl(["test"]).status == 2)
        #expect(try ctl(["test", "--plugins", "plugins", "Tests/Scenarios"]).status == 2)
        #expect(try ctl(["test", "--spawn", "--segued", dir + "/no-segued", "Tests/Scenarios"]).status == 2)
        #expect(try ctl(["check", "x", "--size", "3x"]).status == 2)
        #expect(try ctl(["frobnicate"]).status == 2)
        let empty = try ctl(["--socket", "", "call", "daemon.ping"])
        #expect(empty.status == 2)
        #expect(empty.err.contains("the socket path is empty"), "\(empty.err)")
    }

    @Test("tree, plugins and stats print text a person can read, or JSON with --json")
    func readableOutput() throws {
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let client = try SegueClient(socketPath: daemon.socket)
        _ = try client.call("scene.create", ["id": "main", "size": ["w": 320, "h": 480], "clock": "manual"])
        _ = try client.call("vc.create", ["id": "a", "color": "#ff0000"])
        _ = try client.call("vc.create", ["id": "b", "color": "#0000ff"])
        _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
        _ = try client.call("scene.set_root", ["vc": "c"])
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "dt-slide"])
        _ = try client.call("clock.advance", ["ms": 140])
        let socket = ["--socket", daemon.socket]

        let tree = try ctl(["tree", "--presentation"] + socket)
        #expect(tree.status == 0, "\(tree.err)")
        #expect(tree.out == """
            scene main
            view controllers
              c  custom  appeared
                a  vc  disappearing
                b  vc  appearing
            views
              window  0,0 320×480  alpha 1  #00000000
                c.view  0,0 320×480  alpha 1  #ffffff
                  a.view  0,0 320×480  alpha 1  #ff0000  transform translate(-320, 0)  | now: transform translate(-160, 0)
                  b.view  0,0 320×480  alpha 1  #0000ff  | now: transform translate(160, 0)

            """)
        let json = try ctl(["tree", "--json", "--scene", "main"] + socket)
        #expect(try JSONParser.parse(json.out)["controllers"]?["id"] == "c")

        let plugins = try ctl(["plugins"] + socket)
        #expect(plugins.status == 0)
        let lines = plugins.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.contains { $0.hasPrefix("dt-slide ") && $0.contains(" animator ") && $0.contains(" loaded ") })

        let stats = try ctl(["stats"] + socket)
        #expect(stats.status == 0)
        #expect(stats.out.contains("requests "))
        #expect(stats.out.contains("container.select"))
        #expect(stats.out.contains("P99 µs"))
        #expect(try JSONParser.parse(try ctl(["stats", "--json"] + socket).out)["latency"] != nil)

        _ = try client.call("scene.create", ["id": "second", "size": ["w": 10, "h": 10], "clock": "manual"])
        let ambiguous = try ctl(["tree"] + socket)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.err.contains("choose one with --scene"))
        let unknown = try ctl(["tree", "--scene", "nope"] + socket)
        #expect(unknown.status == 1)
        #expect(unknown.err.contains("-32001"))
    }

    @Test("check prints the verdict and exits 0 or 1 by it; a daemon without plugins.check is an error, exit 1")
    func check() throws {
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let client = try SegueClient(socketPath: daemon.socket)
        let run = try ctl(["check", "dt-slide", "--socket", daemon.socket])
        do throws(ClientError) {
            let result = try client.call("plugins.check", ["name": "dt-slide"])
            #expect(run.status == (CheckReport.passed(result) ? 0 : 1))
            #expect(run.out.hasPrefix(CheckReport.passed(result) ? "dt-slide: passed" : "dt-slide: FAILED"))
        } catch {
            guard case .rpc(let code, _, _) = error else { throw error }
            #expect(run.status == 1)
            #expect(run.err.contains("error \(code)"))
        }
    }
}
