import PortolanLua

/// How the REPL colours what it prints: the one place that decides whether there are colours
/// at all, and which.
///
/// Colours only on a terminal, and never when `NO_COLOR` is set (to anything but the empty
/// string, as https://no-color.org says). Plain text is the default, so a transcript, a pipe and
/// the tests see no escape codes.
public struct ReplStyle: Sendable, Equatable {
    /// Whether escape codes are written at all.
    public let isColored: Bool

    public init(colored: Bool) {
        isColored = colored
    }

    /// No colours.
    public static let plain = ReplStyle(colored: false)

    /// The decision: colours when standard output is a terminal, `NO_COLOR` is unset or empty,
    /// and the terminal is not `dumb`.
    public static func decide(outputIsTerminal: Bool, environment: [String: String]) -> ReplStyle {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        return ReplStyle(colored: outputIsTerminal && !noColor && !dumb)
    }

    public enum Role: Sendable {
        /// The prompts.
        case prompt
        /// `error: …` and `failed: …` lines.
        case error
        /// An instruction the router ran or would run.
        case instruction
        /// The `active: …` line.
        case activePath
        /// What the REPL says about what it did (`matched …`, `reloaded`, `recording to …`).
        case note
        /// A router event shown by `:events on`.
        case event
    }

    /// `text` in the role's colour, or as it is without colours.
    public func paint(_ text: String, _ role: Role) -> String {
        guard isColored, !text.isEmpty else { return text }
        return Self.code(role) + text + "\u{1B}[0m"
    }

    /// A prompt for libedit, whose escape codes are between two `literal` characters so that
    /// the editor does not count them in the prompt's width.
    public func prompt(_ text: String, literal: Character) -> String {
        guard isColored else { return text }
        return "\(literal)\(Self.code(.prompt))\(literal)\(text)\(literal)\u{1B}[0m\(literal)"
    }

    private static func code(_ role: Role) -> String {
        switch role {
        case .prompt: return "\u{1B}[1;36m"      // bold cyan
        case .error: return "\u{1B}[31m"         // red
        case .instruction: return "\u{1B}[33m"   // yellow
        case .activePath: return "\u{1B}[32m"    // green
        case .note: return "\u{1B}[2m"           // dim
        case .event: return "\u{1B}[35m"         // magenta
        }
    }
}
