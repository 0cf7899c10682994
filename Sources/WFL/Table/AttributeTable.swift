/// The result of a layout: one row per element (background, header, cell, footer) with its frame
/// and z-index, in table order: section by section, the background, the header, the cells by
/// index, the footer (the order `wfl run` prints).

/// What an element is.
public enum ElementKind: String, Sendable {
    case header, cell, footer
    /// A section's decoration view (`background`).
    case background
    /// A view attached to a cell (`attach NAME`); its name, the kind a table prints, is
    /// `AttributeTable.kindName(of:)`.
    case attached
}

/// A rectangle, origin top-left, y down, as UIKit.
public struct Frame: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// One row of the table.
///
/// Stored compactly (48 bytes: the frame's four doubles, then 32-bit section, item and z-index and
/// a byte for the kind), so that a 1,000,000-item table with its index stays under 64 bytes an
/// item; the public properties read and write the usual types. Sections and items fit in 32 bits:
/// a layout has at most 10,000,000 items (the language's limits).
public struct Element: Equatable, Sendable {
    public var frame: Frame
    @usableFromInline var storedSection: Int32
    /// The item index, or -1 for a header, footer or background.
    @usableFromInline var storedItem: Int32
    @usableFromInline var storedZIndex: Int32
    @usableFromInline var storedKind: UInt8

    @inlinable public var kind: ElementKind {
        get { storedKind == 0 ? .cell : storedKind == 1 ? .header : storedKind == 2 ? .footer : storedKind == 3 ? .background : .attached }
        set { storedKind = Element.code(newValue) }
    }
    /// For an attached view, the position of its name among the table's `attachedNames`.
    @inlinable public var attachedIndex: Int? { storedKind >= 4 ? Int(storedKind) - 4 : nil }
    /// The stored byte of a kind.
    @inlinable static func code(_ kind: ElementKind) -> UInt8 {
        switch kind {
        case .cell: return 0
        case .header: return 1
        case .footer: return 2
        case .background: return 3
        case .attached: return 4
        }
    }
    @inlinable public var section: Int {
        get { Int(storedSection) }
        set { storedSection = Int32(truncatingIfNeeded: newValue) }
    }
    /// The item index of a cell; nil for headers and footers.
    @inlinable public var item: Int? {
        get { storedItem < 0 ? nil : Int(storedItem) }
        set { storedItem = newValue.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
    }
    @inlinable public var zIndex: Int {
        get { Int(storedZIndex) }
        set { storedZIndex = Int32(truncatingIfNeeded: newValue) }
    }

    @inlinable public init(kind: ElementKind, section: Int, item: Int?, frame: Frame, zIndex: Int) {
        self.frame = frame
        storedSection = Int32(truncatingIfNeeded: section)
        storedItem = item.map { Int32(truncatingIfNeeded: $0) } ?? -1
        storedZIndex = Int32(truncatingIfNeeded: zIndex)
        storedKind = Element.code(kind)
    }

    /// An attached view of kind `k` (its name's position among the table's `attachedNames`).
    init(attached k: Int, section: Int, item: Int, frame: Frame, zIndex: Int) {
        self.frame = frame
        storedSection = Int32(truncatingIfNeeded: section)
        storedItem = Int32(truncatingIfNeeded: item)
        storedZIndex = Int32(truncatingIfNeeded: zIndex)
        storedKind = UInt8(4 + k)
    }

    /// A cell, without the optionals of the public initialiser (the engines' inner loops).
    @inline(__always) init(cell item: Int, section: Int, frame: Frame) {
        self.frame = frame
        storedSection = Int32(truncatingIfNeeded: section)
        storedItem = Int32(truncatingIfNeeded: item)
        storedZIndex = Int32(ZIndex.cell)
        storedKind = 0
    }
}

/// z-index of cells and of supplementary views (docs/layout.md, "Sections and content size").
package enum ZIndex {
    package static let cell = 0
    package static let supplementary = 10
    /// A section background, behind its cells (docs/layout.md, "Section backgrounds").
    package static let background = -1
}

/// A layout's attribute table.
///
/// Read-only outside the library: the elements, the per-section index and the rect index are
/// built together by the engines and cannot drift apart. Beside them, in two models, what
/// scrolling needs (`scroll`) and the per-cell rules (`rules`).
public struct AttributeTable: Equatable, Sendable {
    public internal(set) var name: String
    public internal(set) var style: LayoutStyle
    public internal(set) var direction: Direction
    package var containerWidth: Double
    package var containerHeight: Double
    package var contentWidth: Double
    package var contentHeight: Double
    /// Every element in table order: per section its background, its header, its cells by index,
    /// its footer.
    public internal(set) var elements: [Element]
    /// For each section, the index in `elements` of its first element, its header, first cell and
    /// footer (nil when absent), for the queries of `expect`.
    package var sectionStarts: [SectionIndex]
    /// The rect-query index over `elements` (RectIndex.swift), built with the table.
    package var index: RectIndex = RectIndex()
    /// What scrolling needs of the table, fixed when the engines build it (pinning, `zoomFirst`,
    /// `snap`, the shelves' bands, the mirror): Engines/ScrollOffsets.swift.
    package var scroll = ScrollGeometry()
    /// The per-cell rules the table keeps to be evaluated at an offset, with their values where it
    /// was taken, and the attached views and transition rules: Evaluation/Attributes.swift.
    package var rules = CellRules()
    /// The names of the attached views (the kinds they print), in the table's order.
    public internal(set) var attachedNames: [String] = []
    /// With `--phase` or `--scroll`: where the table is shown, the last stop's adjustments and
    /// the cells still at their estimates (Engines/SelfSizing.swift); nil otherwise.
    package var sizing: SizingOutput? = nil

    /// The kind an element prints: its kind's word, or an attached view's name.
    public func kindName(of e: Element) -> String {
        if let k = e.attachedIndex, k < attachedNames.count { return attachedNames[k] }
        return e.kind.rawValue
    }

    /// Where a section's rows are in `elements`. Its positions are kept in 32 bits (a table holds
    /// far fewer than 2^31 elements; -1 stands for none), so that a file of many sections keeps a
    /// small index (issue 27).
    package struct SectionIndex: Equatable, Sendable {
        private var _header: Int32
        private var _firstCell: Int32
        private var _cellCount: Int32
        private var _footer: Int32
        private var _background: Int32 = -1
        private var _firstView: Int32 = 0
        private var _viewCount: Int32 = 0
        // (The three one-byte fields fill the four bytes before the doubles: 56 bytes a section.)
        /// `pinHeaders` of the section.
        package var pinHeaders: Bool
        /// `pinFooters` of the section.
        package var pinFooters = false
        /// The section's engine.
        package var style: LayoutStyle = .waterfall
        /// Where the section ends along the scroll axis (after its bottom inset, before the footer).
        package var end: Double
        /// Where the next section starts along the scroll axis (after the footer).
        package var stop: Double = 0
        /// Where the section starts along the scroll axis (before its header's insets).
        package var begin: Double = 0

        package init(header: Int?, firstCell: Int, cellCount: Int, footer: Int?, end: Double, pinHeaders: Bool,
                     pinFooters: Bool = false, begin: Double = 0, style: LayoutStyle = .waterfall) {
            _header = Self.narrow(header)
            _firstCell = Int32(firstCell)
            _cellCount = Int32(cellCount)
            _footer = Self.narrow(footer)
            self.end = end
            self.pinHeaders = pinHeaders
            self.pinFooters = pinFooters
            self.begin = begin
            self.style = style
        }

        @inline(__always) private static func narrow(_ k: Int?) -> Int32 { k.map { Int32($0) } ?? -1 }
        @inline(__always) private static func widen(_ k: Int32) -> Int? { k < 0 ? nil : Int(k) }

        package var header: Int? {
            get { Self.widen(_header) }
            set { _header = Self.narrow(newValue) }
        }
        package var firstCell: Int {
            get { Int(_firstCell) }
            set { _firstCell = Int32(newValue) }
        }
        package var cellCount: Int {
            get { Int(_cellCount) }
            set { _cellCount = Int32(newValue) }
        }
        package var footer: Int? {
            get { Self.widen(_footer) }
            set { _footer = Self.narrow(newValue) }
        }
        /// The section's background (docs/layout.md, "Section backgrounds"), nil when it has none.
        package var background: Int? {
            get { Self.widen(_background) }
            set { _background = Self.narrow(newValue) }
        }
        /// The attached views, after the cells: by name, then by item.
        package var firstView: Int {
            get { Int(_firstView) }
            set { _firstView = Int32(newValue) }
        }
        package var viewCount: Int {
            get { Int(_viewCount) }
            set { _viewCount = Int32(newValue) }
        }
        /// The first element of the section in table order, nil when it has none.
        package var first: Int? { background ?? header ?? (cellCount > 0 ? firstCell : footer) }
    }

    package init(name: String, style: LayoutStyle, direction: Direction, containerWidth: Double, containerHeight: Double) {
        self.name = name
        self.style = style
        self.direction = direction
        self.containerWidth = containerWidth
        self.containerHeight = containerHeight
        contentWidth = containerWidth
        contentHeight = containerHeight
        elements = []
        sectionStarts = []
    }

    /// The collection view's size (`container`).
    public var containerSize: Size { Size(width: containerWidth, height: containerHeight) }

    /// The content size, as `collectionViewContentSize`.
    public var contentSize: Size { Size(width: contentWidth, height: contentHeight) }
}

/// A width and a height, as CGSize.
public struct Size: Equatable, Sendable {
    public var width: Double, height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
