import Lua
import Portolan

/// The script files a host runs: those it is given (the app file), and those a script names
/// (`portolan.load`), which are confined to the app's directory or the scenario's
/// (ScriptFileConfinement).
final class ScriptFiles {
    private let state: LuaState
    /// Where `require` looks when the configuration names no directory: the app's.
    private let configuredModuleDirectory: String?
    /// The app's own directory: where `portolan.load` finds the files a script names, and
    /// `require` its modules unless the configuration says otherwise.
    private(set) var appDirectory: String?
    /// The running scenario file's directory, also open to `portolan.load`.
    var scriptDirectory: String?
    /// Every file loaded as a script (the app file, `portolan.load`), in order, once each.
    private(set) var loaded: [String] = []

    init(state: LuaState, configuredModuleDirectory: String?) {
        self.state = state
        self.configuredModuleDirectory = configuredModuleDirectory
    }

    /// A file the host was given (the app file, a script to run): read as named.
    func load(_ path: String) throws(HostError) -> LuaValue {
        // Remembered even when it does not compile: fixing it is the edit a watcher waits for.
        if FilePaths.exists(path) { remember(path) }
        do {
            return try compile(try LuaState.chunkBytes(contentsOfFile: path), from: path)
        } catch {
            throw HostError(error)
        }
    }

    /// A file a script names (`portolan.load`): only inside the app's directory or the scenario's
    /// (the working directory when there is neither). The first one a script loads before any
    /// app is the app, and its directory becomes the app's.
    func loadNamedByScript(_ path: String) throws(HostError) -> LuaValue {
        var directories: [String] = []
        for case let directory? in [appDirectory, scriptDirectory] where !directories.contains(directory) {
            directories.append(directory)
        }
        let (file, text) = try ScriptFileConfinement.read(path, in: directories.isEmpty ? ["."] : directories)
        if appDirectory == nil { try useAppDirectory(FilePaths.directory(of: file)) }
        remember(file)
        do {
            return try compile(text, from: file)
        } catch {
            throw HostError(error)
        }
    }

    /// Makes `directory` the app's: where scripts load files and, unless configured, require modules.
    func useAppDirectory(_ directory: String) throws(HostError) {
        appDirectory = directory
        guard configuredModuleDirectory == nil else { return }
        do {
            try state.setModuleDirectory(directory)
        } catch {
            throw HostError(error)
        }
    }

    /// What a swap of the rules changes here: the app's directory and the files loaded.
    struct Saved {
        let appDirectory: String?
        let loaded: [String]
    }

    var saved: Saved { Saved(appDirectory: appDirectory, loaded: loaded) }

    /// For a rules change (`RulesReload`): `directory` becomes the app's, when given, and the files
    /// of the rules replaced are no longer the app's (the new rules load their own).
    func startAfresh(in directory: String?) throws(HostError) {
        loaded = []
        if let directory { try useAppDirectory(directory) }
    }

    /// Puts back what `startAfresh` changed (a rules change that failed).
    func putBack(_ saved: Saved) {
        loaded = saved.loaded
        if let directory = saved.appDirectory { try? useAppDirectory(directory) }
    }

    private func remember(_ file: String) {
        if !loaded.contains(file) { loaded.append(file) }
    }

    /// "@": Lua shortens a long path from the front ("...dir/app.lua:3:"), keeping the file name.
    private func compile(_ text: [UInt8], from file: String) throws(LuaError) -> LuaValue {
        try CompiledChunks.function(text, chunkName: "@" + file, in: state)
    }
}
