import PortolanLua

/// Gives node tables a line number. Lua tables carry no position, so before the linter runs an app
/// it rewrites each table constructor that looks like a node, `{ id = "movie", … }`, into
/// `(__portolan_at(LINE, { id = "movie", … }))`. The call returns the table unchanged and
/// remembers LINE; nothing is added on a new line, so every other line number (in error messages
/// too) stays as written.
///
/// LINE is the line of the table's `id` field, or of its `{` when it has none. A node built by a
/// helper (`return { id = name, … }`) gets the helper's line, shared by every node it builds.
enum NodeLineMarker {
    /// The global the rewritten source calls.
    static let functionName = "__portolan_at"

    static func mark(_ source: String) -> String {
        let tables = NodeTable.find(in: LuaTokenizer.tokens(of: source))
        guard !tables.isEmpty else { return source }
        var insertions: [(offset: Int, closes: Bool, text: String)] = []
        for table in tables {
            insertions.append((table.start, false, "(\(functionName)(\(table.line),"))
            insertions.append((table.end, true, "))"))
        }
        // At one offset, a table that closes comes before one that opens (`f{…}{…}`).
        insertions.sort { ($0.offset, $0.closes ? 0 : 1) < ($1.offset, $1.closes ? 0 : 1) }
        let bytes = Array(source.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + insertions.count * 24)
        var position = 0
        for insertion in insertions {
            result += bytes[position..<insertion.offset]
            result += Array(insertion.text.utf8)
            position = insertion.offset
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }
}

/// A table constructor in the source that looks like a node: it has, at its own level, a field
/// named like a node's (`id`, `kind`, `children`, `route`, `active` or a handler).
struct NodeTable {
    static let nodeFields = Set(["id", "kind", "children", "route", "active"] + HandlerName.allCases.map(\.rawValue))

    /// Token indices of its `{` and `}`.
    var open: Int
    var close: Int
    /// Byte offsets: where `{` starts and `}` ends.
    var start: Int
    var end: Int
    /// The line the linter knows the node by: its `id` field's, or its `{`'s.
    var line: Int
    /// The line of each of its own fields (`name = …`); the first wins when one repeats.
    var fields: [String: Int]
    /// Its `id` when written as a string literal (`id = "movie"`), nil otherwise.
    var id: String?

    static func find(in tokens: [LuaToken]) -> [NodeTable] {
        var open: [(index: Int, fields: [String: Int], id: String?)] = []
        var tables: [NodeTable] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .symbol("{"), .symbol("("), .symbol("["):
                open.append((index, [:], nil))
            case .symbol("}"), .symbol(")"), .symbol("]"):
                guard let top = open.popLast() else { continue }
                let opener = tokens[top.index]
                guard token.isSymbol("}"), opener.isSymbol("{"), !nodeFields.isDisjoint(with: top.fields.keys) else { continue }
                tables.append(NodeTable(
                    open: top.index, close: index, start: opener.start, end: token.end,
                    line: top.fields["id"] ?? opener.line, fields: top.fields, id: top.id))
            case .name(let name):
                guard let top = open.last, tokens[top.index].isSymbol("{"), index > 0, index + 1 < tokens.count,
                    tokens[index + 1].isSymbol("="),
                    tokens[index - 1].isSymbol("{") || tokens[index - 1].isSymbol(",") || tokens[index - 1].isSymbol(";"),
                    top.fields[name] == nil
                else { continue }
                open[open.count - 1].fields[name] = token.line
                if name == "id", index + 3 < tokens.count, let id = tokens[index + 2].string,
                    [",", ";", "}"].contains(where: tokens[index + 3].isSymbol)
                {
                    open[open.count - 1].id = id
                }
            default:
                continue
            }
        }
        return tables
    }
}
