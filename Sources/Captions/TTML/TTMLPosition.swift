/// `tts:position` (TTML2 §10.2.35, as CSS's `background-position`): where a region of a given extent sits in the root
/// container. One to four components: edge keywords (`left`, `right`, `top`, `bottom`, `center`), each but `center`
/// optionally followed by an offset from that edge; or, with no edge keyword before it, an offset from the left or top.
/// A percentage places the point that far across the region at that far across the root (`25%` of a 60%-wide region:
/// its left edge at 25% × 40% = 10%); a length moves the region's edge by it.
struct TTMLPosition: Equatable {
    enum Edge { case left, right, top, bottom, center }

    enum Offset: Equatable {
        /// A percentage, of the room the region leaves (root less extent).
        case percent(Double)
        /// A length, in percent of the root's width or height.
        case length(Double)
    }

    var horizontal: (edge: Edge, offset: Offset)
    var vertical: (edge: Edge, offset: Offset)

    static func == (a: TTMLPosition, b: TTMLPosition) -> Bool {
        a.horizontal.edge == b.horizontal.edge && a.horizontal.offset == b.horizontal.offset && a.vertical.edge == b.vertical.edge
            && a.vertical.offset == b.vertical.offset
    }

    /// The position `value` gives, with `length` converting a length to percent of the root (`horizontal` or not);
    /// nil when it is not a position.
    init?(_ value: String, length: (Substring, Bool) -> Double?) {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard (1...4).contains(words.count) else { return nil }
        enum Token {
            case edge(Edge)
            case offset(Substring)
        }
        let tokens: [Token] = words.map { word in
            switch word {
            case "left": .edge(.left)
            case "right": .edge(.right)
            case "top": .edge(.top)
            case "bottom": .edge(.bottom)
            case "center": .edge(.center)
            default: .offset(word)
            }
        }
        func offset(_ text: Substring, horizontal: Bool) -> Offset? {
            if text.hasSuffix("%") { return Double(text.dropLast()).map(Offset.percent) }
            return length(text, horizontal).map(Offset.length)
        }
        // Groups of an edge keyword and the offset after it (an offset alone: from the left or top).
        var groups: [(edge: Edge?, offset: Substring?)] = []
        for token in tokens {
            switch token {
            case .edge(let edge): groups.append((edge, nil))
            case .offset(let text):
                if words.count > 2, let last = groups.last, last.offset == nil, let edge = last.edge, edge != .center {
                    groups[groups.count - 1].offset = text
                } else {
                    groups.append((nil, text))
                }
            }
        }
        if groups.count == 1 { groups.append((.center, nil)) }
        guard groups.count == 2 else { return nil }
        // Which group is horizontal: the first, unless it names a vertical edge or the second a horizontal one.
        var (first, second) = (groups[0], groups[1])
        if first.edge == .top || first.edge == .bottom || second.edge == .left || second.edge == .right { swap(&first, &second) }
        if words.count > 2, first.edge == nil || second.edge == nil { return nil }  // three or four: every offset has its edge
        guard first.edge != .top, first.edge != .bottom, second.edge != .left, second.edge != .right else { return nil }
        guard let h = offset(first.offset ?? "0%", horizontal: true), let v = offset(second.offset ?? "0%", horizontal: false) else { return nil }
        horizontal = (first.edge ?? .left, h)
        vertical = (second.edge ?? .top, v)
    }

    /// The region's origin (left, top) in percent of the root, for an extent of `width` × `height` percent.
    func origin(width: Double, height: Double) -> (Double, Double) {
        (Self.place(horizontal.edge, horizontal.offset, room: 100 - width), Self.place(vertical.edge, vertical.offset, room: 100 - height))
    }

    private static func place(_ edge: Edge, _ offset: Offset, room: Double) -> Double {
        switch (edge, offset) {
        case (.center, _): room / 2
        case (.left, .percent(let p)), (.top, .percent(let p)): p * room / 100
        case (.right, .percent(let p)), (.bottom, .percent(let p)): (100 - p) * room / 100
        case (.left, .length(let l)), (.top, .length(let l)): l
        case (.right, .length(let l)), (.bottom, .length(let l)): room - l
        }
    }
}
