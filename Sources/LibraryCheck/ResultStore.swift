import FileAccess
import Foundation
import GRDB
import Reports

/// What identifies the state of a file for the results store: its path, size, modification time, a content
/// fingerprint, and the tool version and options it was checked with. A file whose stamp matches a stored one is
/// not checked again.
public struct FileStamp: Sendable, Equatable {
    public var path: String
    public var size: Int64
    public var modified: Double
    /// FNV-1a over the first and last 64 KiB and the size (a media file's sidecar captions included).
    public var fingerprint: String
    /// Tool version and the options that change results.
    public var setup: String

    /// The stamp of the file at `path` (with `companions`, e.g. its caption sidecars, folded in); nil when
    /// it cannot be read.
    public static func of(_ path: String, companions: [String] = [], setup: String) -> FileStamp? {
        guard let (size, modified, hash) = measure(path) else { return nil }
        var fingerprint = hash
        var stampModified = modified
        for companion in companions {
            guard let (companionSize, companionModified, companionHash) = measure(companion) else { continue }
            fingerprint = FNV1a.hash("\(companion)|\(companionSize)|\(companionHash)".utf8, seed: fingerprint)
            stampModified = max(stampModified, companionModified)
        }
        return FileStamp(path: path, size: size, modified: stampModified, fingerprint: String(fingerprint, radix: 16), setup: setup)
    }

    private static func measure(_ path: String) -> (Int64, Double, UInt64)? {
        // Only a regular file is measured (a FIFO named like a sidecar is never opened for a blocking read).
        guard let file = try? RegularFile(path: path) else { return nil }
        let size = file.size
        var hash = FNV1a.hash(String(size).utf8)
        hash = FNV1a.hash(file.read(count: 65_536, at: 0), seed: hash)
        if size > 131_072 {
            hash = FNV1a.hash(file.read(count: 65_536, at: size - 65_536), seed: hash)
        }
        return (size, file.modified, hash)
    }
}

/// Check results kept in SQLite (through GRDB), one row per file, written as each file finishes: a run
/// stopped at any moment keeps every finished file, and the next run checks only the others.
public final class ResultStore: @unchecked Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) the store at `path`, and its folder.
    public init(path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)  // shards of one run may share a store
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS checked_file (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    modified DOUBLE NOT NULL,
                    fingerprint TEXT NOT NULL,
                    setup TEXT NOT NULL,
                    results TEXT NOT NULL,
                    checked_at DOUBLE NOT NULL
                )
                """)
        }
    }

    /// The stored results of a file whose stamp still matches, else nil.
    public func results(for stamp: FileStamp) throws -> [CheckResult]? {
        let text = try database.read { db in
            try String.fetchOne(db, sql: """
                SELECT results FROM checked_file WHERE path = ? AND size = ? AND modified = ? AND fingerprint = ? AND setup = ?
                """, arguments: [stamp.path, stamp.size, stamp.modified, stamp.fingerprint, stamp.setup])
        }
        guard let text else { return nil }
        return try Self.decode(text)
    }

    /// Stores a file's results (replacing what was there), in a transaction of its own.
    public func save(_ stamp: FileStamp, results: [CheckResult]) throws {
        let text = CheckResult.json(results)
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO checked_file (path, size, modified, fingerprint, setup, results, checked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [stamp.path, stamp.size, stamp.modified, stamp.fingerprint, stamp.setup, text, Date().timeIntervalSince1970])
        }
    }

    /// Every stored result, by path.
    public func allResults() throws -> [CheckResult] {
        let rows = try database.read { db in try String.fetchAll(db, sql: "SELECT results FROM checked_file ORDER BY path") }
        return try rows.flatMap { try Self.decode($0) }
    }

    /// Files stored.
    public func count() throws -> Int { try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM checked_file") ?? 0 } }

    static func decode(_ text: String) throws -> [CheckResult] {
        guard case .array(let items) = try JSONValue.parse(text) else { throw JSONValue.ParseError(offset: 0) }
        return try items.map { item throws in try CheckResult(json: item) }
    }
}
