import Lua
import Portolan

/// Which files a script may run with `portolan.load`: the confinement `require` has, for files
/// named by path, and the same implementation (`LuaState.chunkBytes(ofFile:beneath:)`, over
/// ConfinedFile.c). A script names a relative path to a `.lua` file, without `..`; it is opened
/// beneath the directories the host opened to scripts (the app's own, and the running
/// scenario's), in that order, through no symbolic link at all, even one that stays inside, and
/// it must be a regular file with one name (a hard link could be a file from outside) of at most
/// `LuaState.maximumChunkFileSize`. What was opened is judged by its descriptor: no path string
/// is compared, so nothing can be swapped between a check and the open, and two spellings of a
/// name (Unicode NFC and NFD) are two names, as they are to the file system.
///
/// Why so strict: `KEY="value"` lines are valid Lua, so running `.env` would hand its secrets to
/// the script, and a syntax error quotes the file it came from (`/proc/self/maps:1: unexpected
/// symbol near '5598…'`). Nothing outside the directory is ever looked at, so a refused path
/// tells a script nothing about what exists outside.
enum ScriptFileConfinement {
    /// The longest path a script may name; longer ones are refused unread.
    static let maximumPathLength = 1_024

    /// The file `path` names in the first of `directories` that has anything of that name, and
    /// its text.
    static func read(_ path: String, in directories: [String]) throws(HostError) -> (file: String, text: [UInt8]) {
        if let why = refusal(of: path) {
            throw HostError("portolan.load: '\(shown(path))' is refused: \(why)")
        }
        for directory in directories {
            let file = directory == "." ? path : directory + "/" + path
            do {
                return (file, try LuaState.chunkBytes(ofFile: path, beneath: directory))
            } catch let refusal where refusal.isMissing {
                continue
            } catch {
                throw HostError("portolan.load: '\(shown(path))' in '\(directory)' is refused: \(error.reason)")
            }
        }
        let places = directories.map { "'\($0)'" }.joined(separator: " or ")
        throw HostError("portolan.load: no file '\(shown(path))' in \(places)")
    }

    /// Why a script may not name `path`, or nil when it may. Judged on its bytes, as the kernel
    /// reads it: compared as Swift strings, `../` followed by a combining mark would be one
    /// character, not a `..` component.
    static func refusal(of path: String) -> String? {
        let rule = "a script loads a .lua file by a path relative to the app's directory, without '..'"
        let bytes = Array(path.utf8)
        if bytes.isEmpty || bytes.count > maximumPathLength { return rule }
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "~") || bytes.contains(0) { return rule }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if components.contains(where: { $0.elementsEqual("..".utf8) }) { return rule }
        guard let last = components.last, last.count > 4, last.suffix(4).elementsEqual(".lua".utf8) else { return rule }
        return nil
    }

    /// The path as an error message may quote it: controls made visible, and a long one cut.
    private static func shown(_ path: String) -> String {
        Excerpt.of(Escaping.visibleControls(path))
    }
}
