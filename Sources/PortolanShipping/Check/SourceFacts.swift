import PortolanLua

/// What the linter reads from an app's source text rather than from running it: the literal
/// arguments of `portolan.redirect`, the ids tested with `request:goes_to`, guards and
/// interceptors that turn routes away unconditionally, and what decisions visibly change.
///
/// Only literals are read (`portolan.redirect { "root", "login" }`, `request:goes_to("movie")`);
/// anything computed at run time is left alone. The module is recognised as `portolan` and as any
/// local bound to `require "portolan"`.
struct SourceFacts {
    /// A value written literally in the source; `dynamic` for anything computed.
    indirect enum Literal: Equatable {
        case string(String)
        case table(positional: [Literal], named: [String: Literal])
        case other
        case dynamic
    }

    struct Redirect {
        var line: Int
        var destination: Literal
        /// When the redirect stands in a guard's function (`guard = function … end`): the line
        /// `NodeLineMarker` gives the node table holding the guard.
        var guardNodeLine: Int?
        /// The ids that guard tests with `request:goes_to("x")`: a redirect to one of them may be
        /// what it lets through next time.
        var guardTests: Set<String> = []
    }

    /// A literal redirect inside the guard of a node whose id is written literally.
    struct GuardRedirect {
        var node: String
        var destination: Literal
    }

    struct GoesTo {
        var line: Int
        var id: String
    }

    /// A guard whose body starts with `return false`, `return portolan.deny(…)` or
    /// `return portolan.redirect(…)`: every route into its node is turned away.
    struct GuardTurnAway {
        /// The line `NodeLineMarker` gives the node table holding the guard.
        var nodeLine: Int
        var line: Int
        var action: String
    }

    /// An interceptor whose body starts with `if request:goes_to("x") then return <turn away>`.
    struct InterceptTurnAway {
        var line: Int
        var id: String
        var action: String
    }

    /// A launch mode written literally in a push's options, `portolan.push(entry, { launch = "…" })`,
    /// or in a push destination, `{ push = entry, launch = "…" }`; `written` is which of the two.
    struct PushLaunch {
        var line: Int
        var launch: String
        var written = "portolan.push"
    }

    /// For each node table (by the line `NodeLineMarker` gives it), the line of each of its own
    /// fields, so that a finding about a field points at the field.
    var fieldLines: [Int: [String: Int]] = [:]
    var redirects: [Redirect] = []
    var goesTo: [GoesTo] = []
    var guardTurnAways: [GuardTurnAway] = []
    var guardRedirects: [GuardRedirect] = []
    var interceptTurnAways: [InterceptTurnAway] = []
    var pushLaunches: [PushLaunch] = []
    /// What guards, `can_leave`, interceptors and redirect rules visibly change (`DecisionEffects`).
    var decisionEffects: [DecisionEffects.Effect] = []

    init(source: String) {
        let tokens = LuaTokenizer.tokens(of: source)
        var reader = Reader(tokens: tokens)
        reader.findModuleNames()
        reader.scan()
        reader.findFieldLines()
        self = reader.facts
        decisionEffects = DecisionEffects.find(in: tokens, moduleNames: reader.moduleNames)
    }

    private struct Reader {
        let tokens: [LuaToken]
        var facts = SourceFacts(empty: ())
        var moduleNames: Set<String> = ["portolan"]
        let nodeTables: [NodeTable]

        init(tokens: [LuaToken]) {
            self.tokens = tokens
            nodeTables = NodeTable.find(in: tokens)
        }

        func token(_ index: Int) -> LuaToken? {
            index >= 0 && index < tokens.count ? tokens[index] : nil
        }

        func isSymbol(_ index: Int, _ symbol: String) -> Bool {
            token(index)?.isSymbol(symbol) == true
        }

        func isName(_ index: Int, _ name: String) -> Bool {
            token(index)?.name == name
        }

        /// `local p = require "portolan"` / `require("portolan")`.
        mutating func findModuleNames() {
            for index in tokens.indices where isName(index, "require") {
                let argument = isSymbol(index + 1, "(") ? token(index + 2) : token(index + 1)
                guard argument?.string == "portolan", isSymbol(index - 1, "="), let name = token(index - 2)?.name else {
                    continue
                }
                moduleNames.insert(name)
            }
        }

        /// `portolan.NAME` at `index` (the module name's token): the index after NAME, or nil.
        func moduleField(_ index: Int, _ field: String) -> Int? {
            guard let name = token(index)?.name, moduleNames.contains(name), isSymbol(index + 1, "."),
                isName(index + 2, field), !isSymbol(index - 1, ".") && !isSymbol(index - 1, ":")
            else { return nil }
            return index + 3
        }

        /// Each guard written as a function in a node table: its tokens' range, the node table, and
        /// the ids it tests with `goes_to`.
        func guardBodies() -> [(range: Range<Int>, node: NodeTable, tests: Set<String>)] {
            tokens.indices.compactMap { index in
                guard isGuardFunction(at: index), let body = bodyStart(afterFunctionAt: index + 2),
                    let node = enclosingNodeTable(of: index)
                else { return nil }
                let range = body..<LuaTokenizer.blockEnd(in: tokens, from: body)
                var tests: Set<String> = []
                for position in range where isSymbol(position, ":") && isName(position + 1, "goes_to") {
                    if case .string(let id) = callArgument(at: position + 2) { tests.insert(id) }
                }
                return (range, node, tests)
            }
        }

        /// `guard = function` as a field of a table constructor.
        func isGuardFunction(at index: Int) -> Bool {
            isName(index, HandlerName.guard.rawValue) && isSymbol(index + 1, "=") && isName(index + 2, "function")
                && (isSymbol(index - 1, "{") || isSymbol(index - 1, ",") || isSymbol(index - 1, ";"))
        }

        mutating func scan() {
            let guards = guardBodies()
            for index in tokens.indices {
                if let after = moduleField(index, "redirect") {
                    let inGuard = guards.filter { $0.range.contains(index) }.max { $0.range.lowerBound < $1.range.lowerBound }
                    let destination = callArgument(at: after)
                    facts.redirects.append(Redirect(
                        line: tokens[index].line, destination: destination, guardNodeLine: inGuard?.node.line,
                        guardTests: inGuard?.tests ?? []))
                    if let node = inGuard?.node.id {
                        facts.guardRedirects.append(GuardRedirect(node: node, destination: destination))
                    }
                } else if let after = moduleField(index, "push") {
                    if case .table(_, let named) = secondCallArgument(at: after), case .string(let launch)? = named["launch"] {
                        facts.pushLaunches.append(PushLaunch(line: tokens[index].line, launch: launch))
                    }
                } else if let launch = pushDestinationLaunch(at: index) {
                    facts.pushLaunches.append(PushLaunch(line: tokens[index].line, launch: launch, written: "{ push = … }"))
                } else if let after = moduleField(index, "intercept") {
                    readInterceptor(at: after)
                } else if isSymbol(index, ":"), isName(index + 1, "goes_to") {
                    if case .string(let id) = callArgument(at: index + 2) {
                        facts.goesTo.append(GoesTo(line: tokens[index + 1].line, id: id))
                    }
                } else if isGuardFunction(at: index) {
                    readGuard(at: index)
                }
            }
        }

        /// The fields of each node table, by the table's line.
        mutating func findFieldLines() {
            for table in nodeTables {
                facts.fieldLines[table.line, default: [:]].merge(table.fields) { first, _ in first }
            }
        }

        /// The first literal argument of a call whose arguments start at `index`: `("x")`, `("x", { … })`,
        /// `"x"`, `{…}`.
        func callArgument(at index: Int) -> Literal {
            if isSymbol(index, "(") {
                var position = index + 1
                let value = literal(&position)
                return isSymbol(position, ")") || isSymbol(position, ",") ? value : .dynamic
            }
            if token(index)?.string != nil || isSymbol(index, "{") {
                var position = index
                return literal(&position)
            }
            return .dynamic
        }

        /// The second argument of a parenthesised call whose arguments start at `index`, when it is
        /// a literal and the last: `(entry, { launch = "pop_to" })`, whatever the first is.
        func secondCallArgument(at index: Int) -> Literal {
            guard isSymbol(index, "(") else { return .dynamic }
            var position = index + 1
            skip(&position, until: { isSymbol($0, ",") || isSymbol($0, ")") })
            guard isSymbol(position, ",") else { return .dynamic }
            position += 1
            let value = literal(&position)
            return isSymbol(position, ")") ? value : .dynamic
        }

        /// The launch mode of a push destination written literally at `index`, `{ push = entry,
        /// launch = "…" }` (either field first): what a route, a redirect or a flow's step takes.
        func pushDestinationLaunch(at index: Int) -> String? {
            guard isSymbol(index, "{"), isName(index + 1, "push") || isName(index + 1, "launch"), isSymbol(index + 2, "=")
            else { return nil }
            var position = index
            // A node table has an id, and its own `launch` is checked with the node's options.
            guard case .table(_, let named) = table(&position), named["id"] == nil, named["push"] != nil,
                case .string(let launch)? = named["launch"]
            else { return nil }
            return launch
        }

        /// Reads one literal value at `position` and moves past it; `.dynamic` (position unchanged
        /// past what was read) when it is not a literal.
        func literal(_ position: inout Int) -> Literal {
            guard let current = token(position) else { return .dynamic }
            switch current.kind {
            case .string(let text):
                position += 1
                return .string(text)
            case .number:
                position += 1
                return .other
            case .name(let name) where ["true", "false", "nil"].contains(name):
                position += 1
                return .other
            case .symbol("{"):
                return table(&position)
            default:
                return .dynamic
            }
        }

        func table(_ position: inout Int) -> Literal {
            position += 1
            var positional: [Literal] = []
            var named: [String: Literal] = [:]
            while let current = token(position), !current.isSymbol("}") {
                var value: Literal
                if let name = current.name, isSymbol(position + 1, "=") {
                    position += 2
                    value = literal(&position)
                    if !endsField(position) { value = .dynamic }
                    named[name] = value
                } else {
                    value = literal(&position)
                    if !endsField(position) { value = .dynamic }
                    positional.append(value)
                }
                if value == .dynamic { skipField(&position) }
                if isSymbol(position, ",") || isSymbol(position, ";") { position += 1 }
            }
            position += 1
            return .table(positional: positional, named: named)
        }

        func endsField(_ position: Int) -> Bool {
            isSymbol(position, ",") || isSymbol(position, ";") || isSymbol(position, "}")
        }

        /// Skips to the `,`, `;` or `}` that ends the current field, over nested brackets.
        func skipField(_ position: inout Int) {
            skip(&position, until: endsField)
        }

        /// Skips to the first token outside nested brackets for which `ends` holds (or the end).
        func skip(_ position: inout Int, until ends: (Int) -> Bool) {
            var depth = 0
            while let current = token(position) {
                if depth == 0, ends(position) { return }
                if current.isSymbol("{") || current.isSymbol("(") || current.isSymbol("[") { depth += 1 }
                if current.isSymbol("}") || current.isSymbol(")") || current.isSymbol("]") { depth -= 1 }
                position += 1
            }
        }

        /// After `function`: the index after its parameter list, or nil.
        func bodyStart(afterFunctionAt index: Int) -> Int? {
            guard isSymbol(index + 1, "(") else { return nil }
            var position = index + 2
            while let current = token(position), !current.isSymbol(")") { position += 1 }
            return token(position) == nil ? nil : position + 1
        }

        /// `return false` / `return portolan.deny…` / `return portolan.redirect…` at `index`.
        func turnAway(at index: Int) -> String? {
            guard isName(index, "return") else { return nil }
            if isName(index + 1, "false") { return "return false" }
            for field in ["deny", "redirect"] where moduleField(index + 1, field) != nil {
                return "return \(tokens[index + 1].name ?? "portolan").\(field)(…)"
            }
            return nil
        }

        mutating func readGuard(at index: Int) {
            guard let body = bodyStart(afterFunctionAt: index + 2), let action = turnAway(at: body),
                let nodeLine = enclosingNodeLine(of: index)
            else { return }
            facts.guardTurnAways.append(GuardTurnAway(nodeLine: nodeLine, line: tokens[index].line, action: action))
        }

        /// The line of the innermost node table around `index`, as `NodeLineMarker` gives it.
        func enclosingNodeLine(of index: Int) -> Int? {
            enclosingNodeTable(of: index)?.line
        }

        /// The innermost node table around `index`.
        func enclosingNodeTable(of index: Int) -> NodeTable? {
            nodeTables.filter { $0.open < index && index < $0.close }.max { $0.open < $1.open }
        }

        /// `portolan.intercept(function(r) if r:goes_to("x") then return <turn away>`.
        mutating func readInterceptor(at index: Int) {
            guard isSymbol(index, "("), isName(index + 1, "function"), let body = bodyStart(afterFunctionAt: index + 1),
                isName(body, "if"), token(body + 1)?.name != nil, isSymbol(body + 2, ":"), isName(body + 3, "goes_to")
            else { return }
            var position = body + 4
            let argument: Literal
            if isSymbol(position, "(") {
                position += 1
                argument = literal(&position)
                guard isSymbol(position, ")") else { return }
                position += 1
            } else {
                argument = literal(&position)
            }
            guard case .string(let id) = argument, isName(position, "then"), let action = turnAway(at: position + 1) else {
                return
            }
            facts.interceptTurnAways.append(InterceptTurnAway(line: tokens[body].line, id: id, action: action))
        }
    }

    private init(empty: Void) {}
}
