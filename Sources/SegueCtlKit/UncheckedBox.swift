/// Carries a value that is not Sendable into worker threads whose use of it the caller keeps safe: the runner's
/// workers only read its configuration, and each scenario has its own connection.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
