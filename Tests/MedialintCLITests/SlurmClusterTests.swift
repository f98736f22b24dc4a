import Foundation
import TestSupport
import Testing

/// The scale-out example run on a real engine: a one-node Slurm cluster (Debian's slurmctld, slurmd and munge, set up
/// in a folder of its own and stopped after) runs `Examples/scale-out/parallel-and-slurm.sh` as an `sbatch --array`
/// over a generated library; the shards' stores merged give the report a one-machine `check` gives. One array task
/// killed mid-run and submitted again resumes from its store, and the report is the same. Runs as root with Slurm
/// installed (`make test-slurm` installs it; `.ci/run` runs it); skipped, and said, elsewhere.
@Suite(.serialized) struct SlurmClusterTests {
    static let tools = ["/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch", "/usr/bin/squeue", "/usr/bin/scontrol"]
    static var available: Bool { getuid() == 0 && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// A cluster of one node in `folder`: munged on a socket of its own, slurmctld and slurmd on ports of their own.
    final class Cluster {
        let folder: URL
        let configuration: URL
        var environment: [String: String] { ["SLURM_CONF": configuration.path] }

        init(in folder: URL) throws {
            self.folder = folder
            configuration = folder.appendingPathComponent("slurm.conf")
            for name in ["state", "spool", "log"] {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            var key = [UInt8](repeating: 0, count: 1024)
            for index in key.indices { key[index] = UInt8.random(in: 0...255) }
            let keyFile = folder.appendingPathComponent("munge.key")
            try Data(key).write(to: keyFile)
            chmod(keyFile.path, 0o600)
            let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
            let port = Int.random(in: 20_000...29_000)
            let cpus = ProcessInfo.processInfo.activeProcessorCount
            let path = folder.path
            try """
            ClusterName=medialint
            SlurmctldHost=\(host)
            SlurmUser=root
            SlurmdUser=root
            SlurmctldPort=\(port)
            SlurmdPort=\(port + 1)
            AuthType=auth/munge
            AuthInfo=socket=\(path)/munge.socket
            CredType=cred/munge
            StateSaveLocation=\(path)/state
            SlurmdSpoolDir=\(path)/spool
            SlurmctldPidFile=\(path)/slurmctld.pid
            SlurmdPidFile=\(path)/slurmd.pid
            SlurmctldLogFile=\(path)/log/slurmctld.log
            SlurmdLogFile=\(path)/log/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            JobCompType=jobcomp/none
            MpiDefault=none
            ReturnToService=2
            SchedulerType=sched/backfill
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core
            NodeName=\(host) CPUs=\(cpus) RealMemory=2000 State=UNKNOWN
            PartitionName=medialint Nodes=ALL Default=YES MaxTime=INFINITE State=UP

            """.write(to: configuration, atomically: true, encoding: .utf8)
            try start(
                "/usr/sbin/munged",
                [
                    "--force", "--socket=\(path)/munge.socket", "--key-file=\(path)/munge.key", "--pid-file=\(path)/munged.pid",
                    "--log-file=\(path)/log/munged.log", "--seed-file=\(path)/munge.seed",
                ])
            try start("/usr/sbin/slurmctld", ["-f", configuration.path, "-i"])
            try start("/usr/sbin/slurmd", ["-f", configuration.path])
            // Up when the node is idle.
            for _ in 0..<100 {
                if (try? run("/usr/bin/sinfo", ["-h", "-o", "%T"]))?.contains("idle") == true { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "the Slurm node never came up: \(log())"])
        }

        /// Starts a daemon: spawned with no descriptor but /dev/null (a daemon keeps what it is given open, and a
        /// pipe or Foundation's own bookkeeping would wait for it), and waited for as it forks and returns.
        func start(_ tool: String, _ arguments: [String]) throws {
            var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
            let argv = ([tool] + arguments).map { strdup($0) } + [nil]
            let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + variables).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, tool, &actions, nil, argv, variables)
            guard spawned == 0 else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(tool): \(String(cString: strerror(spawned)))"])
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            guard status == 0 else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(tool) exited with \(status): \(log())"])
            }
        }

        @discardableResult
        func run(_ tool: String, _ arguments: [String]) throws -> String {
            let result = try Medialint.runTool(tool, arguments, environment: environment, timeout: 120)
            guard result.status == 0 else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments): \(result.stderr)"])
            }
            return result.stdout
        }

        /// The daemons' logs, for a failure's message.
        func log() -> String {
            ["slurmctld", "slurmd", "munged"].map { (try? String(contentsOf: folder.appendingPathComponent("log/\($0).log"), encoding: .utf8)) ?? "" }
                .joined(separator: "\n").suffix(2000).description
        }

        /// Waits until no task of `job` is queued or running.
        func wait(for job: String, timeout: Double = 900) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if try run("/usr/bin/squeue", ["-h", "-j", job]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "job \(job) did not finish in \(timeout) s"])
        }

        /// Stops the daemons (by their pid files) and waits until they are gone: nothing is left running.
        func stop() {
            for name in ["slurmd", "slurmctld", "munged"] {
                guard let text = try? String(contentsOf: folder.appendingPathComponent("\(name).pid"), encoding: .utf8),
                    let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
                else { continue }
                kill(pid, SIGTERM)
                var waited = 0
                while kill(pid, 0) == 0, waited < 100 {
                    Thread.sleep(forTimeInterval: 0.05)
                    waited += 1
                }
                if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
            }
        }
    }

    /// A library as a catalogue has it: 300 caption files (on time, with long lines, overlapping, broken) and 48 short
    /// media files (speech, silence, flashing, damaged), in folders by season: each shard has media to decode, so a
    /// task runs long enough to be killed part-way.
    static func library(in root: URL) throws {
        let srt = try String(contentsOf: Medialint.root.appendingPathComponent("Media/speech.srt"), encoding: .utf8)
        let variants = [
            srt, srt.replacingOccurrences(of: "00:00:06,500", with: "00:00:05,500"), srt.replacingOccurrences(of: "Welcome", with: "Welcome, welcome, welcome"),
            "1\nnot a timing line\n",
        ]
        for index in 0..<300 {
            let folder = root.appendingPathComponent("season-\(index % 6)/captions")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try variants[index % variants.count].write(to: folder.appendingPathComponent("episode-\(index).srt"), atomically: true, encoding: .utf8)
        }
        let samples = ["speech.mp4", "no-audio.mp4", "flashing.mp4", "truncated.mp4"]
        for index in 0..<48 {
            let folder = root.appendingPathComponent("season-\(index % 6)/video")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let sample = samples[index % samples.count]
            try FileManager.default.copyItem(
                at: Medialint.root.appendingPathComponent("Media/\(sample)"),
                to: folder.appendingPathComponent("clip-\(index).\((sample as NSString).pathExtension)"))
        }
    }

    /// A report's results as comparable text: each result's file, check, verdict, findings and metrics, sorted (the
    /// time each check took is not in the JSON report).
    static func results(_ json: String) throws -> [String] {
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let results = document?["results"] as? [[String: Any]] ?? []
        return try results.map { result in
            String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self)
        }.sorted()
    }

    @Test(.tags(.slow), .notInFastRun, .enabled(if: available, "needs root and Slurm (slurmctld, slurmd, munge, slurm-client): make test-slurm installs them"))
    func anArrayJobMergesToTheOneMachineReport() throws {
        let root = try Medialint.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let library = root.appendingPathComponent("library"), results = root.appendingPathComponent("results")
        try Self.library(in: library)
        let cluster = try Cluster(in: root.appendingPathComponent("slurm"))
        defer { cluster.stop() }
        let script = Medialint.root.appendingPathComponent("Examples/scale-out/parallel-and-slurm.sh").path
        let binaries = Medialint.executable.deletingLastPathComponent().path
        let shards = 4
        /// Submits `tasks` of the example's array; its job id.
        func submit(_ tasks: String) throws -> String {
            let output = try Medialint.runTool(
                "/usr/bin/sbatch",
                [
                    "--parsable", "--array=\(tasks)", "--chdir=\(root.path)", "--output=\(root.path)/slurm-%A_%a.out", script, "slurm", library.path,
                    "\(shards)",
                ],
                environment: cluster.environment.merging(
                    ["PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "RESULTS": results.path]) { $1 },
                timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let job = try submit("1-\(shards)")
        // Task 2 is killed as soon as it has stored a file, then submitted again: it resumes from its store.
        let store = results.appendingPathComponent("shard-2.sqlite").path
        var killed = false
        for _ in 0..<1200 where !killed {
            if FileManager.default.fileExists(atPath: store),
                let stored = try? Medialint.run(["report", "--db", store, "--format", "jsonl", "-q"]).stdout.split(separator: "\n")
                    .count(where: { $0.hasPrefix("{\"file\"") }), stored >= 1
            {
                let cancel = try Medialint.runTool("/usr/bin/scancel", ["--signal=KILL", "\(job)_2"], environment: cluster.environment, timeout: 60)
                #expect(cancel.status == 0, "task 2 ended before it could be killed (\(stored) files stored): \(cancel.stderr)")
                killed = true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(killed, "task 2 was killed mid-run")
        try cluster.wait(for: job)
        let again = try submit("2")
        try cluster.wait(for: again)
        let resumed = try String(contentsOf: root.appendingPathComponent("slurm-\(again)_2.out"), encoding: .utf8)
        let reused = resumed.firstMatch(of: /(\d+) from the store/).flatMap { Int($0.1) } ?? 0
        #expect(reused >= 1, "the resubmitted task took its stored results: \(resumed)")

        let stores = (0..<shards).map { results.appendingPathComponent("shard-\($0 + 1).sqlite").path }
        let merged = try Medialint.run(["report", "--merge"] + stores + ["--format", "json"])
        let single = try Medialint.run(["check", library.path, "--no-store", "--format", "json"])
        #expect(merged.status == single.status)
        let (fromShards, fromOne) = (try Self.results(merged.stdout), try Self.results(single.stdout))
        #expect(fromShards.count == fromOne.count && fromOne.count > 340, "\(fromShards.count) results merged, \(fromOne.count) on one machine")
        #expect(fromShards == fromOne, "\(Set(fromShards).symmetricDifference(fromOne).prefix(3))")
        // SARIF and JUnit too (JUnit's times aside: not stored).
        for format in ["sarif", "junit"] {
            let untimed = { (text: String) in text.replacing(/time="[0-9.]+"/, with: "time") }
            let merged = try Medialint.run(["report", "--merge"] + stores + ["--format", format])
            let single = try Medialint.run(["check", library.path, "--no-store", "--format", format])
            #expect(untimed(merged.stdout) == untimed(single.stdout), "\(format): the merged report differs from one machine's")
        }
    }
}
