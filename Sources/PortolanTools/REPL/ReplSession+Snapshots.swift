import Lua
import Portolan
import PortolanLua

/// `:save FILE` and `:restore FILE`: snapshots from the REPL (docs/snapshots.md).
extension ReplSession {
    func save(to file: String) async {
        guard !file.isEmpty else {
            say("error: :save takes a file, as in :save state.json", .error)
            return
        }
        do {
            let bytes = try await host.snapshotBytes()
            try WholeFile.write(String(decoding: bytes, as: UTF8.self) + "\n", to: file)
            say("saved a snapshot (\(bytes.count) bytes) to \(file)", .note)
        } catch let error as SnapshotError {
            say("error: :save: \(error.reason)", .error)
        } catch {
            say("error: \(error)", .error)
        }
    }

    func restore(from file: String) async {
        guard !file.isEmpty else {
            say("error: :restore takes a file, as in :restore state.json", .error)
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try LuaState.chunkBytes(contentsOfFile: file)
        } catch {
            say("error: :restore: cannot read \(file): \(error)", .error)
            return
        }
        let outcome = await host.restore(bytes)
        say(outcome.description, outcome.name == "refused" ? .error : .note)
    }
}
