/// "Did you mean `check`?": the command name nearest a mistyped one.
enum CommandSuggestion {
    /// The name of `names` fewest edits (insertions, deletions, substitutions, swaps of neighbours) from `word`, when
    /// it is at most two edits away (one, for a word of three letters or fewer).
    static func nearest(_ word: String, in names: [String]) -> String? {
        let limit = word.count <= 3 ? 1 : 2
        let scored = names.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}
