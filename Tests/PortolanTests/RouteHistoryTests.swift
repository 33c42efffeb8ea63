@testable import Portolan
import TestSupport
import Testing

/// The route history's ring (`RouteHistory`): it keeps exactly what the array it replaced kept,
/// under both of its bounds, however the drops and the growth interleave.
@Suite struct RouteHistoryTests {
    /// The history as it was: an array, its oldest records removed from the front.
    struct ArrayModel {
        let limit: Int
        var records: [RouteRecord] = []

        mutating func append(_ record: RouteRecord) {
            guard limit > 0 else { return }
            records.append(record)
            if records.count > limit { records.removeFirst(records.count - limit) }
            while records.count > 1, records.reduce(0, { $0 + $1.heldBytes }) > RouteHistory.byteLimit {
                records.removeFirst()
            }
        }
    }

    /// One context of 8 MiB (shared, so it costs the test 8 MiB once): four of them pass the
    /// history's 32 MiB.
    static let large = String(repeating: "x", count: 8 << 20)

    static func record(_ number: Int, large: Bool) -> RouteRecord {
        let context: Context = large ? ["blob": .string(Self.large)] : ["n": .integer(Int64(number))]
        let destination = Destination.path([Entry("r\(number)", context: context)])
        return RouteRecord(requested: destination, settled: destination, executed: [], failure: nil)
    }

    @Test(arguments: [0, 1, 2, 3, 7, 8, 9, 100, 1_000])
    func theRingKeepsWhatTheArrayKept(limit: Int) {
        var generator = SeededRandom(seed: UInt64(limit) &+ 17)
        var history = RouteHistory(limit: limit)
        var model = ArrayModel(limit: limit)
        var checked = 0
        for number in 0..<2_500 {
            // Runs of large records now and then, so that the byte bound drops several at once.
            let record = Self.record(number, large: number % 97 < 6 && Int.random(in: 0..<3, using: &generator) > 0)
            history.append(record)
            model.append(record)
            if number % 37 == 0 || number > 2_480 {
                #expect(history.records == model.records, "after \(number + 1) appends")
                #expect(history.newest == model.records.last, "newest after \(number + 1) appends")
                checked += 1
            }
            if number == 1_200 {
                let kept = Array(model.records.suffix(5))
                history.replace(with: kept)
                model = ArrayModel(limit: limit)
                for record in kept { model.append(record) }
            }
        }
        #expect(checked > 60)
        #expect(history.records.count == min(limit, model.records.count) || limit == 0)
    }
}
