#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLuaShim

/// Why a file a script named was not read (ConfinedFile.h): nothing of that name is in the
/// directory, or what is there is refused, and why. Neither tells anything about what exists
/// outside the directory: nothing outside is ever looked at.
public struct ScriptFileRefusal: Error, Sendable, Equatable {
    /// Nothing of that name is inside the directory: another directory may have it.
    public let isMissing: Bool
    /// A folder walk (`ConfinedFolder`) was given something that is not a folder: a file, maybe.
    public let isNotFolder: Bool
    /// The words for it: "no file", "not a regular file", "a symbolic link on the way, …".
    public let reason: String

    /// The refusal ConfinedFile.h's `outcome` stands for.
    init(_ outcome: CInt) {
        isMissing = outcome == CInt(CONFINEDFILE_MISSING)
        isNotFolder = outcome == CInt(CONFINEDFILE_NOT_FOLDER)
        reason = String(cString: confinedfile_reason(outcome))
    }
}

/// How the components of a script file's path are opened: the kernel's openat2 where it has it,
/// or one component at a time (its fallback, which tests choose to check it on any kernel).
public enum ScriptFileWay: Sendable {
    case best, eachComponent
}

extension LuaState {
    /// The text of chunk file `path` (relative, `/`-separated) beneath `directory`, as
    /// ``chunkBytes(contentsOfFile:)`` reads it, and opened as the sandbox's `require` opens its
    /// modules: beneath a descriptor of `directory`, through no symbolic link, and only a regular
    /// file with one name, of at most `maximumChunkFileSize`.
    public static func chunkBytes(
        ofFile path: String, beneath directory: String, way: ScriptFileWay = .best
    ) throws(ScriptFileRefusal) -> [UInt8] {
        var text = confinedfile_text()
        let outcome = directory.withCString { directory in
            path.withCString { path in
                confinedfile_readbeneath(directory, path, CInt(way == .best ? CONFINEDFILE_BEST_WAY : CONFINEDFILE_EACH_COMPONENT), &text)
            }
        }
        defer { free(text.bytes) }
        guard outcome == CInt(CONFINEDFILE_OK) else {
            throw ScriptFileRefusal(outcome)
        }
        return ScriptFile.bytes(of: text)
    }
}

enum ScriptFile {
    /// A copy of what `text` holds (which the caller frees).
    static func bytes(of text: confinedfile_text) -> [UInt8] {
        guard let start = text.bytes, text.count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: text.count))
    }
}
