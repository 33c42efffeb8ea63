import Lua
import Portolan

/// One redirect rule a script added (`portolan.redirect_rule`), kept by the host in declaration
/// order for the router of every app declared later.
enum HostRedirectRule {
    case pattern(from: String, to: String)
    /// A rule written as a Lua function; a router holds it weakly, through its closure.
    case function(HostLuaFunction)
}

extension HostCore {
    /// Gives `router` the rule, after those given before: a function rule as a closure the
    /// router's one redirect loop calls (URLRedirects).
    func install(_ rule: HostRedirectRule, on router: Router) throws(URLRoutingError) {
        switch rule {
        case .pattern(let pattern, let template):
            try router.addRedirectRule(from: pattern, to: template)
        case .function(let function):
            router.addRedirectRule { [weak self, weak function] url throws(RouteFailure) in
                guard let self, let function else { return nil }   // a rule a reload replaced
                return try rewrite(url, by: function)
            }
        }
    }

    /// What a function rule makes of `url`, run as a handler is: within its time limit and
    /// instruction budget, on the host's thread.
    private func rewrite(_ url: String, by rule: HostLuaFunction) throws(RouteFailure) -> String? {
        guard thread.isCurrent else {
            throw RouteFailure(
                .invalid, "a redirect rule written in Lua runs on its host's thread: resolve the URL with the host's resolve(url:)")
        }
        let values: [LuaValue]
        do {
            values = try runner.runHandler(rule.function, [.string(url)])
        } catch {
            throw RouteFailure(thrownBy: .redirectRule, error)
        }
        switch values.first ?? .nil {
        case .nil: return nil
        case .string(let rewritten): return rewritten
        case .bytes: throw RouteFailure(.invalid, "malformed URL: a redirect rule returned one that is not valid UTF-8")
        case let other: throw RouteFailure(.invalid, "a redirect rule returned a \(other.typeName); return a URL string or nothing")
        }
    }
}
