import Lua
import Portolan

/// What a Lua handler's return values mean, as docs/rules.md documents them.
enum HandlerResult {
    /// `enter`, `leave`, `switch`: nothing or `true` succeeds; `false` (and a message) fails.
    /// `handler` names it in the error, built only when there is one.
    static func check(_ values: [LuaValue], handler: @autoclosure () -> String) throws {
        switch values.first ?? .nil {
        case .nil, .boolean(true):
            return
        case .boolean(false):
            let message = values.count > 1 ? values[1].stringValue : nil
            throw HandlerError(message ?? "\(handler()) returned false")
        case let other:
            throw HandlerError("\(handler()) returned a \(other.typeName); return nothing, true, or false and a message")
        }
    }

    /// `can_leave`: nothing or `true` allows leaving, `false` refuses.
    static func permission(_ values: [LuaValue], handler: @autoclosure () -> String) throws -> Bool {
        switch values.first ?? .nil {
        case .nil, .boolean(true):
            return true
        case .boolean(false):
            return false
        case let other:
            throw HandlerError("\(handler()) returned a \(other.typeName); return true or false")
        }
    }

    /// The module's `run_interceptors`: `"pass"`, `"deny", reason` or `"redirect", destination`.
    static func decision(_ values: [LuaValue]) throws -> InterceptionDecision {
        let argument = values.count > 1 ? values[1] : .nil
        switch values.first?.stringValue {
        case "deny":
            return .deny(argument.stringValue ?? "denied")
        case "redirect":
            do {
                return .redirect(try Destination(lua: argument))
            } catch {
                throw HandlerError("a redirect names an invalid destination: \(error.message)")
            }
        default:
            return .pass
        }
    }
}
