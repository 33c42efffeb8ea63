import Portolan
import PortolanLua
import Testing
import TestSupport

/// Issue 20, §2: `portolan.plan` runs the decisions a route runs — guards, interceptors, redirects,
/// `can_leave` — and none of its effects. Before, a plan ignored guards: logged out, a plan of the
/// checkout listed the checkout's screens while the route went to the login.
@Suite struct PlanDryRunTests {
    static let app = """
        logged_in, dirty, entered, asked = false, false, 0, {}
        portolan.on("did_route", function() entered = entered + 1 end)
        portolan.app {
          id = "root", children = {
            { id = "home", route = "/home", can_leave = function() return not dirty end },
            { id = "login", route = "/login", enter = function() entered = entered + 1 end },
            { id = "checkout", route = "/checkout",
              guard = function(node, request)
                asked[#asked + 1] = request.dry_run
                if not logged_in then return portolan.redirect("/login", { resume = true }) end
              end,
              enter = function() entered = entered + 1 end,
              children = { { id = "done", route = "/checkout/done" } } },
            { id = "admin", route = "/admin", guard = function() return portolan.deny("admins only") end },
          },
        }
        """

    private func run(_ host: PortolanHost, _ source: String) async throws -> [String] {
        try await host.run(source, chunkName: "plan.lua")
    }

    @Test func aLoggedOutPlanOfTheCheckoutGoesToTheLogin() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let result = try await run(host, """
            local planned = assert(portolan.plan "/checkout/done")
            local effects = entered .. " " .. #portolan.history() .. " " .. tostring(portolan.pending())
            local route = assert(portolan.route "/checkout/done")
            return table.concat(planned, ","), planned.destination[2].id, #planned.redirects, planned.requested[3].id,
              effects, table.concat(route, ","), asked[1], asked[2], portolan.pending() ~= nil
            """)
        #expect(result == [
            #""enter login""#, #""login""#, "1", #""done""#, #""0 0 nil""#, #""enter login""#, "true", "false", "true",
        ])
    }

    @Test func aDenialAndARefusedLeaveArePlannedAsTheRouteMeetsThem() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let result = try await run(host, """
            local _, denied = portolan.plan { "root", "admin" }
            assert(portolan.route { "root", "home" })
            dirty = true
            local _, blocked = portolan.plan "/login"
            local _, routed = portolan.route "/login"
            return denied.kind, denied.message, blocked.kind, routed.kind, #denied.redirects, tostring(blocked)
            """)
        #expect(result == [
            #""denied""#, #""admins only""#, #""blocked""#, #""blocked""#, "0", #""blocked at leave home: 'home' refused to be left""#,
        ])
    }

    /// Over every pair of session states and destinations, from every screen: the plan's
    /// instructions or error are what the route then returns, and the plan changes nothing.
    @Test func everyPlanIsWhatTheRouteThenDoes() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let result = try await run(host, """
            local function text(done, err) return done and table.concat(done, ",") or tostring(err) end
            local targets = { "/home", "/login", "/checkout", "/checkout/done", "/admin", "/nowhere", { "root", "home" } }
            local checked, mismatches = 0, {}
            for _, from in ipairs { "/home", "/login" } do
              for _, state in ipairs { { false, false }, { true, false }, { false, true }, { true, true } } do
                for _, target in ipairs(targets) do
                  logged_in, dirty = false, false
                  portolan.route(from)
                  logged_in, dirty = state[1], state[2]
                  local before = #portolan.history() .. portolan.tree() .. entered
                  local planned = text(portolan.plan(target))
                  if before ~= #portolan.history() .. portolan.tree() .. entered then
                    mismatches[#mismatches + 1] = "the plan changed something"
                  end
                  local routed = text(portolan.route(target))
                  if planned ~= routed then mismatches[#mismatches + 1] = planned .. " ~= " .. routed end
                  checked = checked + 1
                end
              end
            end
            return checked, table.concat(mismatches, "; ")
            """)
        #expect(result == ["56", #""""#])
    }

    @Test func aSwiftPlanByURLSeesTheGuardAndKeepsNothingPending() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let plan = await host.plan(url: "/checkout/done?from=mail")
        #expect(plan.redirects.count == 1)
        #expect(plan.settled == .path([Entry("root"), Entry("login")]))
        #expect(plan.result == .success([.enter(Entry("login"))]))
        #expect(await host.pendingDestination == nil)
    }
}
