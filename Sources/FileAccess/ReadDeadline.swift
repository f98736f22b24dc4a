/// When the reading of files that make one input together — an HLS package's playlists and its many segments — must
/// end, and the seconds that allowed. Each media file's read ends by its own limit or by the deadline bound for the
/// work it is part of (`bind`), whichever comes first: a package of ten thousand tiny runs cannot take ten thousand
/// times a file's time.
public struct ReadDeadline: Sendable, Equatable {
    /// The instant reading must stop.
    public let end: ContinuousClock.Instant
    /// The seconds allowed in all (for messages).
    public let allowedSeconds: Double
    /// What is being read, for messages: "the package's media".
    public let subject: String

    public init(allowing seconds: Double, for subject: String, from start: ContinuousClock.Instant = .now) {
        let bounded = seconds.isFinite ? min(max(seconds, 0), 1e9) : 1e9
        end = start.advanced(by: .nanoseconds(Int64(bounded * 1e9)))
        allowedSeconds = bounded
        self.subject = subject
    }

    /// `seconds` as messages about time limits write them: whole seconds from 10 on or when whole, else to the
    /// millisecond ("1.029").
    public static func describe(seconds: Double) -> String {
        seconds >= 10 || seconds == seconds.rounded() ? String(Int(seconds.rounded())) : String(Double(Int(seconds * 1000)) / 1000)
    }

    /// Whether the time allowed is over.
    public var isPast: Bool { ContinuousClock.now >= end }

    /// The seconds left (0 when over).
    public var remainingSeconds: Double {
        let left = ContinuousClock.now.duration(to: end)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return max(0, seconds)
    }

    /// The deadline bound for the work running now (`bind`), if any.
    @TaskLocal public static var current: ReadDeadline?

    /// Runs `body` with this deadline bound: every media read inside ends by it.
    public func bind<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let outcome: Result<T, Failure> = Self.$current.withValue(self) {
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension Optional where Wrapped == ReadDeadline {
    /// Runs `body` with the deadline bound when there is one, else as it is.
    public func bind<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        switch self {
        case .some(let deadline): return try deadline.bind(body)
        case .none: return try body()
        }
    }
}
