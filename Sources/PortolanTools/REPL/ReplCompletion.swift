/// What Tab offers for the text before the cursor: the `word` it would replace (the end of that
/// text) and the full replacements for it, sorted and without duplicates.
///
/// A line editor inserts the only candidate, or the candidates' longest common prefix when it is
/// longer than the word, and lists them otherwise.
public struct ReplCompletion: Sendable, Equatable {
    public var word: String
    public var candidates: [String]

    public init(word: String, candidates: [String]) {
        self.word = word
        self.candidates = Array(Set(candidates)).sorted()
    }

    public static let none = ReplCompletion(word: "", candidates: [])

    /// The longest prefix all candidates share (by Character).
    public var commonPrefix: String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
