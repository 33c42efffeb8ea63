import Portolan

/// The check that ends each repro scenario (`ExploreRepro`): Lua that fails for the reason the
/// explorer found, one function per group of kinds.
enum ExploreReproChecks {
    static func failure(_ finding: ExploreFinding, _ context: (action: String, name: String)) -> [String] {
        let action = context.action, name = context.name
        switch finding.kind {
        case .handlerError, .redirectLoop:
            let test = finding.kind == .handlerError
                ? "err.kind == \"timeout\" or ((err.kind == \"handler_failed\" or err.kind == \"invalid\") and err.redirect_chain == nil and (message:find(\"instruction budget exceeded\", 1, true) or message:find(\"[^%s:()'\\\"]+:%d+: \")))"
                : "err.redirect_chain ~= nil"
            return [
                action,
                "for _, err in ipairs(failures) do",
                "  local message = tostring(err.message)",
                "  if \(test) then error(\(name) .. \": \" .. err.kind .. \": \" .. message, 0) end",
                "end",
            ]
        default:
            return []
        }
    }

    static func place(_ finding: ExploreFinding, in report: ExploreReport, target: Destination?, _ context: (action: String, name: String)) -> [String] {
        let action = context.action, name = context.name
        switch finding.kind {
        case .deadEnd:
            let startPath = report.states.first.map { LuaSource.destination(.path($0.path)) } ?? "{}"
            return [
                "local here = state()",
                "portolan.back()",
                "if state() == here then portolan.route(\(startPath)) end",
                "if state() == here then error(\(name) .. \": back and a route to the start leave \" .. table.concat(portolan.active_path(), \" > \") .. \" as it is\", 0) end",
            ]
        case .unreachable:
            let node = LuaSource.string(finding.node ?? "")
            return [
                "local _, err = portolan.route(\(target.map(LuaSource.destination) ?? node))",
                "local path = portolan.active_path()",
                "if path[#path] ~= \(node) then",
                "  error(\(name) .. \": a route to \" .. \(node) .. \" led to \" .. table.concat(path, \" > \") .. (err and (\" (\" .. err.kind .. \": \" .. tostring(err.message) .. \")\") or \"\"), 0)",
                "end",
            ]
        case .backMismatch:
            let before = report.states[safe: finding.state]?.path ?? []
            return [
                action,
                "portolan.back()",
                "expect(portolan.active_entries(), { " + before.map(LuaSource.activeEntry).joined(separator: ", ") + " }, \(name) .. \": back after \(escapedForLua(finding.action?.description ?? "")) does not return where the user came from\")",
            ]
        default:
            return []
        }
    }

    static func route(_ finding: ExploreFinding, _ context: (action: String, name: String)) -> [String] {
        let action = context.action, name = context.name
        switch finding.kind {
        case .planMismatch:
            let planned = finding.action.flatMap(ExploreActionLua.plannedDestination) ?? "nil"
            return [
                "local function shape(result, err) return err and (\"failed \" .. err.kind .. \": \" .. tostring(err.message)) or (\"ok \" .. table.concat(result, \", \")) end",
                "local planned, plan_err = portolan.plan(\(planned))",
                "local executed, err = \(action)",
                "local said, did = shape(planned, plan_err), shape(executed, err)",
                "local in_handler = plan_err == nil and err ~= nil and (err.kind == \"handler_failed\" or err.kind == \"timeout\" or err.kind == \"cancelled\")",
                "local differ = (plan_err and plan_err.kind) ~= (err and err.kind) or (plan_err == nil and err == nil and said ~= did)",
                "if differ and not in_handler then error(\(name) .. \": plan: \" .. said .. \"; route: \" .. did, 0) end",
            ]
        case .noRollback:
            return [
                "local function tree() return portolan.snapshot():match('\"switch_history\":.*$') end",
                "local before = tree()",
                "local _, err = \(action)",
                "if err and tree() ~= before then",
                "  error(\(name) .. \": \" .. err.kind .. \": \" .. tostring(err.message) .. \"; the tree is at \" .. table.concat(portolan.active_path(), \" > \"), 0)",
                "end",
            ]
        default:
            return []
        }
    }

    static func again(_ finding: ExploreFinding, _ context: (action: String, name: String)) -> [String] {
        let action = context.action, name = context.name
        switch finding.kind {
        case .nondeterminism:
            return [
                "local function outcome(result, err)",
                "  return (err and (\"failed \" .. err.kind) or \"ok\") .. \" at \" .. table.concat(portolan.active_path(), \" > \"), state()",
                "end",
                "local saved = portolan.snapshot()",
                "local first, first_state = outcome(\(action))",
                "portolan.restore(saved)",
                "local second, second_state = outcome(\(action))",
                "if first ~= second or first_state ~= second_state then",
                "  error(\(name) .. \": first \" .. first .. \", then \" .. second .. (first == second and \" (the snapshots differ)\" or \"\"), 0)",
                "end",
            ]
        case .snapshotLoss:
            return [
                "local saved = portolan.snapshot()",
                "local kept = (saved:gsub('\"history\":%b[],', '', 1))",
                "portolan.restore(start)",
                "local outcome = portolan.restore(saved)",
                "if state() ~= kept then",
                "  error(\(name) .. \": restore \" .. tostring(outcome.outcome) .. \" \" .. tostring(outcome.reason or \"\") .. \"; the app is at \" .. table.concat(portolan.active_path(), \" > \"), 0)",
                "end",
            ]
        default:
            return []
        }
    }

    static func escapedForLua(_ text: String) -> String {
        let quoted = LuaSource.string(text)
        return String(quoted.dropFirst().dropLast())
    }
}
