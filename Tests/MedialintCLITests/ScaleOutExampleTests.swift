import Foundation
import Testing
import Yams

/// The two scale-out examples say the same: the Kubernetes Indexed Job and the Slurm array script give each shard the
/// same `check` arguments (1-based `--shard K/N`, a store `shard-K.sqlite` each, JSON Lines), and merge the same way
/// (`report --merge …/shard-*.sqlite`). SlurmClusterTests runs the script; this reads the manifest as YAML.
@Suite struct ScaleOutExampleTests {
    static let folder = Medialint.root.appendingPathComponent("Examples/scale-out")

    /// The options of a `medialint check …` command line (its words up to `>`), by name, `--jobs` aside.
    static func checkOptions(_ command: String) -> [String: String] {
        // Words as the shell splits them: quotes keep spaces in, and go.
        var words: [String] = []
        var word = ""
        var quote: Character?
        for character in command.prefix(while: { $0 != ">" }) {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character.isWhitespace {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        var options: [String: String] = [:]
        for (index, word) in words.enumerated() where word.hasPrefix("--") && word != "--jobs" {
            options[word] = index + 1 < words.count && !words[index + 1].hasPrefix("--") ? words[index + 1] : ""
        }
        return options
    }

    @Test func kubernetesAndSlurmShardAndMergeAlike() throws {
        let manifest = try String(contentsOf: Self.folder.appendingPathComponent("kubernetes-indexed-job.yaml"), encoding: .utf8)
        let documents = try Yams.load_all(yaml: manifest).map { $0 as? [String: Any] ?? [:] }
        #expect(documents.count == 2)
        func spec(_ document: [String: Any]) -> [String: Any] { document["spec"] as? [String: Any] ?? [:] }
        func command(_ document: [String: Any]) -> String {
            let template = (spec(document)["template"] as? [String: Any])?["spec"] as? [String: Any]
            let container = (template?["containers"] as? [[String: Any]])?.first
            return (container?["args"] as? [String])?.joined(separator: " ") ?? ""
        }
        let job = documents[0], merge = documents[1]
        let shards = try #require(spec(job)["completions"] as? Int)
        #expect(spec(job)["completionMode"] as? String == "Indexed" && spec(job)["parallelism"] as? Int == shards)
        let pod = Self.checkOptions(command(job))
        #expect(pod["--shard"] == "$((JOB_COMPLETION_INDEX + 1))/\(shards)", "1-based, of the completions")
        #expect(pod["--db"] == "/results/shard-$((JOB_COMPLETION_INDEX + 1)).sqlite", "a store a shard, named by its 1-based number")

        let script = try String(contentsOf: Self.folder.appendingPathComponent("parallel-and-slurm.sh"), encoding: .utf8)
        let slurm = try #require(script.components(separatedBy: "slurm)\n").dropFirst().first)
        let line = slurm.components(separatedBy: "\n").drop { !$0.contains("medialint check") }.prefix(2).joined(separator: " ")
            .replacingOccurrences(of: "\\", with: " ")
        let task = Self.checkOptions(String(line[line.range(of: "medialint check")!.upperBound...]))
        #expect(task["--shard"] == "$shard/$shards" && task["--db"] == "$results/shard-$shard.sqlite")
        #expect(Set(pod.keys) == Set(task.keys), "the same options: \(pod.keys.sorted()) and \(task.keys.sorted())")
        #expect(pod["--format"] == task["--format"])
        #expect(script.contains("shard=${SLURM_ARRAY_TASK_ID:?run with sbatch --array=1-N}"), "Slurm's array numbers from 1")
        // One merge of every shard's store.
        #expect(command(merge).contains("medialint report --merge /results/shard-*.sqlite"))
        #expect(script.contains("medialint report --merge \"$results\"/shard-*.sqlite"))
    }
}
