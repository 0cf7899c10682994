/// A recording compared with a spec, element by element, with the differences as `wfl diff`
/// prints them (one renderer: `TableDifference.report` in the core).

import Foundation
import WFL

/// What a recording is compared with: a `.wfl` file, `.wfl` text, an evaluated `Spec`, or a
/// fixture type that `wfl run --format swift` generated.
public struct LayoutSpec: Sendable {
    /// The name the differences give the spec (its file name, or the fixture's type).
    public let name: String
    /// The layouts to compare with, as `wfl diff` reads a table; empty with `problem`.
    let layouts: [ReadLayout]
    /// Why there is nothing to compare with (an unreadable file, a spec with errors), or nil.
    let problem: String?
    /// The layout asked for by name, or nil.
    let layoutName: String?

    init(name: String, layouts: [ReadLayout], problem: String? = nil, layout: String?) {
        self.name = name
        self.layouts = layouts
        self.problem = problem
        layoutName = layout
    }

    /// An evaluated spec's layout `layout` (or the one the recording names, or its only one) at
    /// scroll offset `offset`, before its batch update or, with `afterUpdate`, after it.
    public init(_ spec: Spec, layout: String? = nil, offset: Offset = .zero, afterUpdate: Bool = false) {
        guard !spec.hasErrors else {
            self.init(name: spec.source.name, layouts: [], problem: "the spec has errors:\n" + spec.diagnosticText, layout: layout)
            return
        }
        var layouts: [ReadLayout] = []
        var failures: [Diagnostic] = []
        for table in afterUpdate ? spec.layoutsAfterUpdate : spec.layouts {
            let shown = table.at(offset)
            // An attribute rule that fails at this offset, as `wfl run --offset` reports it.
            if let failure = shown.rules.attributeFailure { failures.append(failure) }
            layouts.append(ReadLayout(shown))
        }
        let problem = failures.isEmpty ? nil : "the spec has errors at this offset:\n" + DiagnosticRenderer().render(failures, in: spec.source)
        self.init(name: spec.source.name, layouts: layouts, problem: problem, layout: layout)
    }

    /// The `.wfl` text `source`; `name` is the file name its diagnostics and differences show.
    public static func source(_ source: String, name: String = "spec.wfl", layout: String? = nil, offset: Offset = .zero,
                              afterUpdate: Bool = false) -> LayoutSpec {
        LayoutSpec(Spec(source: source, name: name), layout: layout, offset: offset, afterUpdate: afterUpdate)
    }

    /// The `.wfl` file at `path` (relative paths from the current directory; in a test,
    /// `URL(fileURLWithPath: #filePath)` finds files beside the test file).
    public static func file(_ path: String, layout: String? = nil, offset: Offset = .zero, afterUpdate: Bool = false) -> LayoutSpec {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            return LayoutSpec(name: name, layouts: [], problem: "cannot read the spec '\(path)'", layout: layout)
        }
        return LayoutSpec(Spec(file: SourceFile(name: name, bytes: [UInt8](data))), layout: layout, offset: offset, afterUpdate: afterUpdate)
    }

    /// The table of a fixture type that `wfl run --format swift` generated (declare its
    /// conformance: `extension FeedLayout: LayoutFixture {}`): frames, z-indices, alpha and zoom,
    /// and where the fixture has `transforms` each element's translate and rotate read from its
    /// `CGAffineTransform` (tx, ty; the turn of a, b).
    public static func fixture<F: LayoutFixture>(_ fixture: F.Type) -> LayoutSpec {
        let name = String(describing: fixture)
        let rows = F.rows, frames = F.frames, looks = F.looks, attached = F.attachedKinds, transforms = F.transforms
        let basic = ["cell", "header", "footer", "background"]
        var elements: [ReadElement] = []
        for k in 0 ..< min(rows.count / 4, frames.count / 4) {
            let code = rows[4 * k]
            let kind = code >= 4 && code - 4 < attached.count ? attached[code - 4] : code >= 0 && code < 4 ? basic[code] : "kind \(code)"
            var e = ReadElement(kind: kind, section: rows[4 * k + 1], item: rows[4 * k + 2] < 0 ? nil : rows[4 * k + 2],
                                frame: Frame(x: frames[4 * k], y: frames[4 * k + 1], width: frames[4 * k + 2], height: frames[4 * k + 3]),
                                zIndex: rows[4 * k + 3], line: 0)
            if 2 * k + 1 < looks.count {
                e.alpha = looks[2 * k]
                e.zoom = looks[2 * k + 1]
            }
            if 6 * k + 5 < transforms.count {
                let t = LayoutTransform(a: transforms[6 * k], b: transforms[6 * k + 1], c: transforms[6 * k + 2], d: transforms[6 * k + 3],
                                        tx: transforms[6 * k + 4], ty: transforms[6 * k + 5])
                e.translateX = t.tx
                e.translateY = t.ty
                e.rotate = t.rotate
                // The zoom is `looks`' (the transform's own when the fixture has no looks).
                if looks.isEmpty { e.zoom = t.zoom }
            }
            elements.append(e)
        }
        let size = F.contentSize
        return LayoutSpec(name: name, layouts: [ReadLayout(name: name, contentSize: [Double(size.width), Double(size.height)], elements: elements)],
                          layout: nil)
    }
}

/// What a fixture type generated by `wfl run --format swift` declares, for `LayoutSpec.fixture`.
/// The generated enums have these members; a test declares the conformance.
public protocol LayoutFixture {
    static var contentSize: CGSize { get }
    /// Four whole numbers an element: kind (0 cell, 1 header, 2 footer, 3 background, 4 and up
    /// `attachedKinds`), section, item (-1 for none), zIndex.
    static var rows: [Int] { get }
    /// Four numbers an element: x, y, width, height.
    static var frames: [Double] { get }
    /// Alpha and zoom, two numbers an element; empty when every one is 1.
    static var looks: [Double] { get }
    /// The kinds of the attached views.
    static var attachedKinds: [String] { get }
    /// Six numbers an element, `CGAffineTransform`'s a, b, c, d, tx, ty as
    /// `UICollectionViewLayoutAttributes.transform` holds it; empty when no element uses a
    /// translate or rotate (the fixture then declares none).
    static var transforms: [Double] { get }
}

extension LayoutFixture {
    /// A fixture without attached views declares none.
    public static var attachedKinds: [String] { [] }
    /// A fixture whose layout uses no translate or rotate declares none.
    public static var transforms: [Double] { [] }
}

/// The outcome of comparing a recording with a spec.
public struct LayoutComparison: Equatable, Sendable {
    /// The default tolerance, as `wfl diff`'s (0.001).
    public static let defaultTolerance = TableDiff.defaultTolerance

    /// The differences, one line each as `wfl diff` prints them (all of them, not only the
    /// first 20), or the reason there was nothing to compare.
    public let lines: [String]
    /// The text a failed assertion shows: `wfl diff`'s report (the first 20 differences, then
    /// their count), or the reason there was nothing to compare. Empty when they match.
    public let message: String

    /// True when the recording matches the spec within the tolerance.
    public var matches: Bool { message.isEmpty }
}

/// Compares `recording` with `spec` as `wfl diff SPEC RECORDING --tolerance T` would: elements
/// matched by kind, section and item; frames, z-index, alpha, zoom, translate, rotate and the
/// content size equal within `tolerance`. The spec's layout is the one asked for by name, else
/// the one with the recording's name, else the spec's only layout.
public func compare(_ recording: LayoutRecording, _ spec: LayoutSpec, tolerance: Double = LayoutComparison.defaultTolerance) -> LayoutComparison {
    if let problem = spec.problem { return LayoutComparison(lines: [problem], message: problem + (problem.hasSuffix("\n") ? "" : "\n")) }
    let chosen: ReadLayout
    if let wanted = spec.layoutName ?? (spec.layouts.count == 1 ? nil : recording.name) {
        guard let l = spec.layouts.first(where: { $0.name == wanted }) else {
            let names = spec.layouts.map { "'\($0.name)'" }.joined(separator: ", ")
            let text = "\(spec.name) has no layout '\(wanted)'; its layouts are \(names): name one with 'layout:'"
            return LayoutComparison(lines: [text], message: text + "\n")
        }
        chosen = l
    } else {
        guard let only = spec.layouts.first else {
            let text = "\(spec.name) has no layouts"
            return LayoutComparison(lines: [text], message: text + "\n")
        }
        chosen = only
    }
    let b = "the recording"
    var lines: [String] = []
    // A skew, a mirror or unequal scales: wfl states none, so it can match nothing.
    for e in recording.elements where !e.transform.isZoomTurnAndMove(tolerance: tolerance) {
        let t = e.transform, f = NumberFormat.format
        lines.append("\(chosen.name): \(TableDiff.elementName(kind: e.kind, section: e.section, item: e.item)) in \(b) has the transform "
                     + "[\(f(t.a)), \(f(t.b)), \(f(t.c)), \(f(t.d)), \(f(t.tx)), \(f(t.ty))], which is not a zoom, turn and move")
    }
    let differences = TableDiff.compare([chosen], [recording.readLayout], tolerance: tolerance)
    lines += differences.map { $0.describe(a: spec.name, b: b) }
    var message = lines.prefix(lines.count - differences.count).map { $0 + "\n" }.joined()
    message += TableDifference.report(differences, a: spec.name, b: b)
    return LayoutComparison(lines: lines, message: message)
}
