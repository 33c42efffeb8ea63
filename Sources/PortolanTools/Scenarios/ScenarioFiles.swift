#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Lua
import PortolanLua

/// The scenario files a command line names: each file as given, and for a folder every `.lua`
/// file beneath it, collected the one confined way (`ConfinedFolder`: sorted, hidden names
/// skipped, no link followed), so `portolan test scenarios` runs a folder in the same order every
/// time, and a scenario file a pull request turned into a link, or a FIFO, is refused by name
/// instead of being run or waited on.
public enum ScenarioFiles {
    public struct Missing: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The files `paths` name, in the order given, a folder's in their sorted order. A folder's
    /// files leave out `app`, the app the scenarios run against (`portolan test --app app.lua .`):
    /// the app is no scenario file, though it sits among them.
    public static func expand(_ paths: [String], excludingApp app: String? = nil) throws(Missing) -> [String] {
        let appFile = app.flatMap(FileIdentity.init(path:))
        var files: [String] = []
        for path in paths {
            let folder: ConfinedFolder
            do {
                folder = try ConfinedFolder(path)
            } catch where error.isNotFolder {
                // A file: read when it runs, where a link or a FIFO in its place is refused.
                files.append(path)
                continue
            } catch where error.isMissing {
                throw Missing(description: "No such scenario file: \(path)")
            } catch {
                throw Missing(description: "\(path) is refused: \(error.reason)")
            }
            let found = try Self.files(in: folder).filter { appFile == nil || FileIdentity(path: $0) != appFile }
            guard !found.isEmpty else {
                throw Missing(description: "No scenario file (*.lua) under \(path)")
            }
            files += found
        }
        return files
    }

    /// Where `portolan explore` finds an app's scenarios when it is given none: every `.lua` file
    /// beneath the `scenarios` folder beside the app, as `portolan test scenarios` runs them; none
    /// when there is no such folder.
    public static func beside(app: String) throws(Missing) -> [String] {
        let directory = FilePaths.directory(of: app) + "/scenarios"
        let folder: ConfinedFolder
        do {
            folder = try ConfinedFolder(directory)
        } catch where error.isMissing || error.isNotFolder {
            return []
        } catch {
            throw Missing(description: "\(directory) is refused: \(error.reason)")
        }
        return try files(in: folder)
    }

    /// The files of `folder`, as paths a person would type; none when it refused anything, which
    /// it then names.
    private static func files(in folder: ConfinedFolder) throws(Missing) -> [String] {
        guard folder.refused.isEmpty else {
            let lines = folder.refused.map { "  \(folder.path(of: $0.path)): \($0.reason)" }
            throw Missing(description: "Refused under \(folder.directory), where nothing is followed or waited on:\n" + lines.joined(separator: "\n"))
        }
        return folder.files.map(folder.path(of:))
    }

    /// Which file a path names, whatever the path: its device and inode.
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// A regular file this process may read.
    public static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }
}
