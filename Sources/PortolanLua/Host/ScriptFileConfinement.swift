import Portolan

/// Which files a script may run with `portolan.load`: the confinement `require` has, for files
/// named by path. A script names a relative path to a `.lua` file, without `..`; it is looked up
/// in the directories the host opened to scripts (the app's own, and the running scenario's), and
/// must stay inside that directory once symbolic links are followed. The size and the kind of
/// file are `LuaState.chunkBytes`'s to check when the file is read.
///
/// Why so strict: `KEY="value"` lines are valid Lua, so running `.env` would hand its secrets to
/// the script, and a syntax error quotes the file it came from (`/proc/self/maps:1: unexpected
/// symbol near '5598…'`). The path is judged before the file system is asked anything, so a
/// refused path tells a script nothing about what exists outside.
enum ScriptFileConfinement {
    /// The longest path a script may name; longer ones are refused unread.
    static let maximumPathLength = 1_024

    /// The file `path` names in the first of `directories` that has it.
    static func locate(_ path: String, in directories: [String]) throws(HostError) -> String {
        if let why = refusal(of: path) {
            throw HostError("portolan.load: '\(shown(path))' is refused: \(why)")
        }
        for directory in directories {
            let candidate = directory == "." ? path : directory + "/" + path
            guard FilePaths.exists(candidate) else { continue }
            guard let real = FilePaths.realPath(candidate), let root = FilePaths.realPath(directory),
                  real.hasPrefix(root == "/" ? "/" : root + "/") else {
                throw HostError("portolan.load: '\(shown(path))' leads outside \(directory) through a symbolic link")
            }
            return candidate
        }
        let places = directories.map { "'\($0)'" }.joined(separator: " or ")
        throw HostError("portolan.load: no file '\(shown(path))' in \(places)")
    }

    /// Why a script may not name `path`, or nil when it may.
    static func refusal(of path: String) -> String? {
        let rule = "a script loads a .lua file by a path relative to the app's directory, without '..'"
        if path.isEmpty || path.utf8.count > maximumPathLength { return rule }
        if path.hasPrefix("/") || path.hasPrefix("~") || path.utf8.contains(0) { return rule }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") { return rule }
        if !path.hasSuffix(".lua") || path.hasSuffix("/.lua") || path == ".lua" { return rule }
        return nil
    }

    /// The path as an error message may quote it: controls made visible, and a long one cut.
    private static func shown(_ path: String) -> String {
        Excerpt.of(Escaping.visibleControls(path))
    }
}
