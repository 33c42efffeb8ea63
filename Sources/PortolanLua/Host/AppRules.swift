/// An app's rules as a host loads them, kept as the rules in service so that they can be loaded
/// again: what `reload()` runs again, and what a canary that fails reverts to (the rules embedded
/// in the app, or the bundle in service before the swap).
public enum AppRules: Sendable, Equatable {
    /// An app file; its directory is the app's (`require`, `portolan.load`).
    case file(String)
    /// App text, named `chunkName` in errors; it has no directory of its own.
    case source(String, chunkName: String)
    /// An app file's text as a tool rewrote it (the linter's annotated copy): errors name the
    /// file, and its directory is the app's, as for `.file`.
    case fileWithText(String, text: String)

    /// The app's directory, for a file.
    var directory: String? {
        switch self {
        case .file(let path), .fileWithText(let path, _): FilePaths.directory(of: path)
        case .source: nil
        }
    }

    /// The app file, for a file.
    var file: String? {
        switch self {
        case .file(let path), .fileWithText(let path, _): path
        case .source: nil
        }
    }
}
