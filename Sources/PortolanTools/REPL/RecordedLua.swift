import PortolanShipping

/// How `:record` reads a Lua chunk typed at the prompt, from its tokens (the linter's
/// `LuaTokenizer`): whether it only looked at something, whether it is one `portolan.route` call,
/// which globals it assigns and which names it mentions.
struct RecordedLua {
    private let tokens: [LuaToken]

    init(_ chunk: String) {
        tokens = LuaTokenizer.tokens(of: chunk)
    }

    private func name(_ index: Int) -> String? { index < tokens.count ? tokens[index].name : nil }
    private func isSymbol(_ index: Int, _ symbol: String) -> Bool { index < tokens.count && tokens[index].isSymbol(symbol) }

    /// A chunk that only reads: a name or a field (`logged_in`, `portolan.state.cart`), or a call
    /// of a `portolan` function that does not act (`portolan.pending()`, `portolan.active_path()`,
    /// the complement of `DecisionEffects.actingFunctions`) with no call in its arguments.
    /// Replaying it would change nothing, so the file leaves it out.
    var isLook: Bool {
        guard !tokens.isEmpty else { return false }
        if tokens.enumerated().allSatisfy({ $0.element.name != nil ? $0.offset % 2 == 0 : ($0.offset % 2 == 1 && $0.element.isSymbol(".")) }),
            tokens.count % 2 == 1, !Self.keywords.contains(name(0) ?? "")
        {
            return true
        }
        guard name(0) == "portolan", isSymbol(1, "."), let function = name(2), !DecisionEffects.actingFunctions.contains(function),
            isSymbol(3, "("), tokens.last?.isSymbol(")") == true
        else { return false }
        return !tokens[4...].dropLast().contains { $0.isSymbol("(") }
    }

    /// Whether the chunk starts as a `portolan.route` call: with one route and an expression's
    /// value, the file expects what it returned, as for a URL line.
    var startsWithRouteCall: Bool {
        name(0) == "portolan" && isSymbol(1, ".") && name(2) == "route"
    }

    /// The globals a chunk that is only an assignment or a function definition sets (`x = 1`,
    /// `a, b = 1, 2`, `cart.items = 3` sets `cart`, `function helper() … end`); nil for any other
    /// chunk, which the file always replays.
    var assignedGlobals: Set<String>? {
        if name(0) == "function", let defined = name(1) { return [defined] }
        var names: Set<String> = []
        var index = 0
        while let target = name(index), !Self.keywords.contains(target) {
            names.insert(target)
            index += 1
            while isSymbol(index, "."), name(index + 1) != nil { index += 2 }
            if isSymbol(index, "=") { return names }
            guard isSymbol(index, ",") else { return nil }
            index += 1
        }
        return nil
    }

    /// Every name the chunk mentions.
    var names: Set<String> {
        Set(tokens.compactMap(\.name))
    }

    private static let keywords: Set<String> = Set(Completer.keywords)
}
