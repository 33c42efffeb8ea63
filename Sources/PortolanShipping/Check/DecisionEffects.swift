/// What the decisions written in an app's source visibly change: the functions a route and a plan
/// both call — guards, `can_leave`, interceptors and redirect rules written as functions — must
/// only decide, since a plan (`portolan.plan`, `:plan`) runs them too and nothing may follow from
/// it. Read from the tokens of each decision written literally (`guard = function(node, request)
/// … end`, `portolan.intercept(function(request) … end)`): an assignment to a name the function
/// does not declare (a global, or an upvalue), a field set on a table it did not make, or a call
/// of a `portolan` function that acts (`route`, `refresh`, `back`, `resume`, `switch_to`,
/// `did_enter`…). What stands in an `if not request.dry_run then … end` block is what the app
/// means to do on a route only, and is not counted. A decision bound by name is not read.
package struct DecisionEffects {
    /// One visible change, at its line.
    struct Effect: Equatable {
        /// `the guard`, `a can_leave`, `an interceptor`, `a redirect rule`.
        var decision: String
        /// The line of the decision's `function`.
        var decisionLine: Int
        var line: Int
        /// `assigns 'visits'`, `sets 'session.seen'`, `calls portolan.route`.
        var what: String
    }

    /// The `portolan` functions that act rather than read or decide: everything that routes,
    /// reports, declares, waits or sets state. The others (`find`, `match`, `history`, `pending`,
    /// `active_path`, `active_entries`, `tree`, `snapshot`, `deny`, `redirect`) only read or make a
    /// verdict.
    package static let actingFunctions: Set<String> = [
        "route", "push", "back", "update", "merge", "push_context", "reset", "remove", "replace", "step", "refresh", "resume",
        "switch_to", "reset_tabs", "restore", "did_enter", "did_leave", "did_remove", "did_switch", "wait", "load", "app", "flow",
        "initial_state", "intercept", "on", "redirect_rule", "plan",
    ]

    /// The node fields holding decisions, each with the position (from 1) of its parameter that is
    /// made afresh for every call, whose fields it may set.
    private static let decisionFields = ["guard": ("the guard", 2), "can_leave": ("a can_leave", 2)]
    /// The module functions taking a decision, likewise.
    private static let decisionCalls = ["intercept": ("an interceptor", 1), "redirect_rule": ("a redirect rule", 1)]

    private let tokens: [LuaToken]
    private let moduleNames: Set<String>
    private(set) var effects: [Effect] = []

    /// The effects of every decision written literally in `tokens`; `moduleNames` are the names
    /// the module is known by (`portolan`, and locals bound to `require "portolan"`).
    static func find(in tokens: [LuaToken], moduleNames: Set<String>) -> [Effect] {
        var reader = DecisionEffects(tokens: tokens, moduleNames: moduleNames)
        for index in tokens.indices {
            if let (label, fresh) = reader.decisionField(at: index) {
                reader.read(functionAt: index + 2, label: label, freshParameter: fresh)
            } else if let (label, fresh) = reader.decisionCall(at: index) {
                reader.read(functionAt: index + 4, label: label, freshParameter: fresh)
            }
        }
        return reader.effects
    }

    private init(tokens: [LuaToken], moduleNames: Set<String>) {
        self.tokens = tokens
        self.moduleNames = moduleNames
    }

    private func token(_ index: Int) -> LuaToken? {
        index >= 0 && index < tokens.count ? tokens[index] : nil
    }

    private func isSymbol(_ index: Int, _ symbol: String) -> Bool { token(index)?.isSymbol(symbol) == true }
    private func isName(_ index: Int, _ name: String) -> Bool { token(index)?.name == name }

    /// `guard = function` in a table constructor.
    private func decisionField(at index: Int) -> (String, Int)? {
        guard let name = token(index)?.name, let decision = Self.decisionFields[name], isSymbol(index + 1, "="),
            isName(index + 2, "function"), isSymbol(index - 1, "{") || isSymbol(index - 1, ",") || isSymbol(index - 1, ";")
        else { return nil }
        return decision
    }

    /// `portolan.intercept(function`.
    private func decisionCall(at index: Int) -> (String, Int)? {
        guard let module = token(index)?.name, moduleNames.contains(module), isSymbol(index + 1, "."),
            let name = token(index + 2)?.name, let decision = Self.decisionCalls[name], isSymbol(index + 3, "("),
            isName(index + 4, "function"), !isSymbol(index - 1, ".") && !isSymbol(index - 1, ":")
        else { return nil }
        return decision
    }

    /// The names in the parameter list after `function` at `index`, and the index after it.
    private func parameters(ofFunctionAt index: Int) -> ([String], Int)? {
        var position = index + 1
        while token(position)?.name != nil || isSymbol(position, ".") { position += 1 }   // `function a.b(`
        guard isSymbol(position, "(") else { return nil }
        var names: [String] = []
        position += 1
        while let current = token(position), !current.isSymbol(")") {
            if let name = current.name { names.append(name) }
            position += 1
        }
        return token(position) == nil ? nil : (names, position + 1)
    }

    /// Reads the function at `index` up to its `end`, noting what it changes.
    private mutating func read(functionAt index: Int, label: String, freshParameter: Int) {
        guard let (parameters, body) = parameters(ofFunctionAt: index) else { return }
        let end = blockEnd(from: body)
        var declared = Set(parameters)
        let fresh = parameters.indices.contains(freshParameter - 1) ? parameters[freshParameter - 1] : nil
        var madeHere: Set<String> = fresh.map { [$0] } ?? []
        for position in body..<end {
            declared.formUnion(declaredNames(at: position))
            if isName(position, "local") { madeHere.formUnion(declaredNames(at: position)) }
        }
        var brackets: [String] = []
        var position = body
        while position < end, let current = token(position) {
            defer { position += 1 }
            if let afterDryRun = dryRunBlockEnd(at: position) {
                // `if not request.dry_run then … end`: what only a route does, said so.
                position = afterDryRun
                continue
            }
            if case .symbol(let symbol) = current.kind {
                if ["{", "(", "["].contains(symbol) { brackets.append(symbol) }
                if ["}", ")", "]"].contains(symbol) { _ = brackets.popLast() }
                continue
            }
            guard let name = current.name, !isSymbol(position - 1, "."), !isSymbol(position - 1, ":") else { continue }
            if moduleNames.contains(name), isSymbol(position + 1, "."), let field = token(position + 2)?.name,
                Self.actingFunctions.contains(field)
            {
                note(label, index, position, "calls \(name).\(field)")
            } else if brackets.last != "{", !isName(position - 1, "local"), !isName(position - 1, "function"),
                let target = assignmentTarget(at: position)
            {
                if target == name, !declared.contains(name) {
                    note(label, index, position, "assigns '\(name)', which outlives the call")
                } else if target != name, !madeHere.contains(name) {
                    note(label, index, position, "sets '\(target)', on a table that outlives the call")
                }
            }
        }
    }

    /// At `if not NAME.dry_run then`: the index of the `end` closing its block; nil elsewhere.
    private func dryRunBlockEnd(at index: Int) -> Int? {
        guard isName(index, "if"), isName(index + 1, "not"), token(index + 2)?.name != nil, isSymbol(index + 3, "."),
            isName(index + 4, "dry_run"), isName(index + 5, "then")
        else { return nil }
        return blockEnd(from: index + 6)
    }

    private mutating func note(_ label: String, _ function: Int, _ position: Int, _ what: String) {
        effects.append(Effect(decision: label, decisionLine: tokens[function].line, line: tokens[position].line, what: what))
    }

    /// The names `local a, b`, `local function f`, `for k, v in` or a nested `function(x, y)` declare at `index`.
    private func declaredNames(at index: Int) -> [String] {
        var position = index + 1
        if isName(index, "local") || isName(index, "for") {
            if isName(position, "function") { return token(position + 1)?.name.map { [$0] } ?? [] }
            var names: [String] = []
            while let name = token(position)?.name, !["in", "function"].contains(name) {
                names.append(name)
                position += 1
                while isSymbol(position, "<") || token(position)?.name == "const" || token(position)?.name == "close" || isSymbol(position, ">") {
                    position += 1
                }
                guard isSymbol(position, ",") else { break }
                position += 1
            }
            return names
        }
        if isName(index, "function"), let (parameters, _) = parameters(ofFunctionAt: index) { return parameters }
        return []
    }

    /// `name =`, `name.a.b =` or `name[k] =` starting at `index`: the target's text; nil when the
    /// name at `index` is not assigned to.
    private func assignmentTarget(at index: Int) -> String? {
        guard let name = token(index)?.name else { return nil }
        var text = name
        var position = index + 1
        while true {
            if isSymbol(position, "."), let field = token(position + 1)?.name {
                text += "." + field
                position += 2
            } else if isSymbol(position, "[") {
                var depth = 0
                repeat {
                    if isSymbol(position, "[") { depth += 1 }
                    if isSymbol(position, "]") { depth -= 1 }
                    position += 1
                } while depth > 0 && token(position) != nil
                text += "[…]"
            } else {
                break
            }
        }
        return isSymbol(position, "=") ? text : nil
    }

    /// The index of the `end` closing the block whose body starts at `index`.
    private func blockEnd(from index: Int) -> Int {
        LuaTokenizer.blockEnd(in: tokens, from: index)
    }
}
