/// The words of the language that are not reserved: settings, keyword values, functions and the
/// engine's variables (docs/language.md, "Settings" and "Variables"). Parser, evaluator and REPL read
/// them from here.

/// What arguments a setting takes.
package enum ArgumentShape: Equatable, Sendable {
    /// One bare word out of these.
    case word([String])
    /// `W x H`.
    case size
    /// `N` or `adaptive(MIN)`.
    case lanes
    /// Between `min` and `max` values.
    case values(min: Int, max: Int)
    /// One, two or four values, or the named form `top 10 left 4`.
    case insets
    /// `NAME [portrait | landscape]`: a device of the table (Layout/Devices.swift).
    case device
}

/// Where a setting may be written (the "level" column of docs/language.md).
package enum SettingLevel: Sendable {
    /// Layout or file level only.
    case layout
    /// Also inside a section.
    case section
    /// Also inside a section, and evaluated once per item.
    case item
    /// Only inside an `attach` block, where it belongs to the attached view.
    case attached
    /// Only inside a `group` block, where it belongs to that group (it does not cascade).
    case group
}

/// One side of insets, in the order of `insets T L B R`.
package enum Side: Int, CaseIterable, Sendable {
    case top, left, bottom, right

    /// The word of the side: `top`, `left`, `bottom`, `right`.
    package var name: String {
        switch self {
        case .top: return "top"
        case .left: return "left"
        case .bottom: return "bottom"
        case .right: return "right"
        }
    }

    package init?(name: String) {
        // A switch: `allCases` made an array at each call.
        switch name {
        case "top": self = .top
        case "left": self = .left
        case "bottom": self = .bottom
        case "right": self = .right
        default: return nil
        }
    }
}

/// What settings set: what cascades from the file to a layout and a section, what the warning
/// about setting one thing twice in a block compares, and what the REPL replaces when a setting is
/// typed again. `spacing` sets two (the row and the column spacing); `height`, `width` and `size`
/// set one, the item size rule; each side of each kind of insets is one. The raw value numbers
/// the property's bit in a mask (`bit`).
package enum Property: Int, CaseIterable, Sendable {
    case style, container, direction, columns, rows, order, rowSpacing, columnSpacing
    case insetsTop, insetsLeft, insetsBottom, insetsRight
    case header, footer
    case headerInsetsTop, headerInsetsLeft, headerInsetsBottom, headerInsetsRight
    case footerInsetsTop, footerInsetsLeft, footerInsetsBottom, footerInsetsRight
    case pinHeaders, items, sizeRule, span, justify, align, zoomFirst, scale, seed
    case pinFooters, layoutDirection, paging, snapping, collapseEmpty
    case background, backgroundInsetsTop, backgroundInsetsLeft, backgroundInsetsBottom, backgroundInsetsRight
    case alpha, zoom, zIndex
    case attachWhen, attachAnchor, attachOffset
    /// The settings of `appear { }` and `disappear { }` blocks: each cascades on its own.
    case appearAlpha, appearZoom, appearOffset, disappearAlpha, disappearZoom, disappearOffset
    /// Self-sizing cells (docs/layout.md, "Self-sizing cells"): `estimate`.
    case estimate
    /// The environment (docs/layout.md, "The environment"): `safeArea`, `layoutMargins` (each side
    /// on its own), `readableWidth`, `insetsReference`; `device` sets the first three and itself.
    case safeAreaTop, safeAreaLeft, safeAreaBottom, safeAreaRight
    case layoutMarginsTop, layoutMarginsLeft, layoutMarginsBottom, layoutMarginsRight
    case readableWidth, insetsReference, device
    /// Groups (docs/language.md, "Groups"): the section's `groupSpacing`; a group block's own
    /// `itemSpacing` and a custom group's `frame` (they do not cascade).
    case groupSpacing, itemSpacing, groupFrame
    /// Motion: the transforms `translate X x Y` and `rotate DEG`, and their `appear`/`disappear` forms.
    case translate, rotate, appearTranslate, appearRotate, disappearTranslate, disappearRotate
    /// Tile grids (docs/layout.md, "Tile grids").
    case tile, rowHeight, columnWidth, packing

    /// What `alpha`, `zoom` or `offset` sets inside an `appear` (or `disappear`) block; nil for
    /// another setting.
    package static func appearing(_ setting: String, disappear: Bool) -> Property? {
        switch setting {
        case "alpha": return disappear ? .disappearAlpha : .appearAlpha
        case "zoom": return disappear ? .disappearZoom : .appearZoom
        case "offset": return disappear ? .disappearOffset : .appearOffset
        case "translate": return disappear ? .disappearTranslate : .appearTranslate
        case "rotate": return disappear ? .disappearRotate : .appearRotate
        default: return nil
        }
    }

    /// One side of `insets`.
    package static func insets(_ side: Side) -> Property { Property(rawValue: insetsTop.rawValue + side.rawValue)! }
    /// One side of `headerInsets`.
    package static func headerInsets(_ side: Side) -> Property { Property(rawValue: headerInsetsTop.rawValue + side.rawValue)! }
    /// One side of `footerInsets`.
    package static func footerInsets(_ side: Side) -> Property { Property(rawValue: footerInsetsTop.rawValue + side.rawValue)! }

    /// One side of `safeArea`.
    package static func safeArea(_ side: Side) -> Property { Property(rawValue: safeAreaTop.rawValue + side.rawValue)! }
    /// One side of `layoutMargins`.
    package static func layoutMargins(_ side: Side) -> Property { Property(rawValue: layoutMarginsTop.rawValue + side.rawValue)! }

    /// One side of `backgroundInsets`.
    package static func backgroundInsets(_ side: Side) -> Property { Property(rawValue: backgroundInsetsTop.rawValue + side.rawValue)! }

    /// The property's bit in a mask of properties.
    var bit: PropertyMask { PropertyMask(self) }
}

/// A set of properties as bits, two words wide: there are more properties than one word holds.
package struct PropertyMask: Hashable, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init() {}

    init(_ p: Property) {
        if p.rawValue < 64 { low = 1 << UInt64(p.rawValue) } else { high = 1 << UInt64(p.rawValue - 64) }
    }

    var isEmpty: Bool { low == 0 && high == 0 }

    /// The raw value of the lowest property in the set (128 when empty).
    var lowest: Int { low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount }

    static func | (a: PropertyMask, b: PropertyMask) -> PropertyMask {
        var m = a
        m.low |= b.low
        m.high |= b.high
        return m
    }

    static func & (a: PropertyMask, b: PropertyMask) -> PropertyMask {
        var m = a
        m.low &= b.low
        m.high &= b.high
        return m
    }

    static func |= (a: inout PropertyMask, b: PropertyMask) { a = a | b }

    /// Whether the two sets share a property.
    func intersects(_ other: PropertyMask) -> Bool { low & other.low != 0 || high & other.high != 0 }

    /// Removes the lowest property of a set that is not empty.
    mutating func removeLowest() {
        if low != 0 { low &= low - 1 } else { high &= high - 1 }
    }

    /// Removes `p` from the set.
    mutating func remove(_ p: Property) {
        let b = PropertyMask(p)
        low &= ~b.low
        high &= ~b.high
    }
}

/// One row of the settings table. A class, so that the parser's hold on a row is one reference,
/// not one per field.
package final class SettingInfo: Sendable {
    package let name: String
    package let shape: ArgumentShape
    package let level: SettingLevel
    /// A complete example, for help lines.
    package let example: String
    /// The properties it sets: `spacing` sets both spacings, `height`, `width` and `size` the item
    /// size rule, and a setting of insets its four sides, in `Side` order.
    package let properties: [Property]
    /// The arguments as the reference writes them: `N | adaptive(MIN)`, `W x H`, `boolean`.
    package let arguments: String
    /// The value when no block sets it, as written in a file; empty when it has none of its own
    /// (`spacing` sets two others; `height` and `width` are the item size rule, `size 50 x 50`).
    package let defaultValue: String
    /// The engines that read it, as they declare it (Syntax/EngineTable.swift); the others
    /// refuse it where it is written (docs/language.md).
    package var engines: EngineSet { EngineTable.engines(reading: name) }
    /// What it means, lower-case, for docs/reference.md, `wfl help SETTING` and hover texts.
    package let meaning: String
    /// What each keyword value means, for a `.word` shape (one key for each of its words).
    package let values: [String: String]

    /// The reference's fields come last and have defaults, so that a row can be added first and
    /// documented next: LanguageReferenceTests fails while a row lacks them.
    init(name: String, shape: ArgumentShape, level: SettingLevel, example: String, properties: [Property],
         arguments: String = "", default defaultValue: String = "", meaning: String = "",
         values: [String: String] = [:]) {
        self.name = name
        self.shape = shape
        self.level = level
        self.example = example
        self.properties = properties
        self.arguments = arguments
        self.defaultValue = defaultValue
        self.meaning = meaning
        self.values = values
    }

    /// The properties it sets when written with `arguments`: the sides named in the named form of
    /// insets (`insets top 10`), else all of `properties`.
    package func properties(of arguments: SettingArguments) -> [Property] {
        guard case .side? = arguments.first else { return properties }
        return arguments.compactMap { a in
            if case .side(let n, _) = a, let side = Side(name: n.text) { return properties[side.rawValue] }
            return nil
        }
    }

    /// `properties(of:)` as a mask of `Property.bit`s, made without its arrays (the parser asks
    /// it of every setting of insets with named sides; the REPL of a setting typed alone).
    func propertyMask(of arguments: SettingArguments) -> PropertyMask {
        guard case .side? = arguments.first else { return properties.reduce(PropertyMask()) { $0 | $1.bit } }
        var mask = PropertyMask()
        for k in arguments.indices {
            if case .side(let n, _) = arguments[k], let side = Side(name: n.text) { mask |= properties[side.rawValue].bit }
        }
        return mask
    }
}

/// `anchor` of an attached view: a point of the cell, by its fractions (fx, fy) of the width and
/// height (docs/layout.md, "Attached views").
package enum AttachAnchor: String, CaseIterable, Sendable {
    case topLeft, top, topRight, left, center, right, bottomLeft, bottom, bottomRight

    /// (fx, fy).
    package var fractions: (Double, Double) {
        switch self {
        case .topLeft: return (0, 0)
        case .top: return (0.5, 0)
        case .topRight: return (1, 0)
        case .left: return (0, 0.5)
        case .center: return (0.5, 0.5)
        case .right: return (1, 0.5)
        case .bottomLeft: return (0, 1)
        case .bottom: return (0.5, 1)
        case .bottomRight: return (1, 1)
        }
    }

    var meaning: String {
        let (fx, fy) = fractions
        return "the point (\(fx == 0 ? "0" : fx == 1 ? "1" : "0.5") * w, \(fy == 0 ? "0" : fy == 1 ? "1" : "0.5") * h) of the cell"
    }
}

/// The table of settings of docs/language.md.
package enum SettingTable {
    package static let sides = Side.allCases.map(\.name)

    /// What the words of the named form of insets mean (`insets top 10 left 4`).
    package static let sideMeanings: [String: String] = [
        "top": "the top side", "left": "the left side", "bottom": "the bottom side", "right": "the right side",
    ]

    /// What `adaptive(MIN)` means, the lane count of `columns` and `rows`.
    package static let adaptiveMeaning = "as many lanes at least MIN long across as fit (SwiftUI's adaptive grid); MIN above 0"

    package static let all: [SettingInfo] = [
        SettingInfo(name: "style", shape: .word(EngineTable.words), level: .section, example: "style waterfall", properties: [.style], arguments: EngineTable.words.joined(separator: " | "), default: EngineTable.words[0], meaning: "the engine that lays a section out; sections of one layout may differ", values: Dictionary(uniqueKeysWithValues: EngineTable.all.map { ($0.style.rawValue, $0.meaning) })),
        SettingInfo(name: "container", shape: .size, level: .layout, example: "container 375 x 812", properties: [.container], arguments: "W x H", default: "375 x 812", meaning: "the collection view's size; both sides above 0"),
        SettingInfo(name: "direction", shape: .word(["vertical", "horizontal"]), level: .layout, example: "direction vertical", properties: [.direction], arguments: "vertical | horizontal", default: "vertical", meaning: "the scroll direction", values: ["vertical": "scrolls up and down: waterfall lanes are columns, flow lines are rows", "horizontal": "scrolls sideways: waterfall lanes are rows, flow lines are columns"]),
        SettingInfo(name: "columns", shape: .lanes, level: .section, example: "columns 2", properties: [.columns], arguments: "N | adaptive(MIN)", default: "2", meaning: "vertical waterfall and grid: the lane count, a whole number from 1 to 1,000; `adaptive(MIN)`: as many lanes at least MIN wide as fit, `max(1, floor((aw + cs + 1e-6) / (MIN + cs)))`"),
        SettingInfo(name: "rows", shape: .lanes, level: .section, example: "rows 2", properties: [.rows], arguments: "N | adaptive(MIN)", default: "2 (1 in a shelf)", meaning: "horizontal waterfall and grid: the lane count, a whole number from 1 to 1,000; `adaptive(MIN)`: as many lanes at least MIN tall as fit; shelf: the items in each column of the band"),
        SettingInfo(name: "order", shape: .word(["shortest", "leftToRight", "rightToLeft"]), level: .section, example: "order shortest", properties: [.order], arguments: "shortest | leftToRight | rightToLeft", default: "shortest", meaning: "which lane each item goes to", values: ["shortest": "the lane (or run of `span` lanes) that ends first; the first of equal ones", "leftToRight": "item i goes to lane `i % lanes`, counting from the first lane (moved back when its span does not fit)", "rightToLeft": "item i goes to lane `lanes - 1 - i % lanes`, counting from the last lane (moved back when its span does not fit)"]),
        SettingInfo(name: "rowSpacing", shape: .values(min: 1, max: 1), level: .section, example: "rowSpacing 10", properties: [.rowSpacing], arguments: "N", default: "10", meaning: "the vertical gap between neighbouring items, in every engine and direction"),
        SettingInfo(name: "columnSpacing", shape: .values(min: 1, max: 1), level: .section, example: "columnSpacing 10", properties: [.columnSpacing], arguments: "N", default: "10", meaning: "the horizontal gap between neighbouring items, in every engine and direction"),
        SettingInfo(name: "spacing", shape: .values(min: 1, max: 2), level: .section, example: "spacing 10", properties: [.rowSpacing, .columnSpacing], arguments: "N | R C", meaning: "sets `rowSpacing` and `columnSpacing`: one value for both, or rows then columns"),
        SettingInfo(name: "insets", shape: .insets, level: .section, example: "insets 10", properties: Side.allCases.map(Property.insets), arguments: "A | V H | T L B R | top A left B ...", default: "0", meaning: "the section's insets, each side at least 0: one value for every side; V for top and bottom and H for left and right; top, left, bottom, right; or the sides named (each side cascades on its own)"),
        SettingInfo(name: "header", shape: .values(min: 1, max: 1), level: .section, example: "header 44", properties: [.header], arguments: "N", default: "0", meaning: "the header's thickness along the scroll axis (its height when vertical), at least 0; 0: no header"),
        SettingInfo(name: "footer", shape: .values(min: 1, max: 1), level: .section, example: "footer 30", properties: [.footer], arguments: "N", default: "0", meaning: "the footer's thickness along the scroll axis, at least 0; 0: no footer"),
        SettingInfo(name: "headerInsets", shape: .insets, level: .section, example: "headerInsets 0 10", properties: Side.allCases.map(Property.headerInsets), arguments: "as insets", default: "0", meaning: "margins around the header"),
        SettingInfo(name: "footerInsets", shape: .insets, level: .section, example: "footerInsets 0 10", properties: Side.allCases.map(Property.footerInsets), arguments: "as insets", default: "0", meaning: "margins around the footer"),
        SettingInfo(name: "pinHeaders", shape: .values(min: 1, max: 1), level: .section, example: "pinHeaders true", properties: [.pinHeaders], arguments: "boolean", default: "false", meaning: "headers stay at the top of the view (its left when horizontal) while their section scrolls by"),
        SettingInfo(name: "items", shape: .values(min: 1, max: 1), level: .section, example: "items 20", properties: [.items], arguments: "N", default: "0", meaning: "the section's item count, a whole number"),
        SettingInfo(name: "height", shape: .values(min: 1, max: 1), level: .item, example: "height 100", properties: [.sizeRule], arguments: "expression", meaning: "vertical waterfall: each item's height, evaluated per item (it may read `w`, the item's width); a list cycles"),
        SettingInfo(name: "width", shape: .values(min: 1, max: 1), level: .item, example: "width 100", properties: [.sizeRule], arguments: "expression", meaning: "horizontal waterfall: each item's width, evaluated per item (it may read `h`, the item's height); a list cycles"),
        SettingInfo(name: "size", shape: .size, level: .item, example: "size 50 x 50", properties: [.sizeRule], arguments: "W x H", default: "50 x 50", meaning: "flow: each item's size; waterfall: its natural size, scaled to the lane keeping its aspect ratio"),
        SettingInfo(name: "estimate", shape: .size, level: .item, example: "estimate 200", properties: [.estimate], arguments: "E | W x H", default: "none", meaning: "makes the section self-sizing: each cell takes this estimate until it is displayed and measured; waterfall: its length along the scroll axis, flow and shelf: its size"),
        SettingInfo(name: "span", shape: .values(min: 1, max: 1), level: .item, example: "span full", properties: [.span], arguments: "expression", default: "1", meaning: "how many neighbouring lanes an item covers, a whole number at least 1 (`full`: all of them; more counts as all)"),
        SettingInfo(name: "justify", shape: .word(["uikit", "start", "center", "end", "spread"]), level: .section, example: "justify uikit", properties: [.justify], arguments: "uikit | start | center | end | spread", default: "uikit", meaning: "how a line's items share its length", values: ["uikit": "as UIKit: full lines spread, a lone item centred, the last line on the grid of equal items or packed at the start", "start": "packed at the start of the line", "center": "packed in the middle of the line", "end": "packed at the end of the line", "spread": "the first item at the start, the last at the end, the others evenly between"]),
        SettingInfo(name: "align", shape: .word(["center", "start", "end", "stretch"]), level: .section, example: "align center", properties: [.align], arguments: "center | start | end | stretch", default: "center", meaning: "where an item sits across its line (a shelf's row), when the line is thicker than the item", values: ["center": "in the middle of the line", "start": "at the line's top (its left when horizontal)", "end": "at the line's bottom (its right when horizontal)", "stretch": "as thick as the line: every item takes the line's thickness, computed from the items' own sizes"]),
        SettingInfo(name: "zoomFirst", shape: .size, level: .layout, example: "zoomFirst 120 x 150", properties: [.zoomFirst], arguments: "W x H", default: "none", meaning: "horizontal flow: the first item grows towards W x H as it scrolls into place (a carousel)"),
        SettingInfo(name: "scale", shape: .values(min: 1, max: 1), level: .section, example: "scale 2", properties: [.scale], arguments: "N", default: "0", meaning: "the screen scale: when above 0, lane widths and scaled sizes are floored to 1/N point"),
        SettingInfo(name: "seed", shape: .values(min: 1, max: 1), level: .layout, example: "seed 0", properties: [.seed], arguments: "N", default: "0", meaning: "the seed of `random`: a whole number, 0 <= N < 2^53"),
        SettingInfo(name: "pinFooters", shape: .values(min: 1, max: 1), level: .section, example: "pinFooters true", properties: [.pinFooters], arguments: "boolean", default: "false", meaning: "footers stay at the bottom of the view (its right when horizontal) while their section scrolls by"),
        SettingInfo(name: "layoutDirection", shape: .word(["leftToRight", "rightToLeft"]), level: .layout, example: "layoutDirection rightToLeft", properties: [.layoutDirection], arguments: "leftToRight | rightToLeft", default: "leftToRight", meaning: "the writing direction: `rightToLeft` mirrors every frame, as UIKit does for Arabic and Hebrew", values: ["leftToRight": "frames as laid out", "rightToLeft": "frames mirrored across the container (a horizontal layout: across its content)"]),
        SettingInfo(name: "paging", shape: .word(["continuous", "leadingBoundary", "paging", "groupPaging", "groupPagingCentered"]), level: .section, example: "paging groupPaging", properties: [.paging], arguments: "continuous | leadingBoundary | paging | groupPaging | groupPagingCentered", default: "continuous", meaning: "shelf: where its sideways scrolling comes to rest (`shelfSnap`)", values: ["continuous": "where it is let go", "leadingBoundary": "the start of the nearest column", "paging": "the nearest whole page of the container's width", "groupPaging": "the start of the nearest column", "groupPagingCentered": "the nearest column centred in the view"]),
        SettingInfo(name: "snapping", shape: .word(["next", "nearest"]), level: .layout, example: "snapping nearest", properties: [.snapping], arguments: "next | nearest", default: "next", meaning: "flow: how `snap` rounds an offset to the stride, then clamps it to the scrollable range", values: ["next": "up to the next stride (`ceil`)", "nearest": "to the nearest stride, halves away from zero"]),
        SettingInfo(name: "collapseEmpty", shape: .word(["none", "insets", "all"]), level: .section, example: "collapseEmpty insets", properties: [.collapseEmpty], arguments: "none | insets | all", default: "none", meaning: "what a section with no items leaves out", values: ["none": "nothing: its insets, header and footer stay", "insets": "its section insets (its header and footer stay)", "all": "everything: it takes no space"]),
        SettingInfo(name: "background", shape: .word(["none", "items", "cells", "all"]), level: .section, example: "background items", properties: [.background], arguments: "none | items | cells | all", default: "none", meaning: "one decoration view behind the section, z-index -1, kind `background`", values: ["none": "no background", "items": "from after the header and its insets to where the footer's insets begin, the section's insets included", "cells": "the smallest rect holding every cell (none when the section has no cells)", "all": "the whole section, header and footer with their insets included"]),
        SettingInfo(name: "alpha", shape: .values(min: 1, max: 1), level: .item, example: "alpha 0.5", properties: [.alpha], arguments: "expression", default: "1", meaning: "each cell's alpha, from 0 to 1, evaluated per cell at the scroll offset on its frame as shown; in `appear` / `disappear`: the alpha an inserted element starts with or a deleted one ends with (default 0)"),
        SettingInfo(name: "zoom", shape: .values(min: 1, max: 1), level: .item, example: "zoom 1.2", properties: [.zoom], arguments: "expression", default: "1", meaning: "each cell's transform scale about its centre, finite and at least 0, evaluated per cell at the scroll offset; the frame stays unscaled; in `appear` / `disappear`: the zoom an inserted element starts or a deleted one ends with (default 1)"),
        SettingInfo(name: "translate", shape: .size, level: .item, example: "translate 0 x 0", properties: [.translate], arguments: "X x Y", default: "0 x 0", meaning: "each cell's move in points, right and down, finite, evaluated per cell at the scroll offset after its zoom and rotation; the frame stays unmoved; in `appear` / `disappear`: the move an inserted element starts or a deleted one ends with (default 0 x 0)"),
        SettingInfo(name: "rotate", shape: .values(min: 1, max: 1), level: .item, example: "rotate 0", properties: [.rotate], arguments: "DEG", default: "0", meaning: "each cell's turn in degrees about its centre, clockwise on screen, finite, evaluated per cell at the scroll offset and normalised into (-180, 180]; in `appear` / `disappear`: the turn an inserted element starts or a deleted one ends with (default 0)"),
        SettingInfo(name: "zIndex", shape: .values(min: 1, max: 1), level: .item, example: "zIndex 1", properties: [.zIndex], arguments: "expression", default: "0", meaning: "each cell's z-index, a whole number from -1,000,000 to 1,000,000, evaluated per cell at the scroll offset"),
        SettingInfo(name: "when", shape: .values(min: 1, max: 1), level: .attached, example: "when i % 5 == 0", properties: [.attachWhen], arguments: "boolean", default: "true", meaning: "in `attach`: which cells get the view, evaluated per cell (a list cycles)"),
        SettingInfo(name: "anchor", shape: .word(AttachAnchor.allCases.map(\.rawValue)), level: .attached, example: "anchor topRight", properties: [.attachAnchor], arguments: AttachAnchor.allCases.map(\.rawValue).joined(separator: " | "), default: "topRight", meaning: "in `attach`: the point of the cell the view's same point sits on (physical sides)", values: Dictionary(uniqueKeysWithValues: AttachAnchor.allCases.map { ($0.rawValue, $0.meaning) })),
        SettingInfo(name: "offset", shape: .size, level: .attached, example: "offset 0 x 0", properties: [.attachOffset], arguments: "W x H", default: "0 x 0", meaning: "in `attach`: moves the view right and down from its anchor, evaluated per cell; it may read `vw` and `vh`, the view's size; in `appear` / `disappear`: moves an inserted element's start or a deleted one's end right and down (physical sides)"),
        // Groups (docs/language.md, "Groups").
        SettingInfo(name: "groupSpacing", shape: .values(min: 1, max: 1), level: .section, example: "groupSpacing 10", properties: [.groupSpacing], arguments: "N", default: "0", meaning: "groups, shelf of groups: the gap between repetitions of the top group along the scroll axis (a shelf's: across its band); may be negative (the instances overlap)"),
        SettingInfo(name: "itemSpacing", shape: .values(min: 1, max: 1), level: .group, example: "itemSpacing 10", properties: [.itemSpacing], arguments: "N | flexible(N)", default: "0", meaning: "in a `horizontal` or `vertical` group: the gap between its children; `flexible(N)`: at least N, the children spread to fill the group"),
        SettingInfo(name: "frame", shape: .values(min: 4, max: 4), level: .group, example: "frame 0 0 gw gh", properties: [.groupFrame], arguments: "X Y W H", meaning: "in a `custom` group: leaf k's frame relative to the group's content box, evaluated with `k`, `gw`, `gh`; each side may be a list, cycling by k"),
        // Tile grids.
        SettingInfo(name: "tile", shape: .size, level: .item, example: "tile 2 x 1", properties: [.tile], arguments: "C x R", default: "1 x 1", meaning: "grid: the columns and rows an item covers, whole numbers at least 1, evaluated per item (lists cycle: a repeating quilted pattern); wider than the grid: clamped, with a warning"),
        SettingInfo(name: "rowHeight", shape: .values(min: 1, max: 1), level: .section, example: "rowHeight w", properties: [.rowHeight], arguments: "N", default: "w", meaning: "vertical grid: the height of a row, at least 0; `w` is the column width (square cells by default)"),
        SettingInfo(name: "columnWidth", shape: .values(min: 1, max: 1), level: .section, example: "columnWidth h", properties: [.columnWidth], arguments: "N", default: "h", meaning: "horizontal grid: the width of a column, at least 0; `h` is the row height (square cells by default)"),
        SettingInfo(name: "packing", shape: .word(["sparse", "dense"]), level: .section, example: "packing dense", properties: [.packing], arguments: "sparse | dense", default: "sparse", meaning: "grid: how items are placed, as CSS Grid's auto-placement", values: ["sparse": "each item after the one before it (`grid-auto-flow: row`): holes stay", "dense": "each item in the first place it fits from the grid's start (`grid-auto-flow: row dense`): later small items fill holes"]),
        SettingInfo(name: "backgroundInsets", shape: .insets, level: .section, example: "backgroundInsets 8 (-6)", properties: Side.allCases.map(Property.backgroundInsets), arguments: "as insets; sides may be negative", default: "0", meaning: "moves each side of the section background inwards (a negative side outwards); each side cascades on its own"),
        // The environment and devices (docs/layout.md, "The environment", "Devices").
        SettingInfo(name: "safeArea", shape: .insets, level: .layout, example: "safeArea 47 0 34 0", properties: Side.allCases.map(Property.safeArea), arguments: "as insets", default: "0", meaning: "the safe area, each side at least 0: along the scroll axis the adjusted content inset (the initial offset, pinning, the scrollable range), across it the reference edges of `insetsReference`"),
        SettingInfo(name: "layoutMargins", shape: .insets, level: .layout, example: "layoutMargins 8 16", properties: Side.allCases.map(Property.layoutMargins), arguments: "as insets", default: "8", meaning: "the layout margins, measured from the safe area, each side at least 0 (8 is UIView's default)"),
        SettingInfo(name: "readableWidth", shape: .values(min: 1, max: 1), level: .layout, example: "readableWidth 672", properties: [.readableWidth], arguments: "N", default: "672", meaning: "the widest the readable content guide gets, above 0"),
        SettingInfo(name: "insetsReference", shape: .word(["none", "safeArea", "layoutMargins", "readableContent"]), level: .section, example: "insetsReference layoutMargins", properties: [.insetsReference], arguments: "none | safeArea | layoutMargins | readableContent", default: "safeArea", meaning: "what a section's insets are measured from, across the scroll axis", values: ["none": "the container's edges", "safeArea": "the safe area's edges", "layoutMargins": "the layout margins' edges (the safe area plus the margins)", "readableContent": "vertical: the layout margins narrowed, centred, to at most `readableWidth`; horizontal: as `layoutMargins`"]),
        SettingInfo(name: "device", shape: .device, level: .layout, example: "device iPhone13 landscape", properties: [.container] + Side.allCases.map(Property.safeArea) + [.readableWidth, .device], arguments: "NAME [portrait | landscape]", default: "none", meaning: "sets `container`, `safeArea` and `readableWidth 672` to a device's, as if written there; a bare name is portrait for iPhones, landscape for iPads"),
    ]

    /// For each row of `all`, the properties it sets as a mask of `Property.bit`s.
    static let propertyMasks: [PropertyMask] = all.map { $0.properties.reduce(PropertyMask()) { $0 | $1.bit } }

    private static let byName: [String: SettingInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The row of a setting name, if it is one.
    package static func info(_ name: String) -> SettingInfo? { byName[name] }

    package static var names: [String] { all.map(\.name) }
}

/// The words that open a block or a statement of their own (docs/language.md, "Attached views"
/// and "Batch updates"). None is reserved: the parser reads each as a keyword only where its
/// block may start, and elsewhere it is a name.
package enum BlockWord: String, CaseIterable, Sendable {
    case attach, appear, disappear, update, insert, delete
    /// Groups (docs/language.md, "Groups").
    case group, item
    /// Scroll paths (docs/language.md, "Scroll paths"): the block and its stops.
    case scroll, to

    /// Its word in the language.
    package var word: String { rawValue }

    /// Its row of `BlockTable`.
    package var info: BlockInfo { BlockTable.byWord[self]! }
}

/// One row of the table of block words: what its block holds, where it stands, and its texts for
/// hover, completion and the editors' grammar.
package struct BlockInfo: Sendable {
    package let word: BlockWord
    /// How it is written: `attach NAME { ... }`.
    package let form: String
    /// What it does, in Markdown, for hover texts (after its form) and `wfl help WORD`.
    package let meaning: String
    /// A short line for completion lists.
    package let detail: String
    /// The settings its block holds (they belong to it, not to the section).
    package let settings: [String]
    /// The statement words its block holds besides those settings (`let`, `expect`, and the
    /// words whose `within` is this one).
    package let statements: [String]
    /// The block it stands in; nil when it stands where a section's statements do (at the top of
    /// a file, in a layout or in a section).
    package let within: BlockWord?
    /// Where it may stand, as `wfl help` says it.
    package let stands: String
    /// False for a word kept for a later version: the parser, the editors and `wfl lsp` leave it
    /// out.
    package let isRead: Bool
}

/// The table of block words.
package enum BlockTable {
    package static let all: [BlockInfo] = [
        BlockInfo(word: .attach, form: "attach NAME { ... }",
                  meaning: "a view on each cell of the sections it reaches (`when`, `size`, `anchor`, `offset`, `zIndex`); an inner block of the same name replaces it",
                  detail: "attach NAME { ... }: a view on each cell",
                  settings: ["when", "size", "anchor", "offset", "zIndex"], statements: ["let"], within: nil, stands: "at the top of a file, in a layout or in a section", isRead: true),
        BlockInfo(word: .appear, form: "appear { ... }",
                  meaning: "where an inserted cell or view starts its animation (`alpha`, default 0; `zoom`; `offset DX x DY`)",
                  detail: "appear { ... }: where an inserted element starts",
                  settings: ["alpha", "zoom", "offset", "translate", "rotate"], statements: [], within: nil, stands: "at the top of a file, in a layout or in a section", isRead: true),
        BlockInfo(word: .disappear, form: "disappear { ... }",
                  meaning: "where a deleted cell or view ends its animation (`alpha`, default 0; `zoom`; `offset DX x DY`)",
                  detail: "disappear { ... }: where a deleted element ends",
                  settings: ["alpha", "zoom", "offset", "translate", "rotate"], statements: [], within: nil, stands: "at the top of a file, in a layout or in a section", isRead: true),
        BlockInfo(word: .update, form: "update { ... }",
                  meaning: "one batch update of the section's items (`delete` counts before it, `insert` after it); its `expect`s read the table after it",
                  detail: "update { delete ...; insert ... }: a batch update of the section",
                  settings: [], statements: ["delete", "insert", "expect"], within: nil,
                  stands: "in a section, in a layout without sections, or at the top of a file without either", isRead: true),
        BlockInfo(word: .insert, form: "insert INDEX ...",
                  meaning: "items inserted by the update, counted after it (`s`, `n` the count before, `cw`, `ch`, `aw`, `ah`)",
                  detail: "insert INDEX ...: items after the update",
                  settings: [], statements: [], within: .update, stands: "inside an `update` block", isRead: true),
        BlockInfo(word: .delete, form: "delete INDEX ...",
                  meaning: "items deleted by the update, counted before it (`s`, `n` the count before, `cw`, `ch`, `aw`, `ah`)",
                  detail: "delete INDEX ...: items before the update",
                  settings: [], statements: [], within: .update, stands: "inside an `update` block", isRead: true),
        BlockInfo(word: .group, form: "group horizontal|vertical|custom W x H [count N] { ... }",
                  meaning: "a compositional group: its children (`group`s and `item`s) laid along its axis, repeating while they fit (`count N`: exactly N copies of its one child); a `custom` group places `count` leaves by `frame`; sizes see `gw`, `gh` (the containing group's content size), `s`, `cw`, `ch`, `aw`, `ah`",
                  detail: "group KIND W x H { ... }: a compositional group",
                  settings: ["itemSpacing", "insets", "frame"], statements: ["group", "item"], within: nil,
                  stands: "in a `style groups` or `style shelf` section (one, the top group), in a group, or where an `update` block may stand", isRead: true),
        BlockInfo(word: .item, form: "item W x H [{ ... }]",
                  meaning: "a leaf of a group: one cell, its slot `W x H` shrunk by its `insets`",
                  detail: "item W x H { insets }: a leaf of a group",
                  settings: ["insets"], statements: [], within: .group, stands: "inside a `group` block", isRead: true),
        BlockInfo(word: .scroll, form: "scroll { ... }",
                  meaning: "a scroll path: from the first display, the stops of its `to`s, self-sizing cells measured as they are shown; its `expect`s read the state after the path, with `ox`, `oy` (where it ends), `offsetAdjustment`, `sizeAdjustment` (the last stop's) and `measured(s, i)`",
                  detail: "scroll { to X, Y; expect ... }: a scroll path",
                  settings: [], statements: ["to", "expect"], within: nil,
                  stands: "in a layout, or at the top of a file without layouts", isRead: true),
        BlockInfo(word: .to, form: "to X, Y [by D]",
                  meaning: "a stop at content offset (X, Y), clamped to the scrollable range; with `by D` (D > 0), stops D apart along the scroll axis from where the last stop ended, then at (X, Y); X, Y and D are constant (`cw`, `ch` allowed)",
                  detail: "to X, Y [by D]: a stop of the path",
                  settings: [], statements: [], within: .scroll, stands: "inside a `scroll` block", isRead: true),
    ]

    static let byWord: [BlockWord: BlockInfo] = Dictionary(uniqueKeysWithValues: all.map { ($0.word, $0) })

    /// The rows the language reads today, in the table's order.
    package static var read: [BlockInfo] { all.filter(\.isRead) }

    /// The row of a word the language reads, if `word` is one.
    package static func info(_ word: String) -> BlockInfo? {
        BlockWord(rawValue: word).map(\.info).flatMap { $0.isRead ? $0 : nil }
    }

    /// The blocks that hold a setting of their own named `name`.
    package static func blocks(holding name: String) -> [BlockInfo] { read.filter { $0.settings.contains(name) } }
}

/// How many arguments a function takes.
package enum Arity: Equatable, Sendable {
    case exactly([Int])
    case atLeast(Int)

    package func accepts(_ n: Int) -> Bool {
        switch self {
        case .exactly(let ks): return ks.contains(n)
        case .atLeast(let k): return n >= k
        }
    }

    /// "2 arguments", "2 or 4 arguments", "at least 1 argument".
    package var description: String {
        switch self {
        case .atLeast(let k): return "at least \(k) argument" + (k == 1 ? "" : "s")
        case .exactly(let ks):
            let last = ks.last ?? 0
            return listWords(ks.map(String.init)) + " argument" + (last == 1 ? "" : "s")
        }
    }
}

/// One built-in function, for the parser (its arity) and the reference (the rest).
package struct BuiltinFunction: Sendable {
    package let name: String
    package let arity: Arity
    /// Each way of calling it, as the reference writes it: `clamp(x, lo, hi)`.
    package let signatures: [String]
    /// What it gives, lower-case.
    package let meaning: String
}

/// The functions usable in any expression. The compiler switches over these cases, so a function
/// added here does not compile until it is implemented; its row (`info`) is what the parser,
/// the reference and editors read.
package enum Builtin: String, CaseIterable, Sendable {
    case min, max, clamp, abs, floor, ceil, round, sqrt, len, random

    /// Its name in the language.
    package var name: String { rawValue }

    /// Its row of the reference.
    package var info: BuiltinFunction {
        switch self {
        case .min: return row(.atLeast(1), ["min(a, b, ...)", "min(list)"], "the least of its numbers; one list argument is spread")
        case .max: return row(.atLeast(1), ["max(a, b, ...)", "max(list)"], "the greatest of its numbers; one list argument is spread")
        case .clamp: return row(.exactly([3]), ["clamp(x, lo, hi)"], "x, raised to lo or lowered to hi (lo must be at most hi)")
        case .abs: return row(.exactly([1]), ["abs(x)"], "the absolute value of x")
        case .floor: return row(.exactly([1]), ["floor(x)"], "the greatest whole number at most x")
        case .ceil: return row(.exactly([1]), ["ceil(x)"], "the least whole number at least x")
        case .round: return row(.exactly([1]), ["round(x)"], "the nearest whole number, halves away from zero")
        case .sqrt: return row(.exactly([1]), ["sqrt(x)"], "the square root of x, which may not be negative")
        case .len: return row(.exactly([1]), ["len(list)", "len(string)"], "a list's length, or a string's count of Unicode scalars")
        case .random: return row(.exactly([2]), ["random(lo, hi)"], "a whole number in lo ..< hi, the same on every run for the same seed, section, item and call; item rules only")
        }
    }

    private func row(_ arity: Arity, _ signatures: [String], _ meaning: String) -> BuiltinFunction {
        BuiltinFunction(name: rawValue, arity: arity, signatures: signatures, meaning: meaning)
    }
}

/// The functions of Expectations, usable only in `expect`: each asks a finished table
/// (`ExpectHost.call`), and the host switches over these cases.
package enum ExpectQuery: String, CaseIterable, Sendable {
    case frame, header, footer, alpha, zoom, zIndex, attached, background, count, snap, shelfSnap
    /// Motion: a cell's translate `[X, Y]` and its rotate.
    case translate, rotate
    /// Scroll paths: whether a cell is measured (a boolean).
    case measured

    /// Its name in the language.
    package var name: String { rawValue }

    /// True when it gives a number; the others give a frame, a list `[x, y, w, h]`.
    package var givesNumber: Bool {
        switch self {
        case .alpha, .zoom, .zIndex, .count, .snap, .shelfSnap, .rotate: return true
        case .frame, .header, .footer, .attached, .background, .translate, .measured: return false
        }
    }

    /// Its row of the reference.
    package var info: BuiltinFunction {
        switch self {
        case .frame: return row(.exactly([2, 4, 5]), ["frame(s, i)", "frame(s, i, ox, oy)", "frame(s, i, ox, oy, sx)"], "`[x, y, w, h]` of cell i of section s, at scroll offset (0, 0) or (ox, oy), with shelf s at its own offset sx (else 0)")
        case .header: return row(.exactly([1, 3]), ["header(s)", "header(s, ox, oy)"], "the frame of section s's header, at (0, 0) or (ox, oy); an error when it has none")
        case .footer: return row(.exactly([1, 3]), ["footer(s)", "footer(s, ox, oy)"], "the frame of section s's footer, at (0, 0) or (ox, oy); an error when it has none")
        case .alpha: return row(.exactly([2, 4, 5]), ["alpha(s, i)", "alpha(s, i, ox, oy)", "alpha(s, i, ox, oy, sx)"], "the alpha of cell i of section s, at (0, 0) or (ox, oy), shelf s at sx")
        case .zoom: return row(.exactly([2, 4, 5]), ["zoom(s, i)", "zoom(s, i, ox, oy)", "zoom(s, i, ox, oy, sx)"], "the zoom of cell i of section s, at (0, 0) or (ox, oy), shelf s at sx")
        case .zIndex: return row(.exactly([2, 4, 5]), ["zIndex(s, i)", "zIndex(s, i, ox, oy)", "zIndex(s, i, ox, oy, sx)"], "the z-index of cell i of section s, at (0, 0) or (ox, oy), shelf s at sx")
        case .translate: return row(.exactly([2, 4, 5]), ["translate(s, i)", "translate(s, i, ox, oy)", "translate(s, i, ox, oy, sx)"], "`[X, Y]`, the translate of cell i of section s, at (0, 0) or (ox, oy), shelf s at sx")
        case .rotate: return row(.exactly([2, 4, 5]), ["rotate(s, i)", "rotate(s, i, ox, oy)", "rotate(s, i, ox, oy, sx)"], "the rotate of cell i of section s in degrees, normalised into (-180, 180], at (0, 0) or (ox, oy), shelf s at sx")
        case .attached: return row(.exactly([3, 5, 6]), ["attached(name, s, i)", "attached(name, s, i, ox, oy)", "attached(name, s, i, ox, oy, sx)"], "the frame of the view attached as `name` (a string) to cell i of section s, at (0, 0) or (ox, oy), shelf s at sx; an error when it has none")
        case .background: return row(.exactly([1, 3, 4]), ["background(s)", "background(s, ox, oy)", "background(s, ox, oy, sx)"], "the frame of section s's background, at (0, 0) or (ox, oy), shelf s at sx; an error when it has none")
        case .count: return row(.exactly([4, 6, 8]), ["count(x, y, w, h)", "count(x, y, w, h, ox, oy)", "count(x, y, w, h, ox, oy, s, sx)"], "how many elements (of every kind: cells, headers, footers, backgrounds, attached views) overlap the rect, at offset (0, 0) or (ox, oy), shelf s at sx")
        case .snap: return row(.exactly([1]), ["snap(x)"], "section 0 a flow section: where scrolling comes to rest for a proposed offset x, rounded to the stride as `snapping` says and clamped to the scrollable range")
        case .shelfSnap: return row(.exactly([2]), ["shelfSnap(s, x)"], "where shelf s comes to rest when its sideways scroll is let go at x, as its `paging` says, clamped to the band")
        case .measured: return row(.exactly([2]), ["measured(s, i)"], "whether cell i of section s is measured: in a `scroll` block's `expect`, after the path; true elsewhere and in sections without `estimate`")
        }
    }

    private func row(_ arity: Arity, _ signatures: [String], _ meaning: String) -> BuiltinFunction {
        BuiltinFunction(name: rawValue, arity: arity, signatures: signatures, meaning: meaning)
    }
}

/// One engine variable, for the reference.
package struct VariableInfo: Sendable {
    package let name: String
    /// What it holds, lower-case.
    package let meaning: String
}

/// Where the engine's variables have values: one row of docs/reference.md's "Variables".
package struct VariablePlace: Sendable {
    /// The engines, directions or block it is limited to, as the reference writes them
    /// ("vertical waterfall", "waterfall `attach`"); empty when it is not limited.
    package let scope: String
    /// What it covers within its scope: "`height`, `size`", "the other section settings".
    package let what: String
    /// The settings it covers (none for `expect`).
    package let settings: [String]
    /// The variables with a value there.
    package let variables: [String]
    /// The blocks its settings stand in (`attach`; `appear` and `disappear`), or the block of its
    /// statements (`update`); empty for a section's own settings.
    package let blocks: [BlockWord]
    /// The statement words whose expressions it covers (`expect`; `insert`, `delete`), when it
    /// covers no setting.
    package let words: [String]
    /// True when `random` may be called there: the rules evaluated once for each item as it is
    /// laid out (not at each scroll offset).
    package let random: Bool

    init(_ what: String, settings: [String], variables: [String], random: Bool = false, words: [String] = []) {
        self.init("", what, settings: settings, variables: variables, random: random, words: words)
    }

    init(_ scope: String, _ what: String, settings: [String], variables: [String], blocks: [BlockWord] = [], random: Bool = false, words: [String] = []) {
        self.scope = scope
        self.what = what
        self.settings = settings
        self.variables = variables
        self.blocks = blocks
        self.random = random
        self.words = words
    }

    /// The place, as the reference writes it: "vertical waterfall: `height`, `size`".
    package var place: String { scope.isEmpty ? what : scope + ": " + what }
}

/// The built-in functions and the engine's variables.
package enum Builtins {
    /// Functions usable in any expression, in the reference's order.
    package static let functions: [BuiltinFunction] = Builtin.allCases.map(\.info)

    /// The functions of Expectations (`expect` only; the evaluator says so elsewhere).
    package static let expectFunctions: [BuiltinFunction] = ExpectQuery.allCases.map(\.info)

    /// The variables the engine gives values to, with their meanings.
    package static let variableTable: [VariableInfo] = [
        VariableInfo(name: "i", meaning: "the item's index in its section, from 0"),
        VariableInfo(name: "n", meaning: "the section's item count (in `insert` and `delete`, before the update)"),
        VariableInfo(name: "s", meaning: "the section's index, from 0"),
        VariableInfo(name: "cw", meaning: "the container's width"),
        VariableInfo(name: "ch", meaning: "the container's height"),
        VariableInfo(name: "aw", meaning: "the available width: `cw` less the section's left and right insets"),
        VariableInfo(name: "ah", meaning: "the available height: `ch` less the section's top and bottom insets"),
        VariableInfo(name: "w", meaning: "vertical waterfall: the item's width, spans included; `alpha`, `zoom`, `zIndex`: the cell's width at the scroll offset; vertical grid `rowHeight`: the column width"),
        VariableInfo(name: "h", meaning: "horizontal waterfall: the item's height, spans included; `alpha`, `zoom`, `zIndex`: the cell's height at the scroll offset; horizontal grid `columnWidth`: the row height"),
        VariableInfo(name: "col", meaning: "waterfall: the item's first lane, from 0 (in `attach`, the cell's)"),
        VariableInfo(name: "full", meaning: "waterfall: the lane count, so that `span full` covers every lane; grid `tile`: the columns (rows when horizontal)"),
        VariableInfo(name: "contentWidth", meaning: "the width of the laid-out content"),
        VariableInfo(name: "contentHeight", meaning: "the height of the laid-out content"),
        VariableInfo(name: "minX", meaning: "`alpha`, `zoom`, `zIndex`: the cell's left edge at the scroll offset"),
        VariableInfo(name: "midX", meaning: "`alpha`, `zoom`, `zIndex`: `minX + w / 2`"),
        VariableInfo(name: "maxX", meaning: "`alpha`, `zoom`, `zIndex`: `minX + w`"),
        VariableInfo(name: "minY", meaning: "`alpha`, `zoom`, `zIndex`: the cell's top edge at the scroll offset"),
        VariableInfo(name: "midY", meaning: "`alpha`, `zoom`, `zIndex`: `minY + h / 2`"),
        VariableInfo(name: "maxY", meaning: "`alpha`, `zoom`, `zIndex`: `minY + h`"),
        VariableInfo(name: "ox", meaning: "`alpha`, `zoom`, `zIndex`: the scroll offset's x; a `scroll` block's `expect`: where the path ends, x"),
        VariableInfo(name: "oy", meaning: "`alpha`, `zoom`, `zIndex`: the scroll offset's y; a `scroll` block's `expect`: where the path ends, y"),
        VariableInfo(name: "vw", meaning: "`offset` in `attach`: the attached view's width"),
        VariableInfo(name: "vh", meaning: "`offset` in `attach`: the attached view's height"),
        VariableInfo(name: "device", meaning: "`expect`: the device in force as a string, `\"iPhone13.portrait\"` (`--device`, else the layout's `device`), `\"\"` without one"),
        VariableInfo(name: "gw", meaning: "in a group's or item's size, `count` and `frame`: the width of the containing group's content box (the top group: `aw`)"),
        VariableInfo(name: "gh", meaning: "in a group's or item's size, `count` and `frame`: the height of the containing group's content box (the top group: `ah`)"),
        VariableInfo(name: "k", meaning: "a custom group's `frame`: the leaf's index in the group, from 0"),
        VariableInfo(name: "p", meaning: "the attribute rules: the distance of the cell's centre from the viewport's centre in viewport lengths, positive right or down (along x in horizontal layouts and shelves)"),
        VariableInfo(name: "sx", meaning: "the attribute rules of a shelf: the shelf's own sideways offset (`wfl run --shelf S=X`), 0 by default"),
        VariableInfo(name: "offsetAdjustment", meaning: "a `scroll` block's `expect`: the last stop's `contentOffsetAdjustment`, `[x, y]`"),
        VariableInfo(name: "sizeAdjustment", meaning: "a `scroll` block's `expect`: the last stop's `contentSizeAdjustment`, `[w, h]`"),
    ]

    /// Variables the engine gives values to.
    package static let variables: [String] = variableTable.map(\.name)

    /// Where each variable has a value (EngineVar.whereUsable says it in errors).
    package static let places: [VariablePlace] = [
        VariablePlace("`container`", settings: ["container"], variables: []),
        VariablePlace("`seed`, `zoomFirst`, `safeArea`, `layoutMargins`, `readableWidth`", settings: ["seed", "zoomFirst", "safeArea", "layoutMargins", "readableWidth"], variables: ["cw", "ch"]),
        VariablePlace("`insets`, `headerInsets`, `footerInsets`, `backgroundInsets`", settings: ["insets", "headerInsets", "footerInsets", "backgroundInsets"], variables: ["s", "cw", "ch"]),
        VariablePlace("the other section settings", settings: ["columns", "rows", "rowSpacing", "columnSpacing", "spacing", "header", "footer", "pinHeaders", "pinFooters", "items", "scale", "groupSpacing"], variables: ["s", "cw", "ch", "aw", "ah"]),
        VariablePlace("`span`", settings: ["span"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full"], random: true),
        VariablePlace("vertical waterfall", "`height`, `size`, `estimate`", settings: ["height", "size", "estimate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full", "w", "col"], random: true),
        VariablePlace("horizontal waterfall", "`width`, `size`, `estimate`", settings: ["width", "size", "estimate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full", "h", "col"], random: true),
        VariablePlace("flow and shelf", "`size`, `estimate`", settings: ["size", "estimate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah"], random: true),
        // Tile grids.
        VariablePlace("tile grid", "`tile`", settings: ["tile"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full"], random: true),
        VariablePlace("vertical grid", "`rowHeight`", settings: ["rowHeight"], variables: ["s", "cw", "ch", "aw", "ah", "w"]),
        VariablePlace("horizontal grid", "`columnWidth`", settings: ["columnWidth"], variables: ["s", "cw", "ch", "aw", "ah", "h"]),
        VariablePlace("waterfall `attach`", "`when`, `size`", settings: ["when", "size"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full", "col", "w", "h"], blocks: [.attach]),
        VariablePlace("waterfall `attach`", "`offset`", settings: ["offset"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "full", "col", "w", "h", "vw", "vh"], blocks: [.attach]),
        VariablePlace("flow and shelf `attach`", "`when`, `size`", settings: ["when", "size"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "w", "h"], blocks: [.attach]),
        VariablePlace("flow and shelf `attach`", "`offset`", settings: ["offset"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "vw", "vh"], blocks: [.attach]),
        VariablePlace("`alpha`, `zoom`, `zIndex`, `translate`, `rotate`", settings: ["alpha", "zoom", "zIndex", "translate", "rotate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "minX", "midX", "maxX", "minY", "midY", "maxY", "ox", "oy", "p"]),
        VariablePlace("shelf", "`alpha`, `zoom`, `zIndex`, `translate`, `rotate`", settings: ["alpha", "zoom", "zIndex", "translate", "rotate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "minX", "midX", "maxX", "minY", "midY", "maxY", "ox", "oy", "p", "sx"]),
        VariablePlace("`appear`, `disappear`", "`alpha`, `zoom`, `offset`, `translate`, `rotate`", settings: ["alpha", "zoom", "offset", "translate", "rotate"], variables: ["i", "n", "s", "cw", "ch", "aw", "ah", "w", "h", "minX", "midX", "maxX", "minY", "midY", "maxY", "ox", "oy", "p"], blocks: [.appear, .disappear]),
        VariablePlace("`expect`", settings: [], variables: ["cw", "ch", "contentWidth", "contentHeight", "device"], words: ["expect"]),
        VariablePlace("`scroll` block", "`expect`", settings: [], variables: ["cw", "ch", "contentWidth", "contentHeight", "device", "ox", "oy", "offsetAdjustment", "sizeAdjustment"], blocks: [.scroll], words: ["expect"]),
        VariablePlace("`scroll` block", "`to`", settings: [], variables: ["cw", "ch"], blocks: [.scroll], words: ["to"]),
        VariablePlace("`update`", "`insert`, `delete`", settings: [], variables: ["s", "n", "cw", "ch", "aw", "ah"], blocks: [.update], words: ["insert", "delete"]),
        VariablePlace("`group`, `item`", "sizes, `count`", settings: [], variables: ["gw", "gh", "s", "cw", "ch", "aw", "ah"], blocks: [.group, .item], words: ["group", "item"]),
        VariablePlace("custom `group`", "`frame`", settings: ["frame"], variables: ["k", "gw", "gh", "s", "cw", "ch", "aw", "ah"], blocks: [.group]),
        VariablePlace("`group`, `item`", "`itemSpacing`, `insets`", settings: ["itemSpacing", "insets"], variables: ["s", "cw", "ch", "aw", "ah"], blocks: [.group, .item]),
    ]

    static let functionArity: [String: Arity] =
        Dictionary(uniqueKeysWithValues: (functions + expectFunctions).map { ($0.name, $0.arity) })

    /// How many arguments a built-in function takes, or nil when `name` is not one.
    package static func arity(of name: String) -> Arity? { functionArity[name] }

    /// The row of a built-in function, if `name` is one.
    package static func function(_ name: String) -> BuiltinFunction? {
        functions.first { $0.name == name } ?? expectFunctions.first { $0.name == name }
    }

    /// The row of an engine variable, if `name` is one.
    package static func variable(_ name: String) -> VariableInfo? { variableTable.first { $0.name == name } }
}

/// Suggestions for misspelt names: the closest candidate by edit distance, if it is close enough.
package enum Suggest {
    /// The Damerau-Levenshtein distance (adjacent swaps count one, case is ignored), or a number
    /// above `limit` as soon as the distance is known to exceed it.
    package static func distance(_ a: String, _ b: String, limit: Int = Int.max) -> Int {
        let x = Array(a.utf8).map(lower), y = Array(b.utf8).map(lower)
        let n = x.count, m = y.count
        if abs(n - m) > limit { return limit &+ 1 }
        if n == 0 { return m }
        if m == 0 { return n }
        // Three rows of the table, flat: the one before last, the last, and the current.
        let w = m + 1
        var rows = [Int](repeating: 0, count: 3 * w)
        for j in 0...m { rows[w + j] = j }
        for i in 1...n {
            let cur = (i + 1) % 3 * w, prev = i % 3 * w, prev2 = (i + 2) % 3 * w
            rows[cur] = i
            var best = i
            for j in 1...m {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var d = Swift.min(rows[prev + j] + 1, rows[cur + j - 1] + 1, rows[prev + j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = Swift.min(d, rows[prev2 + j - 2] + 1) }
                rows[cur + j] = d
                best = Swift.min(best, d)
            }
            if best > limit { return limit &+ 1 }
        }
        return rows[(n + 1) % 3 * w + m]
    }

    private static func lower(_ c: UInt8) -> UInt8 { c &- 65 < 26 ? c | 0x20 : c }

    /// The best of `candidates` for `word`, or nil when none is within about a third of its length.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (String, Int)? = nil
        let length = word.utf8.count
        for c in candidates where c != word {
            let limit = Swift.max(1, Swift.min(length, c.utf8.count) / 3)
            let d = distance(word, c, limit: Swift.min(limit, (best?.1 ?? Int.max) - 1))
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// "did you mean 'x'?" or nil.
    package static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }
}

/// Lists words as "a, b or c".
func listWords(_ words: [String], quoted: Bool = false, conjunction: String = "or") -> String {
    let w = quoted ? words.map { "'\($0)'" } : words
    if w.count <= 1 { return w.first ?? "" }
    return w.dropLast().joined(separator: ", ") + " \(conjunction) " + w.last!
}
