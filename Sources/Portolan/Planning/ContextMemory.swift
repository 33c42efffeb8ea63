/// What an update of the top screen in place does with the contexts that screen was shown with
/// before (`Entry.earlierContexts`).
///
/// React Navigation 8's `pushParams` gives a screen new parameters and remembers the old ones, so
/// that back gives them back before it leaves the screen: a search screen whose filters change,
/// where back undoes the last filter first.
public enum ContextMemory: String, Hashable, Sendable, CaseIterable {
    /// The names an update's `memory` takes, as messages list them: `"keep", "remember" or "restore"`.
    public static let choices = allCases.dropLast().map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        + " or \"\(allCases.last?.rawValue ?? "")\""

    /// The screen remembers what it remembered, and nothing more (`setParams`, `merge`).
    case keep
    /// The screen remembers the context it leaves (`pushParams`): back restores it.
    case remember
    /// The screen takes back the context it remembered last, and forgets it (what back does
    /// while the top screen remembers one); `unreachable` when it remembers none.
    case restore
}
