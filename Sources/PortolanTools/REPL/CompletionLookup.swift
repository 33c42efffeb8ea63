import Lua
import Portolan
import PortolanLua

/// What Tab offers: the rules of ``Completer`` applied to what the host knows, its graph (URLs,
/// node ids) and its Lua globals and fields (`ReplKeys.lua`).
struct CompletionLookup {
    let host: PortolanHost

    /// What Tab offers for `prefix`, the text of the line before the cursor; `atChunkStart` is
    /// false while a chunk continues over lines (then every line is Lua).
    func complete(_ prefix: String, atChunkStart: Bool) async -> ReplCompletion {
        let graph = await host.graph
        switch Completer.request(for: prefix, atChunkStart: atChunkStart) {
        case .command(let partial):
            return ReplCompletion(
                word: ":" + partial,
                candidates: ReplInput.commandNames.filter { $0.hasPrefix(partial) }.map { ":" + $0 })
        case .commandArgument(let word, let choices):
            return ReplCompletion(word: word, candidates: choices.filter { $0.hasPrefix(word) })
        case .url(let text):
            guard let graph else { return .none }
            return ReplCompletion(word: text, candidates: Completer.urls(text, graph: graph))
        case .string(let contents):
            guard let graph else { return .none }
            if contents.first == "/" || ParsedURL.isURL(contents) {
                return ReplCompletion(word: contents, candidates: Completer.urls(contents, graph: graph))
            }
            return ReplCompletion(word: contents, candidates: Completer.nodeIDs(contents, graph: graph))
        case .name(let table, let partial, _):
            var names = await keys(of: table ?? "", prefix: partial)
            if table == nil { names += Completer.keywords.filter { $0.hasPrefix(partial) } }
            return ReplCompletion(word: partial, candidates: names)
        case .nothing:
            return .none
        }
    }

    /// The string keys of the table a dotted path names (`_G` for ""), read without metamethods
    /// by `ReplKeys.lua`, which gets the path, the prefix and the host's `shown` as its arguments.
    private func keys(of table: String, prefix: String) async -> [String] {
        _ = ToolBytecode.replKeysInUse
        return await host.perform { host in
            let values = try? host.call(
                replKeysSource, chunkName: replKeysChunkName, arguments: [.string(table), .string(prefix), try host.shownTableFunction])
            return (values?.first?.arrayValue ?? []).compactMap(\.stringValue)
        }
    }
}
