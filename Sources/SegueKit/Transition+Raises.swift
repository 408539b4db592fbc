extension Transition {
    /// Counts a raise; a new message is kept while fewer than 16 are.
    func noteRaise(_ message: String) {
        let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        if let i = raises.firstIndex(where: { $0.message == firstLine }) {
            raises[i].count += 1
        } else if raises.count < 16 {
            raises.append((firstLine, 1))
        }
    }
}
