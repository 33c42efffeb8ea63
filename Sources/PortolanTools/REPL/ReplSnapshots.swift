import Lua
import Portolan
import PortolanLua

/// `:save FILE` and `:restore FILE`: snapshots from the REPL (docs/snapshots.md).
struct ReplSnapshots {
    let host: PortolanHost
    let printer: ReplPrinter

    nonisolated(nonsending) func save(to file: String) async {
        guard !file.isEmpty else {
            printer.say("error: :save takes a file, as in :save state.json", .error)
            return
        }
        do {
            let bytes = try await host.snapshotBytes()
            try WholeFile.write(String(decoding: bytes, as: UTF8.self) + "\n", to: file)
            printer.say("saved a snapshot (\(bytes.count) bytes) to \(file)", .note)
        } catch let error as SnapshotError {
            printer.say("error: :save: \(error.reason)", .error)
        } catch {
            printer.say("error: \(error)", .error)
        }
    }

    nonisolated(nonsending) func restore(from file: String) async {
        guard !file.isEmpty else {
            printer.say("error: :restore takes a file, as in :restore state.json", .error)
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try LuaState.chunkBytes(contentsOfFile: file)
        } catch {
            printer.say("error: :restore: cannot read \(file): \(error)", .error)
            return
        }
        let outcome = await host.restore(bytes)
        printer.say(outcome.description, outcome.name == "refused" ? .error : .note)
    }
}
