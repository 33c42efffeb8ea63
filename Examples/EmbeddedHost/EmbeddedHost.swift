// A Swift app embedding Portolan: the navigation rules are Lua, the screens are Swift.
//
//   swift run EmbeddedHost                      a tour: routes, a guard, a reload
//   swift run EmbeddedHost trace                the tour's routes as spans (TracedTour.swift)
//   swift run EmbeddedHost deliver --public-key KEY [--store DIR] URL...
//                                               rules bundles fetched over HTTP and installed
//                                               through the gate (BundleDelivery.swift)
//
// The rules below are the ones the app ships with; a product team changes them without a new
// build by shipping a signed rules bundle, which `deliver` fetches and installs.
//
// `import PortolanLua` is the only import the tour needs: it re-exports the engine (`Destination`,
// `Entry`, `RouteResult`, `GraphRenderer`…) and the Lua values its API takes (`LuaValue`). Only
// installing bundles needs `PortolanShipping`, where the gate's linter and scenario runner live,
// and telemetry `PortolanTracing`.
import PortolanLua

/// The rules embedded in the app, in service until a bundle replaces them.
let rules = """
    portolan.app {
      id = "root", kind = "switch", active = "home",
      children = {
        { id = "home", children = {
            { id = "book", guard = function(node, request)
                if not signed_in() then return portolan.redirect { "root", "account" } end
              end },
          } },
        { id = "account" },
      },
    }
    """

/// A screen as the app's UI layer would implement it: here it just says what it shows.
struct BookScreen: Enterable, Leavable {
    func enter(_ entry: Entry, info: InstructionInfo) async throws {
        print("  [swift] showing book \(entry.context["id"]?.intValue.map(String.init) ?? "?")")
    }

    func leave(_ entry: Entry, info: InstructionInfo) async throws {
        print("  [swift] closing \(entry)")
    }
}

@main
struct EmbeddedHost {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let signedIn = SignedInFlag()
        let host = try await makeHost(signedIn: signedIn)
        if arguments.first == "deliver" {
            await BundleDelivery.parse(Array(arguments.dropFirst())).run(on: host, signedIn: signedIn)
        } else if arguments.first == "trace" {
            try await TracedTour.run(host, signedIn: signedIn)
        } else {
            try await tour(host, signedIn: signedIn)
        }
    }

    /// The host as the app starts it: its Swift function, its embedded rules, its Swift screen.
    static func makeHost(signedIn: SignedInFlag) async throws -> PortolanHost {
        let host = try PortolanHost()
        try await host.register(function: "signed_in") { _ in [.boolean(signedIn.value)] }
        try await host.loadApp(.source(rules, chunkName: "rules.lua"))
        await host.bind(BookScreen(), to: "book")
        return host
    }

    static func tour(_ host: PortolanHost, signedIn: SignedInFlag) async throws {
        // The host's stream follows whichever router the app has: it goes on across reloads.
        let events = host.events()
        Task {
            for await event in events {
                if case .instruction(let instruction) = event { print("  [event] \(instruction)") }
            }
        }

        let book = Destination.path(["root", "home", Entry("book", context: ["id": 42])])
        print("route to book, signed out:")
        report(await host.route(book))
        signedIn.value = true
        print("route to book, signed in:")
        report(await host.route(book))

        // New rules, fetched at run time: the session stays, and their guards are asked again.
        signedIn.value = false
        let reloaded = try await host.reload(.source(rules, chunkName: "rules.lua"))
        print("reloaded while signed out; the guards, asked again:")
        report(reloaded.refresh)
        print(await host.router.map { GraphRenderer.activeTree($0.tree) } ?? "")
    }

    static func report(_ result: RouteResult) {
        switch result {
        case .success(let executed):
            print("  executed: \(executed.map(\.description).joined(separator: "; "))")
        case .failure(let failure):
            print("  failed: \(failure)")
        }
    }
}
