import Foundation
import SegueClient
import SegueJSON
import SegueKit

/// Runs scenarios against a daemon, each on a new connection and in a scene of its own.
///
/// For each scenario: connect, `scene.create` with a unique id (it becomes the connection's current scene, so steps
/// may leave `scene` out; the id is also `${scene}`), subscribe to its events, run the steps in order until one
/// fails, then `scene.destroy` that scene and any scene a step created.
public final class ScenarioRunner {
    public typealias Connect = () throws(ClientError) -> any ScenarioConnection

    private let connect: Connect
    let runID: String
    /// The daemon's methods (`rpc.discover`), when known: a step calling any other method, without expecting an
    /// error, makes its scenario invalid before anything runs, with the nearest method name as a hint.
    public var methods: Set<String>?
    /// Motion snapshots: record and compare each manual-clock scenario's transitions (nil: not at all).
    public var motion: MotionOptions?
    let motionSnapshots = MotionSnapshots()
    private var count = 0

    public init(connect: @escaping Connect) {
        self.connect = connect
        runID = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    }

    /// What a run is made of, in file order: each scenario, or a file that could not be read or parsed (one failed
    /// result named after the file).
    public enum Entry {
        case scenario(Scenario)
        case invalid(ScenarioResult)
    }

    /// Loads every scenario in the files, in order; with `filter`, only scenarios whose name contains it (a file
    /// that cannot be parsed is kept whatever the filter: its scenarios' names are unknown). Each scenario is
    /// validated on its own: a mistake in one becomes one result that could not run, and the file's other
    /// scenarios run.
    public static func entries(files: [String], filter: String? = nil) -> [Entry] {
        var entries: [Entry] = []
        for file in files {
            do throws(ScenarioError) {
                for parsed in try Scenario.parseEach(text: try ScenarioFiles.read(file), file: file) {
                    switch parsed {
                    case .valid(let scenario):
                        if filter.map({ scenario.name.contains($0) }) ?? true { entries.append(.scenario(scenario)) }
                    case .invalid(let name, let error):
                        guard filter.map({ name.contains($0) }) ?? true else { continue }
                        let failure = ScenarioFailure(message: "invalid scenario: \(error)", cannotRun: true)
                        entries.append(.invalid(ScenarioResult(name: name, file: file, stepsRun: 0, failure: failure)))
                    }
                }
            } catch {
                let failure = ScenarioFailure(message: "invalid scenario file: \(error)", cannotRun: true)
                entries.append(.invalid(ScenarioResult(name: file, file: file, stepsRun: 0, failure: failure)))
            }
        }
        return entries
    }

    /// Loads and runs every scenario in the files, in order. A file that cannot be read or parsed counts as one
    /// failed scenario named after the file.
    public func run(files: [String], filter: String? = nil, jobs: Int = 1,
                    progress: @escaping (ScenarioResult) -> Void = { _ in }) -> ScenarioReport
    {
        run(ScenarioRunner.entries(files: files, filter: filter), jobs: jobs, progress: progress)
    }

    /// Runs the entries on up to `jobs` connections at once (each scenario on its own connection and scene, as
    /// always). Results are reported — to `progress` and in the report — in the entries' order, whatever order
    /// they finish in: `progress` is called for a result once every result before it has been reported.
    public func run(_ entries: [Entry], jobs: Int = 1, progress: @escaping (ScenarioResult) -> Void = { _ in })
        -> ScenarioReport
    {
        let base = count
        count += entries.count
        let ordered = OrderedResults(count: entries.count)
        let work = UncheckedBox((self, entries))
        let report = UncheckedBox(progress)
        let runOne: @Sendable (Int) -> Void = { i in
            let (runner, entries) = work.value
            let result: ScenarioResult
            switch entries[i] {
            case .invalid(let invalid): result = invalid
            case .scenario(let scenario):
                result = runner.run(scenario, sceneID: "scn-\(runner.runID)-\(base + i + 1)")
            }
            ordered.finish(i, result) { report.value($0) }
        }
        let workers = max(1, min(jobs, entries.count))
        if workers == 1 {
            for i in entries.indices { runOne(i) }
        } else {
            let queue = WorkQueue(count: entries.count)
            let group = DispatchGroup()
            for _ in 0..<workers {
                group.enter()
                let thread = Thread {
                    while let i = queue.next() { runOne(i) }
                    group.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            group.wait()
        }
        return ScenarioReport(results: ordered.all)
    }

    /// Runs one scenario.
    public func run(_ scenario: Scenario) -> ScenarioResult {
        count += 1
        return run(scenario, sceneID: "scn-\(runID)-\(count)")
    }

    /// Runs one scenario in a scene with this id, and times it.
    func run(_ scenario: Scenario, sceneID: String) -> ScenarioResult {
        let started = ContinuousClock.now
        var result = runSteps(scenario, sceneID: sceneID)
        let elapsed = ContinuousClock.now - started
        result.duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return result
    }

    private func runSteps(_ scenario: Scenario, sceneID: String) -> ScenarioResult {
        var result = ScenarioResult(name: scenario.name, file: scenario.file, stepsRun: 0, failure: nil)
        if let methods, let step = scenario.steps.first(where: { !methods.contains($0.method) && $0.error == nil }) {
            let hint = NearestName.nearest(to: step.method, in: methods.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            result.failure = ScenarioFailure(
                message: "invalid scenario: step \(step.number): unknown method '\(step.method)'\(hint)", cannotRun: true)
            return result
        }
        var connection: any ScenarioConnection
        do throws(ClientError) {
            connection = try connect()
        } catch {
            result.failure = ScenarioFailure(message: "could not connect: \(error)")
            return result
        }
        var scenes = [sceneID]
        defer {
            for scene in scenes { _ = try? connection.request("scene.destroy", ["scene": .string(scene)]) }
        }
        // A manual clock gives the same frames on every run: only such a scenario has a motion snapshot.
        let recorder: MotionRecorder? = motion != nil && scenario.scene["clock"]?.stringValue == "manual"
            ? MotionRecorder() : nil
        var subscribe = scenario.subscribe
        if let recorder {
            for extra in ["transition", "frame"] where !subscribe.contains(extra) { subscribe.append(extra) }
            connection = RecordingConnection(connection, recorder: recorder, wanted: scenario.subscribe)
        }
        do throws(ClientError) {
            var create = scenario.scene
            create["id"] = .string(sceneID)
            _ = try connection.request("scene.create", create)
            _ = try connection.request("events.subscribe", [
                "scene": .string(sceneID), "types": .array(subscribe.map { .string($0) }),
            ])
        } catch {
            result.failure = ScenarioFailure(message: "setting up the scene failed: \(error)")
            return result
        }
        _ = connection.takeEvents()
        var variables = ScenarioVariables(["scene": .string(sceneID)])
        for step in scenario.steps {
            result.stepsRun += 1
            if let failure = run(step, of: scenario, on: connection, variables: &variables, scenes: &scenes) {
                result.failure = failure
                return result
            }
        }
        if let recorder, let motion {
            _ = connection.takeEvents()
            judgeMotion(recorder.entry, of: scenario, options: motion, result: &result)
        }
        return result
    }

    /// Runs one step; nil when it went as expected.
    func run(_ step: ScenarioStep, of scenario: Scenario, on connection: any ScenarioConnection,
             variables: inout ScenarioVariables, scenes: inout [String]) -> ScenarioFailure?
    {
        var failure = ScenarioFailure(step: step.number, method: step.method, note: step.note)
        let params: JSONObject?
        do throws(ScenarioError) {
            params = try step.params.map { (p) throws(ScenarioError) in try variables.substitute(p) }
        } catch {
            failure.message = "params: \(error)"
            return failure
        }
        _ = connection.takeEvents()
        var outcome: Result<JSONValue, ClientError>
        do throws(ClientError) {
            outcome = .success(try connection.request(step.method, params))
        } catch {
            outcome = .failure(error)
        }
        let events = connection.takeEvents()
        let matcher = JSONMatcher(tolerance: step.tolerance ?? scenario.tolerance)

        switch outcome {
        case .failure(.rpc(let code, let message, let data)):
            guard let expected = step.error else {
                failure.message = "unexpected error \(code): \(message)" + (data.map { " \(Format.compact($0))" } ?? "")
                return failure
            }
            let got: JSONValue = .object(JSONObject([
                ("code", .number(Double(code))), ("message", .string(message)), ("data", data ?? .null),
            ]))
            do throws(ScenarioError) {
                failure.mismatches += try errorMismatches(expected: variables.substitute(JSONValue.object(expected)), got: got,
                                                          matcher: matcher)
            } catch {
                failure.message = "error: \(error)"
                return failure
            }
        case .failure(let error):
            failure.message = "no answer: \(error)"
            return failure
        case .success(let result):
            if let expected = step.error {
                failure.mismatches.append(Mismatch(
                    path: "error", expected: "error \(Format.compact(expected["code"]))",
                    got: "a result \(Format.compact(result))"))
                break
            }
            if step.method == "scene.create", let id = result["scene"]?.stringValue, !scenes.contains(id) {
                scenes.append(id)
            }
            for (name, path) in step.capture {
                guard let value = path.value(in: result) else {
                    failure.mismatches.append(Mismatch(path: "result.\(path)", expected: "a value to capture as ${\(name)}",
                                                       got: "nothing (no such key) in \(Format.compact(result))"))
                    continue
                }
                variables[name] = value
            }
            if let expected = step.expect {
                do throws(ScenarioError) {
                    failure.mismatches += matcher.mismatches(expected: try variables.substitute(expected), actual: result,
                                                             at: JSONPath("result"))
                } catch {
                    failure.message = "expect: \(error)"
                    return failure
                }
            }
        }

        var eventsFailed = false
        do throws(ScenarioError) {
            if let wanted = step.events {
                let wanted = try wanted.map { (w) throws(ScenarioError) in try variables.substitute(w) }
                if let miss = matcher.subsequenceMiss(wanted, in: events) {
                    eventsFailed = true
                    failure.mismatches.append(eventMiss(wanted, miss, events, matcher))
                }
            }
            if let wanted = step.allEvents {
                let wanted = try wanted.map { (w) throws(ScenarioError) in try variables.substitute(w) }
                let found = matcher.mismatches(expected: .array(wanted), actual: .array(events), at: JSONPath("events"))
                if !found.isEmpty {
                    eventsFailed = true
                    failure.mismatches += found.map {
                        $0.path == "events" ? Mismatch(path: "events", expected: "\(wanted.count) events", got: "\(events.count)")
                            : ScenarioRunner.numbered($0)
                    }
                }
            }
        } catch {
            failure.message = "events: \(error)"
            return failure
        }
        if eventsFailed { failure.events = events }
        return failure.message == nil && failure.mismatches.isEmpty ? nil : failure
    }

    func errorMismatches(expected: JSONValue, got: JSONValue, matcher: JSONMatcher) -> [Mismatch] {
        var out: [Mismatch] = []
        if let code = expected["code"], code != got["code"] {
            out.append(Mismatch(path: "error.code", expected: Format.compact(code),
                                got: "\(Format.compact(got["code"])) (\(got["message"]?.stringValue ?? ""))"))
        }
        if let part = expected["message"]?.stringValue, let message = got["message"]?.stringValue,
            !message.contains(part)
        {
            out.append(Mismatch(path: "error.message", expected: "a message containing \"\(part)\"", got: "\"\(message)\""))
        }
        if let data = expected["data"] {
            out += matcher.mismatches(expected: data, actual: got["data"].flatMap { $0.isNull ? nil : $0 },
                                      at: JSONPath("error.data"))
        }
        return out
    }

    /// `events.2.transition` → `event 3: transition`: events are numbered from 1 as the step's event list prints them.
    static func numbered(_ mismatch: Mismatch) -> Mismatch {
        var segments = JSONPath(mismatch.path).segments
        guard segments.count >= 2, segments[0] == "events", let index = Int(segments[1]) else { return mismatch }
        segments.removeFirst(2)
        var out = mismatch
        out.path = "event \(index + 1)" + (segments.isEmpty ? "" : ": " + segments.joined(separator: "."))
        return out
    }

    /// Describes an unmet event subsequence: which expected event was not found (numbered from 1, after the event
    /// the previous one matched), and how the nearest event of the same type differs from it.
    func eventMiss(_ wanted: [JSONValue], _ miss: (expectedIndex: Int, searchedFrom: Int), _ events: [JSONValue],
                   _ matcher: JSONMatcher) -> Mismatch
    {
        let target = wanted[miss.expectedIndex]
        let after = miss.searchedFrom > 0 ? " after event \(miss.searchedFrom)" : ""
        var got = events.isEmpty ? "no events" : "no such event (the step's events are listed below)"
        if let type = target["type"] {
            let sameType = events.indices.dropFirst(miss.searchedFrom).filter { events[$0]["type"] == type }
            if !sameType.isEmpty {
                let (nearest, differences) = sameType.map {
                    ($0, matcher.mismatches(expected: target, actual: events[$0], at: JSONPath(segments: [])))
                }.min { $0.1.count < $1.1.count } ?? (sameType[0], [])
                got = "event \(nearest + 1) differs: " + differences.map(\.description).joined(separator: "; ")
            } else if events.contains(where: { $0["type"] == type }) {
                got = "\(Format.compact(type)) only earlier (the step's events are listed below)"
            }
        }
        return Mismatch(path: "expected event \(miss.expectedIndex + 1)", expected: Format.compact(target) + after, got: got)
    }
}
