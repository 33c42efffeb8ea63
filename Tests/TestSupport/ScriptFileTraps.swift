import Foundation

/// Issue 18, finding 3: files in an app's directory that must not hand a script what lies outside
/// it, as a pull request (links, which git carries) or a local user (FIFOs, hard links) could plant
/// them. `require` and `portolan.load` must refuse each, for the reason named, without reading it.
public struct ScriptFileTrap: Sendable, CustomStringConvertible {
    public let name: String
    /// The path `portolan.load` is given, relative to the app's directory.
    public let path: String
    /// The module `require` is given for the same file.
    public let module: String
    /// Words the refusal must contain.
    public let reason: String
    public var description: String { name }

    /// Every trap `ScriptFileTraps.plant` lays.
    public static let all: [ScriptFileTrap] = [
        ScriptFileTrap(name: "a link to ../.env", path: "config.lua", module: "config", reason: "symbolic link"),
        ScriptFileTrap(name: "a link to an absolute path", path: "absolute.lua", module: "absolute", reason: "symbolic link"),
        ScriptFileTrap(name: "a link to nothing", path: "dangling.lua", module: "dangling", reason: "symbolic link"),
        ScriptFileTrap(name: "a directory link to ..", path: "sub/config.lua", module: "sub.config", reason: "symbolic link"),
        ScriptFileTrap(name: "a directory link deeper down", path: "screens/up/config.lua", module: "screens.up.config",
                       reason: "symbolic link"),
        ScriptFileTrap(name: "a link to a file inside", path: "alias.lua", module: "alias", reason: "symbolic link"),
        ScriptFileTrap(name: "a link to the NFD twin of the app's directory", path: "twin.lua", module: "twin",
                       reason: "symbolic link"),
        ScriptFileTrap(name: "a FIFO", path: "pipe.lua", module: "pipe", reason: "not a regular file"),
        ScriptFileTrap(name: "a directory named x.lua", path: "folder.lua", module: "folder", reason: "not a regular file"),
        ScriptFileTrap(name: "a hard link to a file outside", path: "hard.lua", module: "hard", reason: "hard link"),
        ScriptFileTrap(name: "a sparse file of 17 MiB", path: "big.lua", module: "big", reason: "larger than 16 MiB"),
    ]
}

/// Lays the traps: under `root`, an app directory named `appé` in NFC beside its NFD twin, a
/// `.env` and a `config.lua` outside it, and in it the links, the FIFO, the hard link, the
/// directory and the sparse file of `ScriptFileTrap.all`. Every secret sets `SECRET` and holds
/// `s3cr3t`, so a test sees both a run and a quote of it.
public enum ScriptFileTraps {
    /// The app's directory, in NFC ("app" and U+00E9).
    public static let appDirectory = "app\u{E9}"
    /// Its twin, the same name to Unicode, not to the file system (NFD: "e" and U+0301).
    public static let twinDirectory = "appe\u{301}"
    public static let secretWord = "s3cr3t"

    /// Lays the traps under `root` and returns the app's directory.
    public static func plant(in root: TemporaryDirectory) throws -> String {
        let app = root.path(appDirectory)
        for directory in [app, app + "/screens", app + "/folder.lua", root.path(twinDirectory), root.path("outside")] {
            try make(mkdir(directory, 0o755), "mkdir \(directory)")
        }
        let secret = "SECRET = \"\(secretWord)\"\n"
        try root.write(".env", secret)
        try root.write("config.lua", secret)
        try root.write("outside/secret.lua", secret)
        try root.write(twinDirectory + "/config.lua", secret)
        try root.write(appDirectory + "/app.lua", #"portolan.app { id = "root", children = { { id = "a" } } }"#)
        try root.write(appDirectory + "/more.lua", "return 'more'")
        try root.write(appDirectory + "/screens/list.lua", "return 'list'")
        let links = [
            "config.lua": "../.env", "absolute.lua": root.path(".env"), "dangling.lua": "../no-such-file.lua",
            "sub": "..", "screens/up": "../..", "alias.lua": "more.lua", "twin.lua": "../\(twinDirectory)/config.lua",
        ]
        for (name, target) in links { try make(symlink(target, app + "/" + name), "symlink \(name)") }
        try make(mkfifo(app + "/pipe.lua", 0o644), "mkfifo")
        try make(link(root.path("outside/secret.lua"), app + "/hard.lua"), "link")
        // Sparse: 17 MiB on paper, nothing on disk.
        try root.write(appDirectory + "/big.lua", "")
        try make(truncate(app + "/big.lua", 17 << 20), "truncate")
        return app
    }

    /// Swaps `name` in `directory` between a module returning "inside" and a link to `../.env`,
    /// until `stop` says so: what a race between a check and an open would need. Each state is
    /// put in place by one rename, and held about as long as the other.
    public static func swapper(in directory: String, name: String, stop: StopFlag) -> Thread {
        Thread {
            let file = directory + "/" + name, temporaryFile = directory + "/swap.file"
            let temporaryLink = directory + "/swap.link", module = Array("return 'inside'".utf8)
            while !stop.isSet {
                let descriptor = open(temporaryFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if descriptor >= 0 {
                    _ = module.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    close(descriptor)
                }
                _ = rename(temporaryFile, file)
                sched_yield()
                _ = unlink(temporaryLink)
                _ = symlink("../.env", temporaryLink)
                _ = rename(temporaryLink, file)
                sched_yield()
            }
            stop.finished.signal()
        }
    }

    private static func make(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["what": what, "errno": errno]) }
    }
}

/// A flag one thread raises and another polls, signalling `finished` once it has stopped.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    let finished = DispatchSemaphore(value: 0)
    public init() {}
    public var isSet: Bool { lock.withLock { set } }
    /// Raises the flag and waits for the thread polling it to stop: before its directory goes.
    public func raiseAndWait() {
        lock.withLock { set = true }
        finished.wait()
    }
}
