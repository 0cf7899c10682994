/// The `swift` format: a Swift source file that declares each layout's table as constants, ready
/// to paste into a unit test of a real UICollectionViewLayout.
///
/// ```swift
/// enum FeedLayout {
///     static let containerSize = CGSize(width: 375, height: 812)
///     static let contentSize = CGSize(width: 375, height: 864)
///     static let rows: [Int] = [
///         1, 0, -1, 10,
///         0, 0, 0, 0,
///     ]
///     static let frames: [Double] = [
///         0, 0, 375, 44,
///         10, 54, 172.5, 100,
///     ]
///     static let looks: [Double] = []
///     static var elements: [(kind: String?, section: Int, item: Int?, frame: CGRect, zIndex: Int, alpha: CGFloat, zoom: CGFloat)] { ... }
/// ```
///
/// The values stand in two arrays of plain numbers with their element type written out, which
/// the type checker reads in time linear in their length (a literal of tuples of `CGRect(...)`
/// calls took it 17 s and 1.9 GB for 1,000 elements); `elements` builds the tuples a test reads.
/// `kind` is what `UICollectionViewLayoutAttributes.representedElementKind` holds: nil for a cell,
/// UIKit's string values of `elementKindSectionHeader` and `elementKindSectionFooter` otherwise.
/// The file needs only Foundation (which has CGRect on Linux too).
public enum SwiftFormat {
    /// `UICollectionView.elementKindSectionHeader`, spelled as its string value.
    package static let headerKind = "UICollectionElementKindSectionHeader"
    /// `UICollectionView.elementKindSectionFooter`, spelled as its string value.
    package static let footerKind = "UICollectionElementKindSectionFooter"
    /// The decoration kind a layout registers for section backgrounds.
    package static let backgroundKind = "background"

    /// The Swift file for `tables`, evaluated from the file `sourceName`; `command` is how to
    /// make it again, for the header comment. `name` names the type of a single table (`--name`);
    /// otherwise each type is named after its layout, with `suffix` (`AfterUpdate` for the tables
    /// after the batch updates, so that both files compile in one target).
    public static func format(_ tables: [AttributeTable], sourceName: String, command: String? = nil, name given: String? = nil,
                              suffix: String = "") -> String {
        let f = NumberFormat.format
        var out = header(sourceName: sourceName, command: command)
        var used = Set<String>()
        for t in tables {
            let name = uniqueName(tables.count == 1 ? given : nil, t.name, suffix: suffix, &used)
            out += "\n/// The layout \(quoteForComment(t.name)): \(t.style.rawValue), \(t.direction.rawValue), "
            out += "container \(f(t.containerWidth)) x \(f(t.containerHeight)).\n"
            out += "enum \(name) {\n"
            out += "    static let containerSize = CGSize(width: \(f(t.containerWidth)), height: \(f(t.containerHeight)))\n"
            out += "    static let contentSize = CGSize(width: \(f(t.contentWidth)), height: \(f(t.contentHeight)))\n"
            out += "    /// Section by section (the header, the cells by item, the footer), four numbers an element:\n"
            let decorated = t.elements.contains { $0.kind == .background } || !t.attachedNames.isEmpty
            out += decorated
                ? "    /// kind (0 cell, 1 header, 2 footer, 3 background, 4 and up the attached views of `attachedKinds`), section,\n    /// item (-1 for a header, footer or background), zIndex.\n"
                : "    /// kind (0 cell, 1 header, 2 footer), section, item (-1 for a header or footer), zIndex.\n"
            out += "    static let rows: [Int] = [\n"
            for e in t.elements {
                let kind = e.attachedIndex.map { 4 + $0 } ?? (e.kind == .cell ? 0 : e.kind == .header ? 1 : e.kind == .footer ? 2 : 3)
                out += "        \(kind), \(e.section), \(e.item ?? -1), \(e.zIndex),\n"
            }
            out += "    ]\n"
            out += "    /// The frames in the same order: x, y, width, height.\n"
            out += "    static let frames: [Double] = [\n"
            for e in t.elements {
                out += "        \(f(e.frame.x)), \(f(e.frame.y)), \(f(e.frame.width)), \(f(e.frame.height)),\n"
            }
            out += "    ]\n"
            // alpha and zoom (docs/language.md, "Attributes"): two numbers an element, or none when
            // every one is 1.
            out += "    /// Alpha and zoom in the same order, two numbers an element; empty when every one is 1.\n"
            if t.hasAlphaOrZoom {
                out += "    static let looks: [Double] = [\n"
                for j in t.elements.indices { out += "        \(f(t.alpha(of: j))), \(f(t.zoom(of: j))),\n" }
                out += "    ]\n"
            } else {
                out += "    static let looks: [Double] = []\n"
            }
            // translate and rotate (docs/usage.md, "Layout fixtures"): only in a layout that uses one.
            if t.hasTransform {
                out += "    /// The transforms in the same order, six numbers an element: `CGAffineTransform`'s a, b, c, d, tx,\n"
                out += "    /// ty, as UICollectionViewLayoutAttributes.transform holds it (zoom and rotate about the centre,\n"
                out += "    /// then the translate).\n"
                out += "    static let transforms: [Double] = [\n"
                for j in t.elements.indices {
                    out += "        " + transformNumbers(t.transform(of: j), frame: t.elements[j].frame, zoom: t.zoom(of: j)).map(f)
                        .joined(separator: ", ") + ",\n"
                }
                out += "    ]\n"
            }
            if decorated {
                out += "    /// The kinds of the attached views, as the layout registers them.\n"
                out += "    static let attachedKinds: [String] = [" + t.attachedNames.map { SwiftFormat.literal($0) }.joined(separator: ", ") + "]\n"
            }
            out += "    /// The elements as a test reads them. `kind` is nil for a cell, as `representedElementKind`;\n"
            out += "    /// `item` is nil for a header or footer.\n"
            out += "    static var elements: [(kind: String?, section: Int, item: Int?, frame: CGRect, zIndex: Int, alpha: CGFloat, zoom: CGFloat)] {\n"
            out += "        (0 ..< rows.count / 4).map { k in\n"
            out += decorated
                ? "            let kind: String? = rows[4 * k] >= 4 ? attachedKinds[rows[4 * k] - 4] : [nil, \"\(headerKind)\", \"\(footerKind)\", \"\(backgroundKind)\"][rows[4 * k]]\n"
                : "            let kind: String? = rows[4 * k] == 1 ? \"\(headerKind)\" : rows[4 * k] == 2 ? \"\(footerKind)\" : nil\n"
            out += "            let item: Int? = rows[4 * k + 2] < 0 ? nil : rows[4 * k + 2]\n"
            out += "            let frame = CGRect(x: frames[4 * k], y: frames[4 * k + 1], width: frames[4 * k + 2], height: frames[4 * k + 3])\n"
            out += "            let alpha: CGFloat = looks.isEmpty ? 1 : looks[2 * k], zoom: CGFloat = looks.isEmpty ? 1 : looks[2 * k + 1]\n"
            out += "            return (kind: kind, section: rows[4 * k + 1], item: item, frame: frame, zIndex: rows[4 * k + 3], alpha: alpha, zoom: zoom)\n"
            out += "        }\n"
            out += "    }\n}\n"
        }
        return out
    }

    /// The comment that opens a generated file, and its import.
    static func header(sourceName: String, command: String?) -> String {
        var out = "// Generated by wfl from '\(oneLine(sourceName))'. Do not edit: change the spec and generate it again"
        if let command { out += "\n// with '\(oneLine(command))'" }
        return out + ".\n\nimport Foundation\n"
    }

    /// `given`, or the type name of `layoutName` with `suffix`, made unique among `used` (`2`, `3`
    /// after a name already taken), and taken.
    static func uniqueName(_ given: String?, _ layoutName: String, suffix: String, _ used: inout Set<String>) -> String {
        var name = given ?? typeName(for: layoutName) + suffix
        if used.contains(name) {
            var k = 2
            while used.contains("\(name)\(k)") { k += 1 }
            name = "\(name)\(k)"
        }
        used.insert(name)
        return name
    }

    /// True when `name` can be given to `--name`: an identifier of ASCII letters, digits and `_`
    /// that does not start with a digit and is not one of Swift's keywords.
    package static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !(first >= "0" && first <= "9") else { return false }
        let ok = name.unicodeScalars.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" }
        return ok && name != "_" && !keywords.contains(name)
    }

    /// Words a type may not be named without backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "Type", "Protocol",
    ]

    /// A layout's name made a Swift type name: words of letters and digits, each capitalised,
    /// joined, and `Layout` after them (`feed` gives `FeedLayout`, `"my feed"` `MyFeedLayout`,
    /// `store-layout` `StoreLayout`); `_` before a leading digit.
    package static func typeName(for layoutName: String) -> String {
        var words: [String] = []
        var word = ""
        for u in layoutName.unicodeScalars {
            let isWordChar = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9")
            if isWordChar {
                word.unicodeScalars.append(u)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if !name.lowercased().hasSuffix("layout") { name += "Layout" }
        if let c = name.unicodeScalars.first, c >= "0" && c <= "9" { name = "_" + name }
        return name
    }

    /// A Swift string literal of `s`.
    static func literal(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += "\\u{" + String(u.value, radix: 16) + "}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// A name for a `//` comment: quoted, on one line.
    static func quoteForComment(_ s: String) -> String { "'" + oneLine(s) + "'" }

    static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0.value < 0x20 ? " " : Character($0) })
    }
}
