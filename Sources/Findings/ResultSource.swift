/// Check results a report can read more than once, in units (a file's results, or one result) named by their
/// positions: a report that must know every result before it begins (SARIF's rules, JUnit's counts, the HTML page's
/// headline) reads them once to count and again to write, and holds a batch at a time however many there are.
public protocol ResultSource {
    associatedtype Failure: Error

    /// How many units there are.
    var unitCount: Int { get }

    /// Hands the units at `positions`, in the order given (every unit in order when nil), to `body` with their
    /// positions.
    func read(_ positions: [Int]?, _ body: (_ position: Int, _ results: [CheckResult]) -> Void) throws(Failure)
}

extension ResultSource {
    /// Every unit's results, one after another.
    public func forEachResult(_ body: (CheckResult) -> Void) throws(Failure) {
        try read(nil) { _, results in for result in results { body(result) } }
    }
}

/// Results' indices grouped by file, the files in the order they first come: a `ResultSource`'s units when its
/// report reads a unit a file.
public struct FileUnits {
    /// Each file's result indices, in the order they were added.
    public private(set) var units: [[Int]] = []
    private var unitOfFile: [String: Int] = [:]

    public init() {}

    /// Adds result `index`, of `file`.
    public mutating func add(_ index: Int, file: String) {
        if let unit = unitOfFile[file] {
            units[unit].append(index)
        } else {
            unitOfFile[file] = units.count
            units.append([index])
        }
    }
}

/// Results held in memory, as a `ResultSource`: a unit per result, or per file (its results in the order they come,
/// the files in the order they first appear).
public struct ResultArray: ResultSource {
    public typealias Failure = Never
    private let results: [CheckResult]
    /// The results' indices in each unit; nil: a unit per result.
    private let units: [[Int]]?

    public init(_ results: [CheckResult], byFile: Bool = false) {
        self.results = results
        guard byFile else {
            units = nil
            return
        }
        var files = FileUnits()
        for (index, result) in results.enumerated() { files.add(index, file: result.file) }
        units = files.units
    }

    public var unitCount: Int { units?.count ?? results.count }

    public func read(_ positions: [Int]?, _ body: (_ position: Int, _ results: [CheckResult]) -> Void) {
        for position in positions ?? Array(0..<unitCount) {
            body(position, units.map { $0[position].map { results[$0] } } ?? [results[position]])
        }
    }
}

/// A source's results passed through `transform` as they are read (a baseline leaving out known findings).
public struct TransformedResults<Base: ResultSource>: ResultSource {
    public typealias Failure = Base.Failure
    public let base: Base
    public let transform: ([CheckResult]) -> [CheckResult]

    public init(_ base: Base, _ transform: @escaping ([CheckResult]) -> [CheckResult]) {
        self.base = base
        self.transform = transform
    }

    public var unitCount: Int { base.unitCount }

    public func read(_ positions: [Int]?, _ body: (_ position: Int, _ results: [CheckResult]) -> Void) throws(Failure) {
        try base.read(positions) { position, results in body(position, transform(results)) }
    }
}
