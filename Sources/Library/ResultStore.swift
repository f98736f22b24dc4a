import Basics
import Captions
import FileAccess
import Findings
import Foundation
import GRDB
import Reports

/// What identifies the state of a file for the results store: its path, size, modification time, a content
/// fingerprint, and the tool version and options it was checked with. A file whose stamp matches a stored one is
/// not checked again.
public struct FileStamp: Sendable, Equatable {
    /// The file's real path (links resolved, absolute): the store's key, whatever name a run gave the file.
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
        of(path, realPath: PathContainment.realPath(path), companions: companions, setup: setup)
    }

    /// `of(_:companions:setup:)` with the file's real path known (`RealPaths`).
    static func of(_ path: String, realPath: String?, companions: [String] = [], setup: String) -> FileStamp? {
        guard let (size, modified, hash) = measure(path) else { return nil }
        var fingerprint = hash
        var stampModified = modified
        for companion in companions {
            guard let (companionSize, companionModified, companionHash) = measure(companion) else { continue }
            // By its real path: the stamp is the same whatever name the run gives the library.
            let name = PathContainment.realPath(companion) ?? companion
            fingerprint = FNV1a.hash("\(name)|\(companionSize)|\(companionHash)".utf8, seed: fingerprint)
            stampModified = max(stampModified, companionModified)
        }
        return FileStamp(
            path: realPath ?? path, size: size, modified: stampModified,
            fingerprint: String(fingerprint, radix: 16), setup: setup)
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

/// Real paths of many files in few folders: each folder resolved once, a file that is not itself a link named in
/// its folder's real path (what `realpath(3)` gives, without a `readlink` for every component of every file).
final class RealPaths {
    private var folders: [String: String?] = [:]

    func of(_ path: String) -> String? {
        var info = stat()
        guard let slash = path.lastIndex(of: "/"), lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else {
            return PathContainment.realPath(path)
        }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        if folders[folder] == nil { folders[folder] = .some(PathContainment.realPath(folder)) }
        guard let real = folders[folder] ?? nil else { return PathContainment.realPath(path) }
        let name = path[path.index(after: slash)...]
        guard !name.isEmpty, name != ".", name != ".." else { return PathContainment.realPath(path) }
        return real == "/" ? "/" + name : real + "/" + name
    }
}

/// Check results kept in SQLite (through GRDB), one row per file, written as each file finishes: a run
/// stopped at any moment keeps every finished file, and the next run checks only the others. Rows are keyed by
/// the file's real path, so `lib`, `./lib` and `$PWD/lib` are one library.
public final class ResultStore: @unchecked Sendable {
    private let database: DatabaseQueue
    /// What opening found and did about it (a store rebuilt, older rows dropped): to be told to the user.
    public private(set) var notes: [String] = []

    /// The layout version (`PRAGMA user_version`): 2 keys rows by real path.
    static let version = 2

    /// Why a store cannot be used.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens (or creates) the store at `path`, and its folder. With `writable`, a store that cannot be written is
    /// refused (rather than silently saving nothing), and a damaged one is moved aside (`PATH.damaged-TIME`) and
    /// started afresh, with a note; read-only, a damaged store is refused.
    public init(path: String, writable: Bool = true) throws {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var createdFolder = false
        if writable, !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            createdFolder = true
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)  // shards of one run may share a store
        configuration.readonly = !writable
        if writable {
            // Write-ahead logging, synced at checkpoints: a commit per file costs no fsync, and what was committed
            // survives the process being killed (kill -9) — only a power cut may take the last commits.
            configuration.journalMode = .wal
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        // A file that never was a store is not one to move aside: refused, left as it is.
        if let refusal = Self.notAStore(path) { throw Failure(description: refusal) }
        var database: DatabaseQueue
        do {
            // An existing file is looked at read-only first: nothing is changed (not even its journal mode) in a file
            // that turns out to be damaged or someone else's.
            // (Opened read-only, that connection is the store's.)
            var existing: DatabaseQueue?
            if FileManager.default.fileExists(atPath: path) {
                var looking = Configuration()
                looking.readonly = true
                looking.busyMode = .timeout(30)
                // Its check reads every page, and a store only read is read row by row, once: a small page cache
                // (SQLite's default is 2 MiB a store) keeps a merge of many stores flat in memory.
                looking.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -128") }
                let opened = try DatabaseQueue(path: path, configuration: looking)
                if let problem = try Self.damage(in: opened) { throw Failure(description: problem) }
                if let other = try Self.otherDatabase(opened) { throw OtherDatabase(description: other) }
                existing = opened
            }
            if !writable, let existing {
                database = existing
            } else {
                try existing?.close()
                database = try DatabaseQueue(path: path, configuration: configuration)
            }
        } catch let error as OtherDatabase {
            throw Failure(description: error.description)
        } catch {
            let damaged = error is Failure || [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains((error as? DatabaseError)?.resultCode)
            guard writable, damaged, FileManager.default.fileExists(atPath: path) else {
                throw Failure(description: damaged ? "damaged (\(Self.oneLine(error)))" : Self.oneLine(error))
            }
            // Damaged (or not a database at all): kept for inspection, and a new store started.
            let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970))"
            do {
                try FileManager.default.moveItem(atPath: path, toPath: aside)
                // Its journal or log goes with it when it holds anything; the shared-memory index is rebuilt, not kept.
                for suffix in ["-journal", "-wal"] {
                    let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
                    if size > 0 {
                        try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
                    } else {
                        try? FileManager.default.removeItem(atPath: path + suffix)
                    }
                }
                try? FileManager.default.removeItem(atPath: path + "-shm")
            } catch {
                throw Failure(description: "damaged, and it cannot be moved aside: \(error)")
            }
            notes.append(
                "\(path): the results store was damaged (\(Self.oneLine(error))); it was moved to \(aside) and a new one started: every file is checked again")
            database = try DatabaseQueue(path: path, configuration: configuration)
        }
        self.database = database
        if createdFolder { notes.append("\(path): the folder \(folder) did not exist; it was made for the results store") }
        guard writable else { return }
        do {
            let dropped = try database.write { db -> Int in
                try db.execute(
                    sql: """
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
                // Rows of older versions are keyed by the path as typed: dropped, their files checked again.
                var dropped = 0
                if try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 < Self.version {
                    dropped = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM checked_file") ?? 0
                    try db.execute(sql: "DELETE FROM checked_file")
                }
                // A real write, every time: a store that cannot be written says so now, not never.
                try db.execute(sql: "PRAGMA user_version = \(Self.version)")
                return dropped
            }
            if dropped > 0 { notes.append("\(path): \(dropped) rows of an older MediaLint were dropped; their files are checked again") }
        } catch {
            throw Failure(description: "cannot be written (\(Self.oneLine(error))): give --db another file, or --no-store")
        }
    }

    /// Why the file at `path` is not a store to open or start: it exists, is not empty and does not start as an SQLite
    /// database does (a caption file, a playlist, anything the user did not mean). Nil otherwise.
    static func notAStore(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        guard !head.isEmpty, head != Data("SQLite format 3\u{0}".utf8) else { return nil }
        return "is not a results store (not an SQLite database), and is left as it is: give --db a store or a new file, or --no-store"
    }

    /// An SQLite database of something else (tables, none of them the store's).
    private struct OtherDatabase: Error, CustomStringConvertible { let description: String }

    /// Why a sound SQLite database is not a store: it has tables and none is the store's. Nil for a store or an empty
    /// database.
    private static func otherDatabase(_ database: DatabaseQueue) throws -> String? {
        let tables = try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        guard !tables.isEmpty, !tables.contains("checked_file") else { return nil }
        return
            "is an SQLite database but not a results store (its tables: \(tables.prefix(3).joined(separator: ", "))), and is left as it is: give --db a store or a new file"
    }

    /// SQLite's own integrity check (quick): nil when the store is sound.
    private static func damage(in database: DatabaseQueue) throws -> String? {
        let verdicts = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        return verdicts == ["ok"] ? nil : "integrity check: " + verdicts.prefix(3).joined(separator: "; ")
    }

    private static func oneLine(_ error: Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
    }

    /// How many stored results are read at once (`results(inRows:)`) by those that read them in turn: a batch is
    /// worth decoding on every core, and memory holds no more.
    public static let readBatch = 256

    /// For each stamp, the row holding results made for exactly that state of the file, else nil — every file
    /// looked up in one read transaction.
    public func reusableRows(for stamps: [FileStamp?]) throws -> [Int64?] {
        try database.read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT rowid FROM checked_file WHERE path = ? AND size = ? AND modified = ? AND fingerprint = ? AND setup = ?")
            return try stamps.map { stamp in
                guard let stamp else { return nil }
                return try Int64.fetchOne(statement, arguments: [stamp.path, stamp.size, stamp.modified, stamp.fingerprint, stamp.setup])
            }
        }
    }

    /// The results stored in `rows` (from `reusableRows`), by row; rows gone since are left out.
    public func results(inRows rows: [Int64]) throws -> [Int64: [CheckResult]] {
        let texts = try database.read { db in
            let statement = try db.cachedStatement(sql: "SELECT results FROM checked_file WHERE rowid = ?")
            return try rows.map { row in try String.fetchOne(statement, arguments: [row]) }
        }
        // Decoded in slices on every core (a batch of stored results is read while nothing else runs).
        let slices = ParallelSlices.bounds(of: texts.indices, slices: ParallelSlices.count(for: texts.count, minimum: 64))
        let decoded = ParallelSlices.map(slices.count) { slice in
            Result { try slices[slice].map { index in try texts[index].map(Self.decode) } }
        }
        var byRow: [Int64: [CheckResult]] = [:]
        for (index, results) in try decoded.flatMap({ try $0.get() }).enumerated() {
            if let results { byRow[rows[index]] = results }
        }
        return byRow
    }

    /// Ends writing: the write-ahead log folded into the store and emptied, so that the store is one file again (and
    /// whatever is copied or read next sees everything). Harmless when nothing was written.
    public func finish() {
        try? database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Stores a file's results (replacing what was there), in a transaction of its own.
    public func save(_ stamp: FileStamp, results: [CheckResult]) throws {
        let text = CheckResult.json(results)
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO checked_file (path, size, modified, fingerprint, setup, results, checked_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [stamp.path, stamp.size, stamp.modified, stamp.fingerprint, stamp.setup, text, Date().timeIntervalSince1970])
        }
    }

    /// Every stored file (its real path) and the row holding its results (`results(inRows:)`), by path: what a report
    /// needs to read the results a batch at a time.
    public func rowsByPath() throws -> [(path: String, row: Int64)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT path, rowid FROM checked_file ORDER BY path").map { ($0[0] as String, $0[1] as Int64) }
        }
    }

    static func decode(_ text: String) throws -> [CheckResult] {
        guard case .array(let items) = try JSONValue.parse(text) else { throw JSONValue.ParseError(offset: 0) }
        return try items.map { item throws in try CheckResult(json: item) }
    }
}
