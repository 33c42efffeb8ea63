/// Elements waiting their turn, first in first out, in O(1) per operation: queued routes, and
/// the work of a `SerialThread`.
struct FIFOQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == elements.count }

    /// The elements waiting, first first.
    var waiting: ArraySlice<Element> { elements[head...] }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }
}
