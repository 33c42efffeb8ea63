import Dispatch
import PortolanLua

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A process of its own for the rule of the concurrency contract that traps (docs/concurrency.md,
// rule 5): a Swift function called from Lua that waits for a task of its own which calls the
// host. A trap ends the process it happens in, so `ConcurrencyTrapCLITests` runs this one and
// reads how it ended. Exit 0 means the function returned (it did not wait); 3 that the trap did
// not come within the probe's own limit, which is the failure the rule forbids.

let host = try PortolanHost()
_ = try await host.run(#"portolan.app { id = "root", { id = "a", url = "/a" } }"#, chunkName: "=app")
guard let router = await host.router else {
    print("no router")
    exit(4)
}
try await host.register(function: "wait_for_my_host") { _ in
    let done = DispatchSemaphore(value: 0)
    Task {
        // Queued on the host's thread while the function blocks it: this call traps. (Awaiting a
        // method of the host itself would hang instead: docs/concurrency.md, rule 5.)
        let result = await router.route(to: .ids("root", "a"))
        print("route: \(result)")
        done.signal()
    }
    // Without the trap, this would wait forever; the probe's limit makes that an exit status.
    if done.wait(timeout: .now() + .seconds(60)) == .timedOut {
        print("the host call never ran and nothing trapped")
        exit(3)
    }
    return []
}
_ = try await host.run("wait_for_my_host()", chunkName: "=probe")
print("the function returned")
