// Only `import PortolanLua`, as an app that embeds the host writes it (and Testing): this file
// compiles only while PortolanLua re-exports the engine's and Lua's types its API is written in.
import PortolanLua
import Testing

/// What a Swift app that embeds the host uses in its first hour, through `import PortolanLua`
/// alone: routes, events, failures and their kinds, context values, Lua values, reloads.
@Suite struct EmbedderAPITests {
    static let rules = """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", children = {
                { id = "book", enter = function(node, entry) if entry.context.id == 0 then error("no such book") end end },
              } },
            { id = "admin", guard = function() return portolan.deny("admins only") end },
          },
        }
        """

    private func host() async throws -> PortolanHost {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source(Self.rules, chunkName: "rules.lua"))
        return host
    }

    private static func book(_ id: ContextValue) -> Destination {
        .path([Entry("root"), Entry("home"), Entry("book", context: ["id": id])])
    }

    @Test func importingPortolanLuaAloneIsEnough() async throws {
        let host = try await host()
        let router: Router = try #require(await host.router)
        let events: AsyncStream<RouterEvent> = router.events()
        let routed: RouteResult = await host.route(Self.book(42))
        #expect((try? routed.get())?.map(\.description) == ["enter book {id=42}"])
        let id: ContextValue? = router.activePath.last?.context["id"]
        #expect(id?.intValue == 42)
        guard case .failure(let failure) = await host.route(.ids("root", "admin")) else {
            Issue.record("the guard denies the route")
            return
        }
        let kind: RouteFailure.Kind = failure.kind
        #expect(kind == .denied)
        var iterator = events.makeAsyncIterator()
        let first: RouterEvent? = await iterator.next()
        #expect(first?.name == .willRoute)
        let passed = try await host.perform { host in
            let values: [LuaValue] = try host.call("return ...", arguments: ["passed"])
            return values.first?.stringValue
        }
        #expect(passed == "passed")
    }

    @Test func aFailureKindPrintsAsLuaAndTheREPLSpellIt() async throws {
        let host = try await host()
        guard case .failure(let failure) = await host.route(Self.book(0)) else {
            Issue.record("book 0's handler fails")
            return
        }
        #expect(failure.kind == .handlerFailed)
        #expect("\(failure.kind)" == "handler_failed")
        #expect(failure.description.hasPrefix("handler_failed at enter book {id=0}: "))
        let fromLua = try await host.run(
            #"local _, err = portolan.route { "root", "home", { id = "book", context = { id = 0 } } } return err.kind"#,
            chunkName: "=kind")
        #expect(fromLua == [#""\#(failure.kind)""#])
        // Every kind: its text is its raw value, the one spelling.
        #expect(RouteFailure.Kind.allCases.map(\.description) == [
            "unreachable", "blocked", "denied", "handler_failed", "timeout", "cancelled", "invalid", "duplicated",
        ])
    }

    @Test func callRunsSourceWithArgumentsAndReturnsItsValues() async throws {
        let host = try await host()
        // Lua values stay on the host's thread (`LuaValue` is not Sendable): read them in `perform`.
        let (sum, joined, doubled) = try await host.perform { host in
            let values = try host.call("local a, b = ... return a + b, a .. b", chunkName: "=sum", arguments: [1, 2])
            // A string is source, not a function value to call.
            let two = try host.call("return 1 + 1")
            let double = try host.call("return function(n) return n * 2 end")
            let doubled = try double.first.map { try host.call($0, [21]) } ?? []
            return (values.first?.intValue, values.count > 1 ? values[1].stringValue : nil, (two + doubled).compactMap(\.intValue))
        }
        #expect(sum == 3)
        #expect(joined == "12")
        #expect(doubled == [2, 42])
        await #expect { try await host.perform { host in _ = try host.call("error('no book')") } } throws: { error in
            "\(error)".contains("swift:1: no book")
        }
        // Run for its effect: nothing to keep (a closure of one expression would return the values).
        try await host.perform { host in
            try host.call("shelf = ...", arguments: ["full"])
            try host.call("shelf = shelf .. '!'")
        }
        #expect(try await host.run("return shelf", chunkName: "=check") == [#""full!""#])
    }

    @Test func reloadsResultMayBeIgnored() async throws {
        let host = try await host()
        _ = await host.route(Self.book(1))
        // The returned instructions (what the new rules left) are there for those who want them.
        try await host.reload(
            .source(#"portolan.app { id = "root", kind = "switch", active = "home", children = { { id = "home" } } }"#, chunkName: "rules.lua"))
        #expect(await host.router?.activePath.map(\.id) == ["root", "home"])
        #expect(await host.graph?["book"] == nil)
    }
}
