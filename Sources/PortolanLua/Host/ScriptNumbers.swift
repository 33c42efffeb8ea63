import Portolan

/// Numbers a script (or a command line) hands Swift, checked before Swift converts them: an
/// out-of-range value is an error for that call, never a trap in `Duration` or `Int`.
public enum ScriptNumbers {
    /// The longest wait or time limit, in seconds (about 31 years): any longer is a mistake, and
    /// converting it to a `Duration` could overflow.
    public static let maxSeconds: Double = 1e9

    /// `seconds` as a `Duration`, or nil unless it is finite and within 0…`maxSeconds`.
    public static func duration(seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds >= 0, seconds <= maxSeconds else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let nanoseconds = Int64(((seconds - Double(whole)) * 1e9).rounded(.down))
        return .seconds(whole) + .nanoseconds(nanoseconds)
    }

    /// What a script is told when `duration(seconds:)` refuses its number.
    static func waitError(_ seconds: Double) -> String {
        "portolan.wait expects a number of seconds from 0 to \(Int64(maxSeconds)), not \(seconds)"
    }
}
