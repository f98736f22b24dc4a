import Dispatch
import Foundation

/// Ctrl-C (SIGINT) turned into a call on a queue, with no moment in which it is lost: the handler is in place as soon as
/// `handle` returns and only writes a byte to a pipe (all a signal handler may safely do); the pipe is read on a
/// dispatch queue. (A dispatch signal source needs SIGINT ignored first and is armed later, asynchronously: a Ctrl-C in
/// between was dropped and the run went on to the end.)
enum InterruptSignal {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Calls `action` on a global queue for each SIGINT from now on, until the returned source is cancelled.
    static func handle(_ action: @escaping @Sendable () -> Void) -> DispatchSourceRead {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { preconditionFailure("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)  // a full pipe never blocks the handler
        writeEnd = ends[1]
        // A mask inherited from the parent (test runners and some spawners pass theirs on) would hold SIGINT back.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(InterruptSignal.writeEnd, &byte, 1)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .global())
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(ends[0], &bytes, bytes.count)
            for _ in 0..<max(0, count) { action() }
        }
        source.setCancelHandler {
            close(ends[0])
            close(ends[1])
        }
        source.resume()
        return source
    }
}
