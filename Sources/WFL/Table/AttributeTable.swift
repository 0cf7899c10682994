/// The result of a layout: one row per element (header, cell, footer) with its frame and z-index,
/// in table order: section by section, the header, the cells by index, the footer (CLI.md).

/// What an element is.
public enum ElementKind: String, Sendable {
    case header, cell, footer
}

/// A rectangle, origin top-left, y down, as UIKit.
public struct Frame: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// One row of the table.
public struct Element: Equatable, Sendable {
    public var kind: ElementKind
    public var section: Int
    /// The item index of a cell; nil for headers and footers.
    public var item: Int?
    public var frame: Frame
    public var zIndex: Int
}

/// z-index of cells and of supplementary views (LAYOUT.md).
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
    /// `zoomFirst` of a horizontal flow layout, with what it needs from the table (Offsets.swift).
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
