/// A platform-neutral recording of a layout: what a test took from a real collection-view layout
/// (UIKitRecording.swift, AppKitRecording.swift), built by hand, or read from wfl's json.
/// Comparison with a spec: LayoutComparison.swift.

import WFL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An affine transform as `CGAffineTransform` holds it: a point (x, y) relative to the element's
/// centre is shown at (a x + c y + tx, b x + d y + ty) relative to that centre.
public struct LayoutTransform: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform of a wfl element: scaled by `zoom` and turned by `rotate` degrees (clockwise
    /// on screen) about the centre, then moved by (`translateX`, `translateY`).
    public init(zoom: Double = 1, rotate: Double = 0, translateX: Double = 0, translateY: Double = 0) {
        let t = rotate * Double.pi / 180
        // Whole quarter turns exactly, so that `rotate: 90` gives a = 0 and not 6e-17.
        let (cosT, sinT): (Double, Double)
        switch rotate.truncatingRemainder(dividingBy: 360) {
        case 0: (cosT, sinT) = (1, 0)
        case 90, -270: (cosT, sinT) = (0, 1)
        case 180, -180: (cosT, sinT) = (-1, 0)
        case 270, -90: (cosT, sinT) = (0, -1)
        default: (cosT, sinT) = (cos(t), sin(t))
        }
        self.init(a: zoom * cosT, b: zoom * sinT, c: -zoom * sinT, d: zoom * cosT, tx: translateX, ty: translateY)
    }

    /// No scale, turn or move.
    public static let identity = LayoutTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// The zoom of the transform as wfl states it: the length of its first column.
    public var zoom: Double { (a * a + b * b).squareRoot() }

    /// The turn in degrees, in (-180, 180] (0 when the zoom is 0).
    public var rotate: Double {
        guard a != 0 || b != 0 else { return 0 }
        let r = atan2(b, a) * 180 / Double.pi
        return r == -180 ? 180 : r
    }

    /// True when the transform is a zoom, a turn and a move, what wfl describes (`d` equals `a`
    /// and `c` equals `-b`, within `tolerance`); false for a skew, a mirror or unequal scales.
    public func isZoomTurnAndMove(tolerance: Double) -> Bool {
        abs(d - a) <= tolerance && abs(c + b) <= tolerance
    }
}

/// One element of a recording: the attributes a layout gives it.
public struct RecordedElement: Equatable, Sendable {
    /// `cell`, `header`, `footer`, `background`, or an attached view's kind (as wfl names them;
    /// UIKit's header and footer kinds are read as `header` and `footer`).
    public var kind: String
    public var section: Int
    /// nil for a header, footer or background.
    public var item: Int?
    /// The centre and the untransformed size: UIKit's `center` and `bounds.size` (a transformed
    /// element's `frame` is the box around it, not what wfl states).
    public var centerX: Double, centerY: Double
    public var width: Double, height: Double
    public var zIndex: Int
    public var alpha: Double
    public var transform: LayoutTransform

    public init(kind: String = "cell", section: Int, item: Int?, centerX: Double, centerY: Double, width: Double, height: Double,
                zIndex: Int = 0, alpha: Double = 1, transform: LayoutTransform = .identity) {
        self.kind = TableReader.normalKind(kind)
        self.section = section
        self.item = item
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.zIndex = zIndex
        self.alpha = alpha
        self.transform = transform
    }

    /// An element given by its untransformed frame (its centre is the frame's).
    public init(kind: String = "cell", section: Int, item: Int?, frame: Frame, zIndex: Int = 0, alpha: Double = 1,
                transform: LayoutTransform = .identity) {
        self.init(kind: kind, section: section, item: item, centerX: frame.x + frame.width / 2, centerY: frame.y + frame.height / 2,
                  width: frame.width, height: frame.height, zIndex: zIndex, alpha: alpha, transform: transform)
    }

    /// The untransformed frame: the size about the centre.
    public var frame: Frame {
        Frame(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }
}

/// A layout's attributes and content size as a test recorded them.
public struct LayoutRecording: Equatable, Sendable {
    /// The name written in its json (and shown when no spec layout has it).
    public var name: String
    public var contentWidth: Double, contentHeight: Double
    /// In any order: elements are matched by kind, section and item.
    public var elements: [RecordedElement]

    public init(name: String = "recording", contentWidth: Double, contentHeight: Double, elements: [RecordedElement]) {
        self.name = name
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
        self.elements = elements
    }

    /// A recording of an evaluated table at `offset`: what a layout that follows the spec
    /// exactly would give.
    public init(_ table: AttributeTable, at offset: Offset = .zero) {
        self.init(ReadLayout(table.at(offset)))
    }

    init(_ layout: ReadLayout) {
        name = layout.name
        contentWidth = layout.contentSize?[0] ?? 0
        contentHeight = layout.contentSize?[1] ?? 0
        elements = layout.elements.map { e in
            RecordedElement(kind: e.kind, section: e.section, item: e.item, frame: e.frame, zIndex: e.zIndex ?? 0, alpha: e.alpha,
                            transform: LayoutTransform(zoom: e.zoom, rotate: e.rotate, translateX: e.translateX, translateY: e.translateY))
        }
    }

    /// Reads a recording from wfl's json (the shape `wfl run --format json` writes, and `json`
    /// here): the layout named `layout`, or the only one. An element without `zIndex` has 0.
    public init(json: String, layout: String? = nil) throws(RecordingError) {
        let layouts: [ReadLayout]
        switch TableReader.read(Array(json.utf8)) {
        case .failure(let e): throw RecordingError(message: e.message, line: e.line, column: e.column)
        case .success(let l): layouts = l
        }
        if let e = TableDiff.duplicate(in: layouts) { throw RecordingError(message: e.message, line: e.line, column: e.column) }
        let names = layouts.map { "'\($0.name)'" }.joined(separator: ", ")
        if let layout {
            guard let l = layouts.first(where: { $0.name == layout }) else {
                throw RecordingError(message: "the json has no layout '\(layout)'; it has \(names.isEmpty ? "none" : names)", line: 1, column: 1)
            }
            self.init(l)
        } else {
            guard layouts.count == 1 else {
                throw RecordingError(message: "the json has \(layouts.count) layouts (\(names)): name the one to read with 'layout:'",
                                     line: 1, column: 1)
            }
            self.init(layouts[0])
        }
    }

    /// The recording as wfl's json, which `wfl diff` compares with a spec or a table and
    /// `init(json:)` reads back: the untransformed frames, `alpha` and the transform's `zoom`,
    /// `rotate` and `translate` only where they are not the identity's. (A transform that is not a
    /// zoom, turn and move is written as its zoom, turn and move.)
    public var json: String {
        let f = NumberFormat.format
        var out = "{\n  \"layouts\": [\n    {\n      \"name\": \(JSONFormat.quote(name)),\n"
        out += "      \"contentSize\": [\(f(contentWidth)), \(f(contentHeight))],\n      \"elements\": ["
        for (k, e) in elements.enumerated() {
            let r = e.frame
            out += k == 0 ? "\n" : ",\n"
            out += "        {\"kind\": \(JSONFormat.quote(e.kind)), \"section\": \(e.section), \"item\": \(e.item.map(String.init) ?? "null"), "
            out += "\"frame\": [\(f(r.x)), \(f(r.y)), \(f(r.width)), \(f(r.height))], \"zIndex\": \(e.zIndex)"
            if e.alpha != 1 { out += ", \"alpha\": \(f(e.alpha))" }
            let t = e.transform
            if t.zoom != 1 { out += ", \"zoom\": \(f(t.zoom))" }
            if t.tx != 0 || t.ty != 0 { out += ", \"translate\": [\(f(t.tx)), \(f(t.ty))]" }
            if t.rotate != 0 { out += ", \"rotate\": \(f(t.rotate))" }
            out += "}"
        }
        out += elements.isEmpty ? "]\n    }\n  ]\n}\n" : "\n      ]\n    }\n  ]\n}\n"
        return out
    }

    /// As `TableDiff` compares it.
    var readLayout: ReadLayout {
        ReadLayout(name: name, contentSize: [contentWidth, contentHeight], elements: elements.map { e in
            var r = ReadElement(kind: e.kind, section: e.section, item: e.item, frame: e.frame, zIndex: e.zIndex, line: 0,
                                alpha: e.alpha, zoom: e.transform.zoom)
            r.translateX = e.transform.tx
            r.translateY = e.transform.ty
            r.rotate = e.transform.rotate
            return r
        })
    }
}

/// Why a recording could not be read from json: the message, and where (line and column from 1).
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int

    public var description: String { "\(line):\(column): \(message)" }
}
