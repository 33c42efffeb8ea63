#if DEBUG
import Synchronization

/// How many times a URL text was parsed, for the tests that a URL is parsed once per route.
///
/// Debug builds only, and only the texts a test asked to watch: a parse costs one relaxed atomic
/// load while nothing is watched, and tests running in parallel count their own URLs apart.
package enum URLParseCounter {
    private static let watched = Mutex<[String: Int]>([:])
    private static let isWatching = Atomic<Bool>(false)

    /// Counts parses of `text` from now on, from zero.
    package static func watch(_ text: String) {
        watched.withLock { $0[text] = 0 }
        isWatching.store(true, ordering: .relaxed)
    }

    /// How many times `text` was parsed since `watch(text)`; nil when it is not watched.
    package static func parses(of text: String) -> Int? {
        watched.withLock { $0[text] }
    }

    static func count(_ text: String) {
        guard isWatching.load(ordering: .relaxed) else { return }
        watched.withLock { counts in
            if let count = counts[text] { counts[text] = count + 1 }
        }
    }
}
#endif
