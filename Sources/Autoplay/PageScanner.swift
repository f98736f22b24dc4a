import Basics

/// An `<audio>` or `<video>` element that autoplays, as the page declares it.
public struct AutoplayElement: Sendable, Equatable {
    public enum Kind: String, Sendable { case audio, video }

    public var kind: Kind
    /// The page line of its start tag.
    public var line: Int
    /// The `autoplay` attribute's value as written ("" when valueless: any value autoplays).
    public var autoplayValue: String
    public var muted: Bool
    public var loop: Bool
    public var controls: Bool
    /// Its sources in order: the `src` attribute, else each `<source src>` child.
    public var sources: [String]
    /// True when the sources come from the element's own `src` (`<source>` children are then ignored).
    public var hasSrcAttribute = false
}

/// Something on a page that may play sound by itself but cannot be judged from the page alone.
public struct AutoplayReview: Sendable, Equatable {
    public var line: Int
    /// `iframe`, `script`, `bgsound`.
    public var kind: String
    public var detail: String
}

/// Finds autoplaying media on a page: what a browser would build from the markup (comments, raw text and
/// `<template>` contents create no elements).
public enum PageScanner {
    public static func scan(_ html: String) -> (elements: [AutoplayElement], reviews: [AutoplayReview]) {
        var elements: [AutoplayElement] = []
        var reviews: [AutoplayReview] = []
        var templateDepth = 0
        var open: AutoplayElement?  // an autoplaying element collecting its <source> children
        var lastScriptLine = 0
        for token in HTMLTokenizer(html).tokens() {
            switch token {
            case .start(let tag):
                if tag.name == "template" { templateDepth += 1; continue }
                guard templateDepth == 0 else { continue }
                switch tag.name {
                case "audio", "video":
                    if let element = open { elements.append(element) }
                    open = nil
                    guard tag.has("autoplay") else { continue }
                    var element = AutoplayElement(
                        kind: tag.name == "audio" ? .audio : .video, line: tag.line,
                        autoplayValue: tag.attribute("autoplay") ?? "", muted: tag.has("muted"),
                        loop: tag.has("loop"), controls: tag.has("controls"), sources: [])
                    if let src = tag.attribute("src"), !src.trimmingSpaces().isEmpty {
                        element.sources = [src.trimmingSpaces()]
                        element.hasSrcAttribute = true
                    }
                    open = element
                case "source":
                    // <source> counts only inside a media element without a src attribute.
                    // Appended in place: a copy of the element per <source> made many of them quadratic.
                    if open?.hasSrcAttribute == false, let src = tag.attribute("src"), !src.trimmingSpaces().isEmpty {
                        open?.sources.append(src.trimmingSpaces())
                    }
                case "iframe":
                    if let src = tag.attribute("src"), Self.queryTurnsOnAutoplay(src) {
                        reviews.append(AutoplayReview(line: tag.line, kind: "iframe", detail: src))
                    }
                case "bgsound":
                    reviews.append(AutoplayReview(line: tag.line, kind: "bgsound", detail: tag.attribute("src") ?? ""))
                case "script":
                    lastScriptLine = tag.line
                default:
                    break
                }
            case .end(let name, _):
                if name == "template" { templateDepth = max(0, templateDepth - 1); continue }
                if templateDepth == 0, name == "audio" || name == "video", let element = open {
                    elements.append(element)
                    open = nil
                }
            case .text(let text):
                // Inline script that starts playback: `.play()` (raw text tokens follow their <script> tag).
                if templateDepth == 0, lastScriptLine > 0, text.contains(".play(") {
                    reviews.append(AutoplayReview(line: lastScriptLine, kind: "script", detail: "calls .play()"))
                }
                lastScriptLine = 0
            }
        }
        if let element = open { elements.append(element) }
        return (elements, reviews)
    }

    /// `autoplay=1` (or `true`) in a URL's query.
    static func queryTurnsOnAutoplay(_ url: String) -> Bool {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { parameter in
            let parts = parameter.split(separator: "=", maxSplits: 1)
            return parts.first?.lowercased() == "autoplay" && ["1", "true"].contains(parts.dropFirst().first?.lowercased() ?? "")
        }
    }
}
