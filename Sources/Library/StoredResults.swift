import Findings
import Foundation

/// The results kept in one or more stores (the shards of one run), file by file in the order of their real paths:
/// each file once, from the first store naming it; files deleted since they were checked left out. Only paths and
/// row numbers are held: the results are read a batch at a time (`ResultStore.readBatch`).
public struct StoredResults {
    public let stores: [ResultStore]
    /// Stored files that no longer exist (not reported).
    public let gone: Int
    private let files: [(store: Int, row: Int64)]

    /// Why a store's results could not be read: `store` is its index in `stores`.
    public struct ReadError: Error {
        public let store: Int
        public let underlying: any Error
    }

    public init(_ stores: [ResultStore]) throws(ReadError) {
        var byFile: [String: (store: Int, row: Int64)] = [:]
        var gone = 0
        for (index, store) in stores.enumerated() {
            let rows: [(path: String, row: Int64)]
            do { rows = try store.rowsByPath() } catch { throw ReadError(store: index, underlying: error) }
            for (file, row) in rows where byFile[file] == nil {
                // A file deleted since it was checked is not reported (nor does it decide an exit status).
                guard FileManager.default.fileExists(atPath: file) else {
                    gone += 1
                    continue
                }
                byFile[file] = (index, row)
            }
        }
        self.stores = stores
        self.gone = gone
        files = byFile.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Hands each file's results to `body`, in order.
    public func forEach(_ body: ([CheckResult]) -> Void) throws(ReadError) {
        try read(nil) { _, results in body(results) }
    }
}

extension StoredResults: ResultSource {
    public typealias Failure = ReadError

    /// A unit per file.
    public var unitCount: Int { files.count }

    /// Hands the results of the files at `positions` (in the order of their paths; all when nil) to `body` in the
    /// order given, reading a batch of rows at a time.
    public func read(_ positions: [Int]?, _ body: (_ position: Int, _ results: [CheckResult]) -> Void) throws(ReadError) {
        let count = positions?.count ?? files.count
        for start in stride(from: 0, to: count, by: ResultStore.readBatch) {
            let batch = (start..<min(count, start + ResultStore.readBatch)).map { positions?[$0] ?? $0 }
            var read: [Int: [Int64: [CheckResult]]] = [:]
            for (index, store) in stores.enumerated() {
                let rows = batch.lazy.map { files[$0] }.filter { $0.store == index }.map(\.row)
                guard !rows.isEmpty else { continue }
                do { read[index] = try store.results(inRows: Array(rows)) } catch { throw ReadError(store: index, underlying: error) }
            }
            for position in batch {
                let file = files[position]
                if let results = read[file.store]?[file.row] { body(position, results) }
            }
        }
    }
}
