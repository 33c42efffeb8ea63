/// The repository's checkout, where the examples, the scripts and the docs are: found from this
/// file's own path, so a test finds them whatever directory it runs in.
public enum Repository {
    /// The absolute path of the repository's root (this file is Tests/TestSupport/Repository.swift).
    public static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// The absolute path of `relative`, a path from the repository's root.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
