import SegueJSON

/// One line the daemon sent during a golden case, and what caused it (`step 5 container.select`), for reports.
struct GoldenLine {
    var value: JSONValue
    var cause: String
}
