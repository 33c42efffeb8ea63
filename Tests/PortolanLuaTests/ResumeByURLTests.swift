import Portolan
import PortolanLua
import Testing
import TestSupport

/// A route asked for by URL, set aside by a guard's `{ resume = true }`, resumes as that URL's
/// route: its handlers see `info.url` (and the query and fragment) as on the first try, whether
/// `portolan.resume()` runs in a script or is queued by an observer, or `host.resume()` runs in Swift.
@Suite struct ResumeByURLTests {
    static let app = """
        signed_in = false
        seen = {}
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", route = "/", children = {
                { id = "movie", route = "/movies/:id<int>",
                  guard = function()
                    if not signed_in then return portolan.redirect({ "root", "login" }, { resume = true }) end
                  end,
                  enter = function(node, entry, info)
                    seen[#seen + 1] = tostring(info.url) .. " tab=" .. tostring(info.query and info.query.tab)
                      .. " #" .. tostring(info.fragment)
                  end },
              } },
            { id = "login" },
          },
        }
        -- Resuming from an observer once signed in: the resume is queued, and runs after this route.
        portolan.on("did_route", function()
          if signed_in and portolan.pending() then portolan.resume() end
        end)
        """

    private static let url = "/movies/42?tab=cast#bio"
    private static let seenOnResume = #""/movies/42?tab=cast#bio tab=cast #bio""#

    @Test func aScriptsResumeKeepsTheURL() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            local first = assert(portolan.route("\(Self.url)"))
            signed_in = true
            local done = assert(portolan.resume())
            return first[#first], done[#done], #seen, seen[1]
            """, chunkName: "login.lua")
        // The first try was turned to the login screen; the resume enters the movie, by its URL.
        #expect(shown == [#""switch root -> login""#, #""enter movie {id=42}""#, "1", Self.seenOnResume])
    }

    @Test func anObserversQueuedResumeKeepsTheURL() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            portolan.route("\(Self.url)")
            signed_in = true
            assert(portolan.refresh())   -- keeps the pending resume; its did_route resumes
            return table.concat(portolan.active_path(), ">"), #seen, seen[1]
            """, chunkName: "login.lua")
        #expect(shown == [#""root>home>movie""#, "1", Self.seenOnResume])
    }

    @Test func swiftsResumeKeepsTheURL() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        _ = await host.route(url: Self.url)
        #expect(await host.pendingDestination == .path([Entry("root"), Entry("home"), Entry("movie", context: ["id": 42])]))
        try await host.run("signed_in = true", chunkName: "login.lua")
        let resumed = await host.resume()
        #expect((try? resumed?.get())?.last?.description == "enter movie {id=42}")
        #expect(try await host.evaluate("seen[1]") == [Self.seenOnResume])
        #expect(await host.pendingDestination == nil)
    }

    @Test func aResumeAskedForByIDsStillHasNoURL() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            portolan.route { "root", "home", { id = "movie", context = { id = 7 } } }
            signed_in = true
            assert(portolan.resume())
            return seen[1], portolan.resume()
            """, chunkName: "login.lua")
        #expect(shown == [#""nil tab=nil #nil""#, "nil"])
    }
}
