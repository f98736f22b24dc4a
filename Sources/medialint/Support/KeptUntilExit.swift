/// Large values a command ends with, kept until the process exits instead of being freed one by one: freeing
/// half a million cue strings takes longer than writing them out, and the kernel takes the memory back at exit
/// at once. (A value kept here is never read again.)
enum KeptUntilExit {
    nonisolated(unsafe) private static var values: [Any] = []

    static func keep(_ value: Any) {
        values.append(value)
    }
}
