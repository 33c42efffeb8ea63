import Lua
import Portolan
import PortolanLua
import PortolanShipping

/// Route requests typed at the prompt (a URL line, an id path, `:back`) and `:plan`, through the
/// host's Swift API: a URL is resolved once and routed as resolved. Each is shown from the events
/// the router told of (queued routes included), recorded, and followed by the active path.
final class RouteConsole {
    private let host: PortolanHost
    private let printer: ReplPrinter
    private let tap: RouterEventTap
    private let recorder: ReplRecorder

    init(host: PortolanHost, printer: ReplPrinter, tap: RouterEventTap, recorder: ReplRecorder) {
        self.host = host
        self.printer = printer
        self.tap = tap
        self.recorder = recorder
    }

    /// What a URL line names, as routes and `:plan` take it.
    private enum Target {
        /// A URL a route pattern matches, resolved.
        case url(URLResolution)
        /// An id path from the root, for a line no pattern matches.
        case idPath(Destination)
        /// A URL that leads nowhere, not said yet (a route lets the host's refusal say it).
        case nowhere
    }

    /// Why `:plan EXPR` has no destination: the expression raised, or its value is no destination.
    private enum PlanInputError: Error {
        case evaluation(String)
        case destination(RouteFailure)
    }

    /// A URL line, or an id path when no pattern matches it.
    nonisolated(nonsending) func route(_ text: String) async {
        let call = "portolan.route(\(LuaSource.string(text)))"
        switch await target(of: text, saying: false) {
        case .url(let resolution)?:
            await route(label: text, recordedAs: call) { host in
                host.route(resolved: resolution)
            }
        case .idPath(let destination)?:
            await route(label: text, recordedAs: "portolan.route(\(LuaSource.destination(destination)))") { host in
                host.route(destination)
            }
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

    /// `:back`: goes back, as `portolan.back()` does: leaves the top screen, or switches a switch
    /// node with a back behaviour. `:back N` (`count`, the text after it) leaves the top N screens
    /// in one route, as `portolan.back(N)` does.
    nonisolated(nonsending) func back(_ count: String = "") async {
        guard await host.router != nil else {
            printer.say("error: no app declared yet: call portolan.app { ... }", .error)
            return
        }
        guard !count.isEmpty else {
            await route(label: ":back", recordedAs: "portolan.back()") { host in host.back() }
            return
        }
        guard let screens = Int(count), screens >= 1 else {
            printer.say("error: usage: :back [N], N a whole number of screens from 1, not '\(Excerpt.of(count))'", .error)
            return
        }
        await route(label: ":back \(screens)", recordedAs: "portolan.back(\(screens))") { host in host.back(.screens(screens)) }
    }

    /// Runs one route request as a unit of the host, then shows and records it.
    private nonisolated(nonsending) func route(
        label: String, recordedAs call: String, _ request: @Sendable (isolated PortolanHost) -> RouteResult
    ) async {
        let result = await host.perform(request)
        printer.showRoutes(tap.log.snapshot(), result: result)
        await recorder.recordRoute(call: call, result: result)
        printer.showActivePath(of: await host.router)
    }

    /// `:plan DEST`: what routing to DEST would do, without doing it.
    nonisolated(nonsending) func plan(_ text: String) async {
        guard !text.isEmpty else {
            printer.say("error: :plan needs a destination, as in :plan /wishlist or :plan {\"root\", \"dashboard\"}", .error)
            return
        }
        if ParsedURL.isURL(text) {
            await planURL(text)
            return
        }
        // `:plan EXPR` evaluates `return EXPR`: errors keep line 1 of the input.
        let evaluated = await host.perform { host -> Result<RouteTarget, PlanInputError> in
            do {
                let values = try host.call("return " + text, chunkName: "=plan")
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
            printer.say("error: \(message)", .error)
            return
        case .failure(.destination(let failure)):
            showPlan(RoutePlan(requested: .path([]), result: .failure(failure)))
        }
        printer.showActivePath(of: await host.router)
    }

    /// A plan's redirects, its instructions or failure, then that nothing ran: a plan that looks
    /// like a route must not read as one.
    private func showPlan(_ plan: RoutePlan) {
        for redirect in plan.redirects.dropLast() {
            printer.say("redirected via \(Excerpt.of(redirect.description))", .note)
        }
        var report = RouteReport(plan.result)
        report.requested = plan.requested
        report.settled = plan.settled
        report.redirected = !plan.redirects.isEmpty
        printer.show(report)
        printer.say("(plan only: nothing ran, the tree is unchanged)", .note)
    }

    private nonisolated(nonsending) func planURL(_ text: String) async {
        switch await target(of: text) {
        case .url(let resolution)?:
            showPlan(await host.plan(resolved: resolution))
        case .idPath(let destination)?:
            showPlan(await host.plan(destination))
        case .nowhere?, nil:
            return
        }
        printer.showActivePath(of: await host.router)
    }

    /// Resolves a URL line as `portolan.match` does, and says what matched; falls back to an id
    /// path when nothing matches and the line starts with the root's id. Writes why and returns
    /// nil when the line leads nowhere; `.nowhere`, unsaid, when not `saying`.
    private nonisolated(nonsending) func target(of text: String, saying: Bool = true) async -> Target? {
        switch await host.resolve(url: text) {
        case .success(let resolution):
            if resolution.url != text { printer.say("rewritten to \(Excerpt.of(resolution.url)) by the redirect rules", .note) }
            printer.say("matched \(resolution.pattern) (\(resolution.node))", .note)
            return .url(resolution)
        case .failure(let failure):
            // No pattern leads there: an id path from the root, if the line is one.
            if let rootID = await host.graph?.rootID, IdPath.firstID(of: text) == rootID {
                do {
                    return .idPath(try IdPath.destination(text))
                } catch {
                    printer.say("error: \(error.message)", .error)
                    return nil
                }
            }
            guard saying else { return .nowhere }
            printer.say("failed: \(failure)", .error)
            printer.showActivePath(of: await host.router)
            return nil
        }
    }
}
