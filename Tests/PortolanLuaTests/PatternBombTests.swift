import Portolan
import PortolanLua
import Testing

/// A pattern bomb in a handler or a guard (issue 10, item 3): the route used to run 15 s and succeed despite
/// the limits, since liblua5.4's matcher runs in C where the count hook never looks. Now its steps count
/// against the handler's instruction budget, so the route fails, and the host serves the next one.
@Suite struct PatternBombTests {
    static let app = """
        local function bomb() return ("a"):rep(400):find(".-.-.-b") end
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "matcher", enter = function() bomb() end },
          { id = "guarded", guard = function() if bomb() then return portolan.deny("found") end end },
        } }
        """

    @Test func aBombInAnEnterHandlerOrAGuardFailsItsRouteAndTheNextRouteWorks() async throws {
        // The default budget, and a time limit no run reaches: only the budget, charged for the
        // matcher's steps, can stop the bomb. (With the default 5 s limit, a busy machine may
        // reach the time limit first; which of two limits trips first is no test's business.)
        let host = try PortolanHost(configuration: HostConfiguration(
            handlerTimeout: .seconds(600), handlerInstructionBudget: 10_000_000))
        await host.setOutput { _ in }
        try await host.loadApp(.source(Self.app, chunkName: "bomb.lua"))
        for node in ["matcher", "guarded"] {
            let result = await host.route(.path([Entry("root"), Entry(node)]))
            guard case .failure(let failure) = result else {
                Issue.record("the route to \(node) succeeded: \(result)")
                continue
            }
            #expect(failure.kind == .handlerFailed, "\(node): \(failure)")
            #expect(failure.message.contains("bomb.lua:1: instruction budget exceeded"), "\(node): \(failure.message)")
            let next = await host.route(.path([Entry("root"), Entry("home")]))
            #expect(try next.get().map(\.description).last == "enter home", "after \(node)")
            #expect(await host.route(.path([Entry("root")])).map(\.count) == .success(1), "back to the root")
        }
    }
}
