import Foundation

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Wall time and peak memory of one process run.
struct ProcessRun {
    var seconds: Double
    var peakMemoryMiB: Double
    /// User and system CPU time, all threads and children.
    var cpuSeconds: Double = 0
}

enum Measure {
    /// Runs `executable` with `arguments` (output discarded) and measures it; throws if it fails.
    static func run(_ executable: String, _ arguments: [String], allowedStatuses: Set<Int32> = [0]) throws -> ProcessRun {
        try runCapturing(executable, arguments, allowedStatuses: allowedStatuses).run
    }

    /// Runs `executable` and returns its standard output too (standard error discarded).
    static func runCapturing(_ executable: String, _ arguments: [String], allowedStatuses: Set<Int32> = [0]) throws -> (run: ProcessRun, output: String) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw BenchError("pipe failed") }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The child's peak memory comes from GNU time, which forks it from a small process of its own: a child
        // spawned straight from here (vfork, then exec) is charged this process's own high-water mark, and
        // this process may have held a 100 MB generated file.
        let timeOutput = FileManager.default.temporaryDirectory.appendingPathComponent("medialint-bench-\(getpid())-maxrss").path
        let measured = FileManager.default.isExecutableFile(atPath: Self.gnuTime)
        let command = measured ? [Self.gnuTime, "-q", "-f", "%U %S %M", "-o", timeOutput, executable] + arguments : [executable] + arguments
        defer { unlink(timeOutput) }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = now()
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw BenchError("cannot start \(executable)")
        }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = read(pipe[0], &chunk, chunk.count)
            if got <= 0 { break }
            output += chunk[0..<got]
        }
        close(pipe[0])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = now() - start
        // A normal exit's status is in bits 8–15 of what wait4 reports.
        guard status & 0x7F == 0, allowedStatuses.contains((status >> 8) & 0xFF) else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        var peakKiB = Double(usage.ru_maxrss)
        var cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        if measured, let text = try? String(contentsOfFile: timeOutput, encoding: .utf8),
            let fields = text.split(whereSeparator: \.isNewline).last?.split(separator: " ").compactMap({ Double($0) }), fields.count == 3
        {
            cpu = fields[0] + fields[1]
            peakKiB = fields[2]
        }
        return (
            ProcessRun(seconds: elapsed, peakMemoryMiB: peakKiB / 1024, cpuSeconds: cpu),
            String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// GNU time (Debian's `time`), which measures a child's peak memory from a process of its own.
    static let gnuTime = "/usr/bin/time"

    /// Best (shortest) of `repetitions` runs of each command, interleaved so both see the same machine load.
    /// `removing` lists files each run writes: they are removed before every run (a file system may take a while
    /// to free an old output's blocks, which is no part of either tool's work).
    static func compare(
        ours: (String, [String]), reference: (String, [String]), repetitions: Int = 5,
        allowedStatuses: Set<Int32> = [0], removing outputs: [String] = []
    ) throws -> (ours: ProcessRun, reference: ProcessRun) {
        var best: (ours: ProcessRun?, reference: ProcessRun?) = (nil, nil)
        for _ in 0..<repetitions {
            for output in outputs { unlink(output) }
            let r = try run(reference.0, reference.1)
            for output in outputs { unlink(output) }
            let o = try run(ours.0, ours.1, allowedStatuses: allowedStatuses)
            if best.reference == nil || r.seconds < best.reference!.seconds { best.reference = r }
            if best.ours == nil || o.seconds < best.ours!.seconds { best.ours = o }
        }
        return (best.ours!, best.reference!)
    }

    /// CPU time of the calling thread: what "on one core" means, without the time the machine lent to others.
    /// Seconds of CPU time the hypervisor gave to other guests so far (steal time, all cores; /proc/stat),
    /// nil where it is not reported. A large share during a measurement makes it unreliable.
    static func stolenSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count > 7 else { return nil }
        return fields[7] / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
