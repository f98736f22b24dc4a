import FileAccess
import Foundation
import Testing

@testable import MediaIO

/// A deadline bound for the reads of one job (an HLS package's): each file's read ends by it when it comes before the
/// file's own limit, and says whose time ran out.
@Suite struct ReadDeadlineTests {
    @Test func aBoundDeadlineEndsTheReadAndIsNamed() throws {
        let deadline = ReadDeadline(allowing: 0, for: "the package's media")
        #expect(deadline.isPast)
        let error = deadline.bind { () -> MediaError? in
            do throws(MediaError) {
                _ = try MediaProbe.probe(TestMedia.path("speech.mp4"))
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.reason == "reading the package's media took longer than the 0 s allowed for its size (MEDIALINT_MEDIA_TIME_LIMIT)")
        // Unbound, the same file reads.
        #expect(try MediaProbe.probe(TestMedia.path("speech.mp4")).streams.count == 2)
    }

    @Test func aLaterDeadlineLeavesTheFilesOwnLimit() throws {
        let roomy = ReadDeadline(allowing: 3600, for: "the package's media")
        let info = try roomy.bind { () throws(MediaError) in try MediaProbe.probe(TestMedia.path("speech.mp4")) }
        #expect(info.streams.count == 2)
        #expect(ReadDeadline.describe(seconds: 1.0294) == "1.029" && ReadDeadline.describe(seconds: 12.4) == "12" && ReadDeadline.describe(seconds: 2) == "2")
    }
}
