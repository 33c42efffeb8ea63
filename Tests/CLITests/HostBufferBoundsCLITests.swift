import Foundation
import Testing
import TestSupport

/// Issue 18, finding 7, end to end through `portolan test`: what the host keeps outside the Lua
/// state's memory cap — event texts, the route queue, failure messages, scenario names — is bounded,
/// and the run ends with a normal report. Each scenario gets `--timeout 600`: the point is the
/// bound, not the speed of a busy machine.
@Suite(.serialized) struct HostBufferBoundsCLITests {
    private static let app = """
        local portolan = require "portolan"
        portolan.app {
          id = "root",
          children = {
            { id = "home" },
            { id = "detail" },
            { id = "spawn", enter = function(_, entry)
                for i = 1, entry.context.count do
                  local done, err = portolan.route { "root", { id = "detail", context = { n = i } } }
                  if not done then error(err.kind .. " at route " .. i .. ": " .. err.message, 0) end
                end
              end },
            { id = "bad", enter = function() error(string.rep("e", 10 << 20), 0) end },
          },
        }
        """

    private static func run(_ scenario: String) async throws -> PortolanBinary.Run {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": app, "s.lua": scenario])
        defer { directory.remove() }
        return try await PortolanBinary.run(["test", "--timeout", "600", "--app", "app.lua", "s.lua"], in: directory)
    }

    /// 100 routes with a 4 MiB context: each event's text shows 4 KiB of the value and says how
    /// much it cut, so the journal holds kilobytes, not gigabytes.
    @Test func aHundredRoutesWithAFourMiBContextEndWithANormalReport() async throws {
        let run = try await Self.run("""
            local portolan = require "portolan"
            scenario("a hundred routes", function()
              local blob = string.rep("x", 4 << 20)
              local shown = "root > detail {blob=" .. string.rep("x", 4096) .. "… (4190208 bytes cut),i=1}"
              portolan.route { "root", { id = "detail", context = { blob = blob, i = 1 } } }
              expect_events { "will_route " .. shown, "enter detail {blob=" .. string.rep("x", 4096) .. "… (4190208 bytes cut),i=1}", "did_route " .. shown }
              for i = 2, 100 do
                expect(portolan.route { "root", { id = "detail", context = { blob = blob, i = i } } } ~= nil, true)
              end
            end)
            """)
        #expect(run.status == 0, "\(run.stdout.prefix(2_000))\(run.stderr.prefix(2_000))")
        #expect(run.lastLine == "1 passed, 0 failed")
        #expect(run.stdout.utf8.count < 1_000)
    }

    /// A handler that queues 5,000 routes hears, at the 1,001st, that the queue is full; the
    /// routes queued before it run, and the process lives to report.
    @Test func aHandlerQueuingFiveThousandRoutesIsStoppedAtTheQueuesLimit() async throws {
        let run = try await Self.run("""
            local portolan = require "portolan"
            scenario("queues in a loop", function()
              local done, err = portolan.route { "root", { id = "spawn", context = { count = 5000 } } }
              expect(done, nil)
              expect(err.kind, "handler_failed")
              print(err.message)
              expect(err.message:find("invalid at route 1001: the route queue is full: 1000 routes already wait", 1, true) ~= nil, true)
              expect(portolan.route { "root", "home" } ~= nil, true)
            end)
            """)
        #expect(run.status == 0, "\(run.stdout.prefix(2_000))\(run.stderr.prefix(2_000))")
        #expect(run.lastLine == "1 passed, 0 failed")
    }

    /// A 10 MiB scenario name and a 10 MiB handler error: the report shows 200 bytes of the name
    /// and 64 KiB of the message, each cut marked.
    @Test func aHugeNameAndAHugeErrorMakeABoundedReport() async throws {
        let run = try await Self.run("""
            local portolan = require "portolan"
            scenario(string.rep("n", 10 << 20), function()
              local done, err = portolan.route { "root", "bad" }
              expect(done, nil)
              error(err.message, 0)
            end)
            """)
        #expect(run.status == 1)
        #expect(run.lastLine == "0 passed, 1 failed")
        #expect(run.stdout.contains("FAIL s.lua: " + String(repeating: "n", count: 200) + "… (10485560 bytes cut)"), "\(run.stdout.prefix(400))")
        #expect(run.stdout.contains(String(repeating: "e", count: 60_000)))
        #expect(run.stdout.contains(/e… \(104[0-9]{5} bytes cut\)/))
        #expect(run.stdout.utf8.count < 200_000, "\(run.stdout.utf8.count) bytes of report")
    }
}
