/// The "Exit status" paragraph that ends each command's discussion, so `--help` (and the man page
/// generated from the same text) says what every status means.
enum ExitStatusHelp {
    /// The status swift-argument-parser exits with for a usage error (EX_USAGE): the command did nothing.
    static let usage: (status: Int32, meaning: String) = (64, "the arguments are wrong (a usage error): nothing ran")

    /// `Exit status:` and one line per status, in order (each short enough not to wrap). It starts with a line break,
    /// to stand apart from the discussion it ends (whose last line, in a string literal, has none).
    static func paragraph(_ statuses: [(status: Int32, meaning: String)]) -> String {
        let lines = (statuses + [usage]).sorted { $0.status < $1.status }.map { status, meaning in
            let number = "\(status)"
            return "  " + number + String(repeating: " ", count: max(1, 5 - number.count)) + meaning
        }
        return "\n" + (["Exit status:"] + lines).joined(separator: "\n")
    }
}
