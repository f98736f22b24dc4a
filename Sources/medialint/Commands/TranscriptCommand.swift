import ArgumentParser
import Captions
import Foundation
import Reports
import Transcripts

/// `medialint transcript CAPTIONS [-o OUT] [--format text|markdown|html|json]`: a transcript from captions.
struct TranscriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcript",
        abstract: "Make a transcript from captions (text, Markdown, accessible HTML or JSON).",
        discussion: """
            Markup is stripped and character references decoded; roll-up repeats (auto captions that repeat \
            the previous line in each cue) are dropped; lines are joined into paragraphs, a new one when the \
            speaker changes (<v Name>, 'NAME:', a dialogue dash) or after a pause of --pause seconds. Sound \
            descriptions ([music], (laughs), ♪) are kept unless --no-sounds. The HTML is a complete accessible \
            document (language, title, one heading, paragraphs; with --timestamps, links to MEDIA-URL#t=SECONDS).
            """
    )

    @Argument(help: ArgumentHelp("The caption file (or a media file with --track).", valueName: "captions"), completion: .file())
    var captions: String

    @Option(help: "Output format (default: from -o's extension — .md, .html, .json — else text).")
    var format: TranscriptRenderer.Format?

    @Flag(help: "Start each paragraph with its time.")
    var timestamps = false

    @Flag(help: "Leave out sound descriptions ([music], (laughs), ♪ …).")
    var noSounds = false

    @Option(help: ArgumentHelp("A pause this long starts a new paragraph.", valueName: "seconds"))
    var pause: Double = 2

    @Option(help: ArgumentHelp("The title (default: the file's name).", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("The language tag for HTML (default: the WebVTT header's Language, else en).", valueName: "tag"))
    var language: String?

    @Option(help: ArgumentHelp("What the HTML timestamp links point to (e.g. talk.mp4).", valueName: "url"))
    var mediaUrl: String = ""

    @OptionGroup var input: CaptionInputOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        try NumberRange.check(pause, "--pause (seconds)", 0...86_400, above: true)
    }

    func run() throws {
        try output.refuseUnwrittenFormat(chosen: format != nil, formats: ["json", "html", "markdown"], command: "transcript")
        try output.refuse(inputs: [captions])
        let chosen =
            format ?? output.output.flatMap { path -> TranscriptRenderer.Format? in
                switch (path as NSString).pathExtension.lowercased() {
                case "md", "markdown": .markdown
                case "html", "htm": .html
                case "json": .json
                default: nil
                }
            } ?? .text
        let document = try FailureDocument.guarding(captions, json: chosen == .json, to: output) { try input.read(captions) }
        defer { KeptUntilExit.keep(document) }
        Diagnostics.print(document.diagnostics, file: captions)
        let name = title ?? URL(fileURLWithPath: captions).deletingPathExtension().lastPathComponent
        let transcript = TranscriptBuilder(includeSounds: !noSounds, paragraphPause: pause).build(document, title: name, language: language)
        try output.emit(
            TranscriptRenderer.render(
                transcript, as: chosen, timestamps: timestamps, mediaURL: mediaUrl, producer: (ToolInfo.name, ToolInfo.version)))
    }
}

extension TranscriptRenderer.Format: ExpressibleByArgument {}
