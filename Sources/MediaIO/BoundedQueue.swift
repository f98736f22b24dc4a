import Foundation

/// A first-in first-out queue between one producer thread and one consumer, holding at most `capacity`
/// elements: the producer waits while it is full, the consumer while it is empty.
final class BoundedQueue<Element>: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var head = 0
    private let capacity: Int
    private var producerFinished = false
    private var consumerGone = false

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds `element`, waiting for room. Returns false (dropping it) once the consumer has gone.
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count - head >= capacity && !consumerGone { condition.wait() }
        guard !consumerGone else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Takes the oldest element, waiting for one; nil once the producer has finished and all are taken.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count && !producerFinished { condition.wait() }
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= capacity {
            elements.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// The producer will push nothing more.
    func finish() {
        condition.lock()
        producerFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer will pop nothing more: pending and future elements are dropped.
    func abandon() {
        condition.lock()
        consumerGone = true
        elements.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
