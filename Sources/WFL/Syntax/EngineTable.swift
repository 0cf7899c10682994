/// What each engine declares of the language, once: the word of `style` that picks it, what that
/// word means, the settings it reads beyond those every engine reads, and why it refuses each
/// setting another engine reads. The `style` words, the engines of docs/reference.md and of
/// `wfl help`, the completion lists and the "unused setting" errors all come from here
/// (docs/CONTRIBUTING.md, "Adding an engine").

/// One engine's declaration.
package struct EngineDeclaration: Sendable {
    /// A setting the engine reads, in one direction only or in both (nil).
    package struct Reads: Sendable {
        package let setting: String
        package let direction: Direction?
    }

    /// Why the engine refuses a setting, and what to write instead.
    package struct Refusal: Sendable {
        /// The settings it answers.
        package let settings: [String]
        /// The direction it answers in; nil: both.
        package let direction: Direction?
        /// The message and its help, from the setting's name and its arguments as written.
        package let message: @Sendable (_ name: String, _ arguments: String) -> (String, String?)
    }

    /// The word of `style`.
    package let style: LayoutStyle
    /// What the word means, for docs/reference.md and `wfl help style`.
    package let meaning: String
    /// The scroll direction it needs, with the error written where `style` asks for it in the
    /// other one; nil: both.
    package let direction: Direction?
    package let directionRefusal: (String, String)?
    package let reads: [Reads]
    /// The first that answers a setting the engine does not read gives the error.
    package let refusals: [Refusal]

    /// True when the engine reads `setting` in `direction`.
    package func reads(_ setting: String, in direction: Direction) -> Bool {
        reads.contains { $0.setting == setting && ($0.direction == nil || $0.direction == direction) }
    }
}

/// Shorthands for the declarations below.
private func read(_ setting: String, _ direction: Direction? = nil) -> EngineDeclaration.Reads {
    EngineDeclaration.Reads(setting: setting, direction: direction)
}

private func refuse(_ settings: [String], _ direction: Direction? = nil,
                    _ message: @escaping @Sendable (_ name: String, _ arguments: String) -> (String, String?)) -> EngineDeclaration.Refusal {
    EngineDeclaration.Refusal(settings: settings, direction: direction, message: message)
}

/// The engines, in the order the reference lists them; `style`'s default first.
package enum EngineTable {
    package static let all: [EngineDeclaration] = [waterfall, flow, shelf,
                                                         groups]

    static let waterfall = EngineDeclaration(
        style: .waterfall,
        meaning: "items go into lanes (columns when vertical), each to the lane `order` picks; an item's length comes from its rule",
        direction: nil, directionRefusal: nil,
        reads: [read("columns", .vertical), read("rows", .horizontal), read("order"), read("span"), read("scale"),
                read("height", .vertical), read("width", .horizontal), read("size")],
        refusals: [
            refuse(["paging"]) { _, _ in ("'paging' says where a shelf comes to rest; a waterfall section does not use it", "remove it, or write 'style shelf'") },
            refuse(["snapping"]) { _, _ in ("'snapping' rounds 'snap', which needs section 0 to be a flow section", "remove it, or make section 0 'style flow'") },
            refuse(["columns"], .horizontal) { _, args in ("in a horizontal layout lanes are rows: use 'rows \(args)'", "'columns' counts the lanes of a vertical layout") },
            refuse(["rows"], .vertical) { _, args in ("in a vertical layout lanes are columns: use 'columns \(args)'", "'rows' counts the lanes of a horizontal layout") },
            refuse(["height"], .horizontal) { _, args in ("in a horizontal waterfall items grow along x: use 'width \(args)'", "a horizontal waterfall takes a 'width' rule (or 'size W x H')") },
            refuse(["width"], .vertical) { _, args in ("in a vertical waterfall items grow along y: use 'height \(args)'", "a vertical waterfall takes a 'height' rule (or 'size W x H')") },
            refuse(["justify", "align"]) { name, _ in ("'\(name)' places items in the lines of a flow layout; a waterfall does not use it", "remove it, or write 'style flow'") },
            refuse(["zoomFirst"]) { _, _ in ("'zoomFirst' works only in a horizontal flow layout", "remove it, or write 'style flow' and 'direction horizontal'") },
            refuse(["groupSpacing"]) { _, _ in ("'groupSpacing' separates the repetitions of a top group; a waterfall section does not use it", "remove it, or write 'style groups'") },
        ])

    static let flow = EngineDeclaration(
        style: .flow,
        meaning: "items of their own `size` fill lines one after another, as in UIKit's flow layout",
        direction: nil, directionRefusal: nil,
        reads: [read("justify"), read("align"), read("size"), read("snapping"), read("zoomFirst", .horizontal)],
        refusals: [
            refuse(["paging"]) { _, _ in ("'paging' says where a shelf comes to rest; a flow section does not use it", "remove it, or write 'style shelf'") },
            refuse(["columns", "rows"]) { name, _ in ("a flow layout has no lanes: '\(name)' counts the lanes of a waterfall", "a flow line holds as many items as fit; size the items (for example 'size (aw - 10) / 2 x 100' for two to a line), or write 'style waterfall'") },
            refuse(["order", "span"]) { name, _ in ("'\(name)' places items in the lanes of a waterfall; a flow layout does not use it", "remove it, or write 'style waterfall'") },
            refuse(["scale"]) { _, _ in ("'scale' floors the lanes of a waterfall; a flow layout does not use it", "remove it, or write 'style waterfall'") },
            refuse(["height", "width"]) { name, args in
                ("a flow layout sizes each item with 'size W x H': use '\(name == "height" ? "size 50 x \(args)" : "size \(args) x 50")'", "'\(name)' alone is the size rule of a waterfall")
            },
            refuse(["zoomFirst"], .vertical) { _, _ in ("'zoomFirst' works only in a horizontal flow layout", "the carousel scrolls sideways: write 'direction horizontal'") },
            refuse(["groupSpacing"]) { _, _ in ("'groupSpacing' separates the repetitions of a top group; a flow section does not use it", "remove it, or write 'style groups'") },
        ])

    static let shelf = EngineDeclaration(
        style: .shelf,
        meaning: "vertical layouts: items of their own `size` in a band that scrolls sideways, `rows` to a column, column after column",
        direction: .vertical,
        directionRefusal: ("'style shelf' works only in a vertical layout", "a shelf scrolls sideways inside a vertical layout: write 'direction vertical', or 'style flow'"),
        reads: [read("rows"), read("align"), read("paging"), read("size"), read("groupSpacing")],
        refusals: [
            refuse(["columns"]) { _, _ in ("a shelf has no 'columns': it grows sideways, a column of 'rows' items at a time", "write 'rows N' for the items of each column") },
            refuse(["order", "span", "scale", "justify"]) { name, _ in ("'\(name)' is not used by a shelf section", "remove it, or write 'style waterfall' or 'style flow'") },
            refuse(["height", "width"]) { name, args in
                ("a shelf sizes each item with 'size W x H': use '\(name == "height" ? "size 50 x \(args)" : "size \(args) x 50")'", "'\(name)' alone is the size rule of a waterfall")
            },
            refuse(["snapping"]) { _, _ in ("'snapping' rounds 'snap', which needs section 0 to be a flow section", "remove it, or make section 0 'style flow'") },
            refuse(["zoomFirst"]) { _, _ in ("'zoomFirst' works only in a horizontal flow layout", "remove it, or write 'style flow' and 'direction horizontal'") },
        ])

    static let groups = EngineDeclaration(
        style: .groups,
        meaning: "compositional groups: the items are the leaves of a `group` tree, whose top group repeats along the scroll axis",
        direction: nil, directionRefusal: nil,
        reads: [read("groupSpacing")],
        refusals: [
            refuse(["size", "height", "width"]) { name, _ in ("a groups section sizes its items in its 'group' block: '\(name)' is not used", "write the sizes on the 'item's: 'item gw / 2 x 100'") },
            refuse(["columns", "rows"]) { name, _ in ("a groups section has no lanes: '\(name)' counts the lanes of a waterfall", "lay the items out with the group tree: 'group horizontal gw x 100 count 3 { item gw x gh }'") },
            refuse(["order", "span"]) { name, _ in ("'\(name)' places items in the lanes of a waterfall; a groups section does not use it", "remove it, or write 'style waterfall'") },
            refuse(["scale"]) { _, _ in ("'scale' floors the lanes of a waterfall; a groups section does not use it", "remove it") },
            refuse(["justify", "align"]) { name, _ in ("'\(name)' places items in the lines of a flow layout; a groups section does not use it", "place the items with the group tree, or write 'style flow'") },
            refuse(["paging"]) { _, _ in ("'paging' says where a shelf comes to rest; a groups section does not use it", "remove it, or write 'style shelf' with the 'group' block in it") },
            refuse(["snapping"]) { _, _ in ("'snapping' rounds 'snap', which needs section 0 to be a flow section", "remove it, or make section 0 'style flow'") },
            refuse(["zoomFirst"]) { _, _ in ("'zoomFirst' works only in a horizontal flow layout", "remove it, or write 'style flow' and 'direction horizontal'") },
        ])

    /// The declaration of an engine's `style` (nil for `mixed`).
    package static func declaration(_ style: LayoutStyle) -> EngineDeclaration? {
        all.first { $0.style == style }
    }

    /// The `style` words, in table order.
    package static var words: [String] { all.map(\.style.rawValue) }

    /// The settings some engine reads: every other setting is read by every engine.
    package static let engineSettings: Set<String> = Set(all.flatMap { $0.reads.map(\.setting) })

    /// The engines that read `setting` (in some direction): every engine for a setting no engine
    /// declares.
    package static func engines(reading setting: String) -> EngineSet {
        guard engineSettings.contains(setting) else { return .all }
        return EngineSet(styles: all.filter { d in d.reads.contains { $0.setting == setting } }.map(\.style))
    }

    /// Why `setting`, written with `arguments`, does nothing in a section of `style` in a layout of
    /// `direction`, and what to write instead; nil when it is used.
    package static func refusal(_ setting: String, arguments: @autoclosure () -> String, style: LayoutStyle,
                                direction: Direction) -> (String, String?)? {
        guard engineSettings.contains(setting), let d = declaration(style), !d.reads(setting, in: direction) else { return nil }
        guard let r = d.refusals.first(where: { $0.settings.contains(setting) && ($0.direction == nil || $0.direction == direction) }) else {
            return ("'\(setting)' is not used by a \(style.rawValue) section", nil)
        }
        return r.message(setting, arguments())
    }
}

/// Which engines read a setting (the "engines" of docs/reference.md): engines of `EngineTable`,
/// in its order.
package struct EngineSet: Equatable, Sendable {
    package let styles: [LayoutStyle]

    /// Every engine there is.
    package static var all: EngineSet { EngineSet(styles: EngineTable.all.map(\.style)) }

    package func contains(_ style: LayoutStyle) -> Bool { styles.contains(style) }
    package var isEmpty: Bool { styles.isEmpty }

    /// "every engine", or the engines' names: "waterfall", "waterfall and flow".
    package var description: String {
        if self == .all { return "every engine" }
        return listWords(styles.map(\.rawValue), conjunction: "and")
    }
}
