/// The result of a layout: one row per element (header, cell, footer) with its frame and z-index,
/// in table order: section by section, the header, the cells by index, the footer (the order
/// `wfl run` prints).

/// What an element is.
public enum ElementKind: String, Sendable {
    case header, cell, footer
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
    /// The item index, or -1 for a header or footer.
    @usableFromInline var storedItem: Int32
    @usableFromInline var storedZIndex: Int32
    @usableFromInline var storedKind: UInt8

    @inlinable public var kind: ElementKind {
        get { storedKind == 0 ? .cell : storedKind == 1 ? .header : .footer }
        set { storedKind = newValue == .cell ? 0 : newValue == .header ? 1 : 2 }
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
        storedKind = kind == .cell ? 0 : kind == .header ? 1 : 2
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
public enum ZIndex {
    public static let cell = 0
    public static let supplementary = 10
}

/// A layout's attribute table.
public struct AttributeTable: Equatable, Sendable {
    public var name: String
    public var style: LayoutStyle
    public var direction: Direction
    public var containerWidth: Double
    public var containerHeight: Double
    public var contentWidth: Double
    public var contentHeight: Double
    public var elements: [Element]
    /// For each section, the index in `elements` of its first element, its header, first cell and
    /// footer (nil when absent), for the queries of `expect`.
    public var sectionStarts: [SectionIndex]
    /// The rect-query index over `elements` (RectIndex.swift), built with the table.
    public var index: RectIndex = RectIndex()
    /// `zoomFirst` of a horizontal flow layout, with what it needs from the table (ScrollOffsets.swift).
    public var zoom: Zoom? = nil
    /// Flow: `snap`'s stride (item 0 of section 0's length along the scroll axis plus the spacing
    /// there); nil in a waterfall or when section 0 has no item 0.
    public var snapStride: Double? = nil

    /// Where a section's rows are in `elements`.
    public struct SectionIndex: Equatable, Sendable {
        public var header: Int?
        public var firstCell: Int
        public var cellCount: Int
        public var footer: Int?
        /// Where the section ends along the scroll axis (after its bottom inset, before the footer).
        public var end: Double
        /// `pinHeaders` of the section.
        public var pinHeaders: Bool
        /// Where the next section starts along the scroll axis (after the footer).
        public var stop: Double = 0
    }

    public init(name: String, style: LayoutStyle, direction: Direction, containerWidth: Double, containerHeight: Double) {
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
}
