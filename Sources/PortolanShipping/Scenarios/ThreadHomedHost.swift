import PortolanLua
import Portolan
import Synchronization

/// A scenario's host, made on the thread it runs on and let go there. Made on Swift's cooperative
/// pool instead (as `PortolanHost(thread:)` is, where it is called), its start-up — most of a
/// trivial scenario's work — ran on the pool's threads, which every job shares, and its Lua state was
/// freed on whichever pool thread dropped it last, into the allocator arena of the thread that had
/// made its memory: under `--jobs 2` the jobs met on the pool and on the allocator's locks
/// (Benchmarks/README.md, "Scenario files of any size").
final class ThreadHomedHost: Sendable {
    private let held: Mutex<PortolanHost?>

    private init(_ host: PortolanHost) {
        held = Mutex(host)
    }

    /// A host made on `thread`, or why it could not be.
    static func make(configuration: HostConfiguration, on thread: SerialThread) async -> Result<ThreadHomedHost, HostError> {
        await thread.run { () -> Result<ThreadHomedHost, HostError> in
            do throws(HostError) {
                return .success(ThreadHomedHost(try PortolanHost(configuration: configuration, thread: thread)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The host, until ``release(on:)``. Hold it no longer than the work it is for: the last
    /// reference must be this one for the host to go on its thread.
    var host: PortolanHost? { held.withLock { $0 } }

    /// Lets the host go on `thread`, after the work already submitted there (a unit still running
    /// past its scenario's time limit keeps it until it ends).
    func release(on thread: SerialThread) {
        thread.submit {
            let host = self.held.withLock { $0.take() }
            withExtendedLifetime(host) {}   // its last reference, dropped here, on the thread
        }
    }
}
