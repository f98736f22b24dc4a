import Basics
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads TTML documents (IMSC 1.1 Text, EBU-TT-D, SMPTE-TT, DFXP) through an XML parser into cues: each `p` becomes
/// a cue for each stretch of time its content stays the same (spans with their own timing split it), its text in
/// WebVTT syntax (`<i>`, `<b>`, `<u>`, colour classes, `<v>` for `ttm:agent` speakers, `<lang>`), its region mapped to
/// WebVTT line and position where the region is given in percentages (or pixels or cells the document sizes).
///
/// Timing follows TTML2 for the media time base: clock and offset times (`h m s ms f t`), `ttp:frameRate`,
/// `ttp:frameRateMultiplier`, `ttp:subFrameRate`, `ttp:tickRate`, `begin`/`end`/`dur`, `par` and `seq` time containers.
/// Lenient (the default) reads what players read; strict also reports what IMSC 1.1's Text Profile forbids
/// (rule `ttml.profile`). A document that is not well-formed XML, or whose root is not `tt`, is refused.
public struct TTMLReader: Sendable {
    public var mode: WebVTTReader.Mode

    public init(mode: WebVTTReader.Mode = .lenient) {
        self.mode = mode
    }

    public func read(_ bytes: [UInt8]) throws(CaptionError) -> CaptionDocument {
        let result: Result<CaptionDocument, CaptionError> = bytes.withUnsafeBytes { buffer in
            do throws(CaptionError) { return .success(try read(buffer: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads a TTML document in `buffer`; with `mapping`, the pages read are given back as the parser goes.
    func read(buffer: UnsafeRawBufferPointer, mapping: MappedFile? = nil) throws(CaptionError) -> CaptionDocument {
        let reading = TTMLParsing(strict: mode == .strict)
        let declared = reading.checkEncoding(buffer)
        reading.noteExternalEntities(buffer)
        // Bytes that are not UTF-8 in a UTF-8 document are a fatal error in XML (and Foundation's parser traps on
        // some of them in element names): refused before parsing, with their line. Documents in other encodings are
        // converted to UTF-8 by the parser itself.
        if declared == "utf-8", let offset = TextDecoding.firstInvalidUTF8(buffer.assumingMemoryBound(to: UInt8.self)) {
            let line = buffer.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw CaptionError(rule: "ttml.xml", message: "not well-formed XML: bytes that are not UTF-8 at line \(line) (byte \(offset))")
        }
        let markup = TTMLMarkupScan.scan(buffer)
        if let line = markup.crowdedTagLine {
            throw CaptionError(
                rule: "ttml.xml",
                message: "an element with more than \(TTMLMarkupScan.limit) attributes at line \(line): not read (no TTML element needs so many)")
        }
        reading.cues.reserveCapacity(markup.paragraphs)
        // A stream, not one chunk: libxml2 refuses a single chunk over 10 MB, and memory holds a chunk, not the file.
        let parser = XMLParser(stream: BufferInputStream(buffer, mapping: mapping))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reading
        let parsed = parser.parse()
        if let failure = reading.failure { throw failure }
        guard parsed else {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw CaptionError(
                rule: "ttml.xml",
                message: "not well-formed XML (XML parser error \(code)) at line \(parser.lineNumber), column \(parser.columnNumber)")
        }
        guard reading.sawRoot else { throw CaptionError(rule: "ttml.root", message: "not a TTML document: no `tt` element in the TTML namespace") }
        var document = reading.finish()
        // The encoding the document was in (the parser converts to UTF-8 as it reads).
        document.encoding = declared
        return document
    }
}

/// The XML parser's input: a buffer read front to back in chunks, the pages of a mapped file given back as they are
/// passed.
private final class BufferInputStream: InputStream {
    private let buffer: UnsafeRawBufferPointer
    private let mapping: MappedFile?
    private var offset = 0
    private var released = 0

    init(_ buffer: UnsafeRawBufferPointer, mapping: MappedFile?) {
        self.buffer = buffer
        self.mapping = mapping
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { offset < buffer.count }
    override var streamStatus: Stream.Status { offset < buffer.count ? .open : .atEnd }

    override func read(_ target: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        let count = min(length, buffer.count - offset)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        UnsafeMutableRawPointer(target).copyMemory(from: base + offset, byteCount: count)
        offset += count
        if let mapping, offset - released >= MappedFile.releaseStep {
            mapping.release(released..<offset)
            released = offset
        }
        return count
    }
}

/// TTML's namespaces (and those of the 2006 DFXP drafts real files still carry).
enum TTMLNamespace {
    static let tt = "http://www.w3.org/ns/ttml"
    static let styling = "http://www.w3.org/ns/ttml#styling"
    static let parameter = "http://www.w3.org/ns/ttml#parameter"
    static let metadata = "http://www.w3.org/ns/ttml#metadata"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let smpte = "http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt"
    static let textProfile = "http://www.w3.org/ns/ttml/profile/imsc1.1/text"
    /// IMSC's own parameters (`ittp:aspectRatio`, `ittp:progressivelyDecodable`, `ittp:activeArea`).
    static let imscParameter = "http://www.w3.org/ns/ttml/profile/imsc1#parameter"

    /// The TT namespace bases that are TTML: the recommendation's and the DFXP drafts'.
    static let bases = [tt, "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1"]

    enum Kind { case tt, styling, parameter, metadata, xml, smpte, audio, imscParameter, other }

    static func kind(of uri: String) -> Kind {
        if uri == xml { return .xml }
        if uri == smpte { return .smpte }
        if uri == imscParameter { return .imscParameter }
        for base in bases where uri.hasPrefix(base) {
            switch uri.dropFirst(base.count) {
            case "": return .tt
            case "#styling", "#style": return .styling
            case "#parameter": return .parameter
            case "#metadata": return .metadata
            case "#audio": return .audio
            default: return .other
            }
        }
        return .other
    }
}

/// A run of text's look in WebVTT terms; nil members are not specified (inherited or the default).
struct TTMLTextStyle: Equatable {
    var italic: Bool?
    var bold: Bool?
    var underline: Bool?
    var lineThrough: Bool?
    /// A WebVTT colour class (`yellow`, or `color-rrggbb` for colours without one).
    var color: String?
    var textAlign: String?

    /// `self` with what `other` specifies laid over it.
    func overlaid(with other: TTMLTextStyle) -> TTMLTextStyle {
        TTMLTextStyle(
            italic: other.italic ?? italic, bold: other.bold ?? bold, underline: other.underline ?? underline,
            lineThrough: other.lineThrough ?? lineThrough, color: other.color ?? color, textAlign: other.textAlign ?? textAlign)
    }
}

/// A region's place, in percentages of the root container.
struct TTMLRegionBox: Hashable {
    var x: Double, y: Double, width: Double, height: Double
    /// `before`, `center` or `after`.
    var displayAlign: String

    /// The usual bottom region: 10% in from each side, text after (read as WebVTT's default place when centred).
    static let bottom = TTMLRegionBox(x: 10, y: 10, width: 80, height: 80, displayAlign: "after")

    /// A band 10% in from the sides whose text sits 10% above the bottom: WebVTT's default place (the usual bottom
    /// region, or one just the height of its rows).
    var isBottomBand: Bool {
        x == 10 && width == 80 && displayAlign == "after" && abs(y + height - 90) < 0.001
    }

    /// A percentage to a thousandth (what the writer writes).
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    func overlaps(_ other: TTMLRegionBox) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}

/// TTML colour values (`#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)`, named colours) and their WebVTT classes.
enum TTMLColor {
    static let named: [String: UInt32] = [
        "transparent": 0x000000, "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "white": 0xFFFFFF,
        "maroon": 0x800000, "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "magenta": 0xFF00FF,
        "green": 0x008000, "lime": 0x00FF00, "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF,
        "teal": 0x008080, "aqua": 0x00FFFF, "cyan": 0x00FFFF,
    ]

    /// The colour as 0xRRGGBB (alpha ignored).
    static func rgb(_ value: String) -> UInt32? {
        let text = value.trimmingSpaces().lowercased()
        if let color = named[text] { return color }
        if text.hasPrefix("#"), text.count == 7 || text.count == 9, let number = UInt32(text.dropFirst().prefix(6), radix: 16) { return number }
        if text.hasPrefix("rgb(") || text.hasPrefix("rgba("), text.hasSuffix(")") {
            let inside = text.drop { $0 != "(" }.dropFirst().dropLast()
            let parts = inside.split(separator: ",").map { UInt32($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3 || parts.count == 4, parts.allSatisfy({ $0 != nil && $0! <= 255 }) else { return nil }
            return parts[0]! << 16 | parts[1]! << 8 | parts[2]!
        }
        return nil
    }

    static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// WebVTT's default colour class for the colour, else `color-rrggbb` (as SRT font colours are converted).
    static func className(_ rgb: UInt32) -> String {
        CaptionConverter.colorClassName(hex(rgb))?.name ?? "color-" + hex(rgb).dropFirst()
    }
}
