import Lua
import Portolan
import PortolanLua

/// Route requests typed at the prompt (a URL line, an id path, `:back`) and `:plan`, through the
/// host's Swift API: a URL is resolved once and routed as resolved.
extension ReplSession {
    /// What a URL line names, as routes and `:plan` take it.
    enum Target {
        /// A URL a route pattern matches, resolved.
        case url(URLResolution)
        /// An id path from the root, for a line no pattern matches.
        case idPath(Destination)
        /// A URL that leads nowhere, not said yet (a route lets the host's refusal say it).
        case nowhere
    }

    func route(_ text: String) async {
        let call = "portolan.route(\(ReplRecording.literal(text)))"
        switch await target(of: text, saying: false) {
        case .url(let resolution)?:
            await route(label: text, recordedAs: call) { host in
                host.route(resolved: resolution)
            }
        case .idPath(let destination)?:
            await route(to: destination, label: text)
        case nil:
            return
        case .nowhere?:
            // A URL that leads nowhere is a request all the same: the host refuses it, so that it
            // is seen (`failed`, the history, a recording).
            await route(label: text, recordedAs: call) { host in
                host.route(url: text)
            }
        }
    }

    /// Routes to a destination (an id path, `:back`), shows and remembers it.
    func route(to destination: Destination, label: String) async {
        await route(label: label, recordedAs: "portolan.route(\(ReplRecording.lua(destination)))") { host in
            host.route(destination)
        }
    }

    /// Runs one route request as a unit of the host, then shows and records it.
    func route(
        label: String, recordedAs call: String, _ request: @Sendable (isolated PortolanHost) -> RouteResult
    ) async {
        let result = await host.perform(request)
        showRoutes(eventLog.snapshot(), result: result)
        await recordRoute(call: call, result: result)
        await showActivePath()
    }

    func plan(_ text: String) async {
        guard !text.isEmpty else {
            say("error: :plan needs a destination, as in :plan /wishlist or :plan {\"root\", \"dashboard\"}", .error)
            return
        }
        if ParsedURL.isURL(text) {
            await planURL(text)
            return
        }
        // `:plan EXPR` evaluates `return EXPR`: errors keep line 1 of the input.
        let evaluated = await host.perform { host -> Result<RouteTarget, PlanInputError> in
            do {
                let values = try host.values(running: "return " + text, chunkName: "=plan")
                return .success(try RouteTarget(lua: values.first ?? .nil))
            } catch let error as HostError {
                return .failure(.evaluation(error.message))
            } catch let failure as RouteFailure {
                return .failure(.destination(failure))
            } catch {
                return .failure(.evaluation("\(error)"))
            }
        }
        switch evaluated {
        case .success(.destination(let destination)):
            showPlan(await host.plan(destination))
        case .success(.url(let url)):
            // `:plan "/wishlist"`: a string that is a URL, as portolan.plan takes it.
            await planURL(url)
            return
        case .failure(.evaluation(let message)):
            say("error: \(message)", .error)
            return
        case .failure(.destination(let failure)):
            showPlan(RoutePlan(requested: .path([]), result: .failure(failure)))
        }
        await showActivePath()
    }

    /// A plan's redirects, its instructions or failure, then that nothing ran: a plan that looks
    /// like a route must not read as one.
    private func showPlan(_ plan: RoutePlan) {
        for redirect in plan.redirects.dropLast() {
            say("redirected via \(Excerpt.of(redirect.description))", .note)
        }
        var report = RouteReport(plan.result)
        report.requested = plan.requested
        report.settled = plan.settled
        show(report)
        say("(plan only: nothing ran, the tree is unchanged)", .note)
    }

    private func planURL(_ text: String) async {
        switch await target(of: text) {
        case .url(let resolution)?:
            showPlan(await host.plan(resolved: resolution))
        case .idPath(let destination)?:
            showPlan(await host.plan(destination))
        case .nowhere?, nil:
            return
        }
        await showActivePath()
    }

    /// Resolves a URL line as `portolan.match` does, and says what matched; falls back to an id
    /// path when nothing matches and the line starts with the root's id. Writes why and returns
    /// nil when the line leads nowhere; `.nowhere`, unsaid, when not `saying`.
    private func target(of text: String, saying: Bool = true) async -> Target? {
        switch await host.resolve(url: text) {
        case .success(let resolution):
            if resolution.url != text { say("rewritten to \(Excerpt.of(resolution.url)) by the redirect rules", .note) }
            say("matched \(resolution.pattern) (\(resolution.node))", .note)
            return .url(resolution)
        case .failure(let failure):
            // No pattern leads there: an id path from the root, if the line is one.
            if let rootID = await host.graph?.rootID, IdPath.firstID(of: text) == rootID {
                do {
                    return .idPath(try IdPath.destination(text))
                } catch {
                    say("error: \(error.message)", .error)
                    return nil
                }
            }
            guard saying else { return .nowhere }
            say("failed: \(failure)", .error)
            await showActivePath()
            return nil
        }
    }
}

/// Why `:plan EXPR` has no destination: the expression raised, or its value is no destination.
enum PlanInputError: Error {
    case evaluation(String)
    case destination(RouteFailure)
}
