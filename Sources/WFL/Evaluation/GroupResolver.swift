/// Groups (docs/language.md, "Groups"): a section's `group` block resolved into a plain tree of
/// numbers, its sizes, `count`s, insets, spacings and custom frames evaluated once per section,
/// then laid out once (Engines/Groups.swift) into the leaves of one instance of the top group.
/// Every error of the tree is found here, whether or not the section has items.

/// One node of a resolved group tree: an item (a leaf), or a group with its children.
package struct GroupNode: Equatable, Sendable {
    package enum Kind: Equatable, Sendable { case item, horizontal, vertical, custom }
    package var kind: Kind
    /// Its size: the item's slot, or the group's size (along a `count` parent's axis, the copy's).
    package var width: Double
    package var height: Double
    package var insets = Insets()
    /// `itemSpacing`: S, and whether it is `flexible(S)`.
    package var spacing = 0.0
    package var flexible = false
    /// `count N`: exactly N copies of the one child (a custom group: N leaves).
    package var count: Int? = nil
    package var children: [GroupNode] = []
    /// A custom group's leaves, relative to its content box's origin.
    package var frames: [Frame] = []
    /// Where the node's keyword stands, and where its insets and spacing are written.
    package var place: Span
    package var insetsPlace: Span? = nil
    package var spacingPlace: Span? = nil
    /// A horizontal or vertical group's children laid along x.
    var alongX: Bool { kind == .horizontal }
}

/// The top group of a section laid out once: its size and the leaves of one instance, relative to
/// the instance's origin, numbered depth-first.
package struct GroupPattern: Equatable, Sendable {
    package var width: Double
    package var height: Double
    package var cells: [Frame]
    /// The groups of one instance (the top group first), relative to its origin: what a picture
    /// outlines.
    package var outlines: [Frame]
}

extension Resolver {
    /// The most leaves one top group may have, and the deepest nesting of groups (docs/language.md,
    /// "Limits").
    static let maxLeaves = 10_000_000

    /// `group` blocks where none can stand: in a layout with `section` blocks, at the top of a file
    /// with `layout` or `section` blocks.
    mutating func misplacedGroups(_ sectionRecords: [BlockRecord]) {
        var misplaced: [GroupBlock] = []
        if let layout, !sectionRecords.isEmpty { misplaced += layout.groups }
        if program.hasLayoutBlocks || !program.file.sections.isEmpty { misplaced += program.file.groups }
        for g in misplaced {
            fail(.error(.misplacedGroup, "a 'group' block cannot stand here: no section takes it", at: g.block.keyword,
                        help: "move it into the 'style groups' (or 'style shelf') section it lays out"), key: g.block.keyword)
        }
    }

    /// The top group of section `s` laid out, or nil when its style takes none (a `group` there is
    /// an error) or after reporting an error. `blocks` is the section's chain, innermost first.
    mutating func resolveGroups(_ s: Int, _ rec: BlockRecord?, _ blocks: [BlockRecord], aw: Double, ah: Double,
                                _ m: inout Machine) -> GroupPattern? {
        let owner = rec ?? (layout ?? (program.hasLayoutBlocks ? nil : program.file))
        let groups = owner?.groups ?? []
        guard style == .groups || style == .shelf else {
            for g in groups {
                fail(.error(.misplacedGroup, "'group' stands only in a section of 'style groups' or 'style shelf'; section \(s) is a \(style.rawValue) section",
                            at: g.block.keyword, help: "write 'style groups' in the section, or remove the 'group' block"), key: g.block.keyword)
            }
            return nil
        }
        guard let top = groups.first else {
            // A shelf without a group has no instances to space: `groupSpacing` written in it is
            // a setting its engine does not use (docs/language.md's rule).
            if style == .shelf, let own = blocks.first {
                for w in own.settings where w.setting.name.text == "groupSpacing" {
                    fail(.error(.shelfGroupConflict, "'groupSpacing' separates the instances of a shelf's 'group' block; section \(s) is a shelf without one",
                                at: w.setting.name.span, help: "remove it, or write a 'group' block in the shelf (or 'spacing' between its columns)"), key: w.span)
                }
            }
            if style == .groups {
                fail(.error(.missingGroup, "section \(s) is a 'style groups' section without a 'group' block", at: rec?.keyword ?? layout?.keyword ?? .point(0),
                            help: "write its top group: 'group horizontal gw x 100 { item gw / 2 x gh }'"))
            }
            return nil
        }
        for extra in groups.dropFirst() {
            fail(.error(.secondGroup, "section \(s) has a second 'group' block", at: extra.block.keyword,
                        notes: [Note("the first is here", span: top.block.keyword)],
                        help: "a section has one top group, which repeats: put both in one group, 'group vertical gw x 300 { group ...; group ... }'"),
                 key: extra.block.keyword)
        }
        if style == .shelf, let own = blocks.first {
            for w in own.settings where ["size", "rows", "align", "rowSpacing", "columnSpacing", "spacing"].contains(w.setting.name.text) {
                let name = w.setting.name.text
                let why = ["size", "rows", "align"].contains(name) ? "its group sizes and places the items" : "its spacings are 'groupSpacing' and 'itemSpacing'"
                fail(.error(.shelfGroupConflict, "'\(name)' cannot stand in a shelf that holds a 'group' block: \(why)", at: w.setting.name.span,
                            help: "remove '\(name)'" + (why.hasPrefix("its spacings") ? ", or write 'groupSpacing' between the group's instances" : "")), key: w.span)
            }
        }
        if style == .groups, let own = blocks.first {
            for w in own.settings where ["rowSpacing", "columnSpacing", "spacing"].contains(w.setting.name.text) {
                let name = w.setting.name.text
                fail(.error(.unusedSetting, "'\(name)' is not used by a groups section: its gaps are 'groupSpacing' and 'itemSpacing'", at: w.setting.name.span,
                            help: "write 'groupSpacing' between the top group's repetitions, or 'itemSpacing' in a group"), key: w.span)
            }
        }
        if aw <= 0 || ah <= 0 {
            // Across the scroll axis the section's own no-room error (or an earlier one) has been
            // reported already: one error for one mistake.
            let vertical = direction == .vertical
            let (what, value) = aw <= 0 ? ("aw", aw) : ("ah", ah)
            if (what == "aw") == vertical, diagnostics.hasErrors { return nil }
            // At the insets that take the room, where written.
            let (a, b): (Side, Side) = what == "aw" ? (.left, .right) : (.top, .bottom)
            let w = lookup(.insets(a), blocks) ?? lookup(.insets(b), blocks)
            fail(.error(.groupNoRoom, "the insets leave the groups of section \(s) no room: '\(what)' is \(NumberFormat.format(value))",
                        at: w?.setting.name.span ?? top.block.keyword,
                        help: "make the section's insets smaller than the container"), key: w?.span ?? top.block.keyword)
            return nil
        }
        let errorsBefore = diagnostics.count
        var reader = GroupReader(resolver: self, section: s)
        let node = reader.group(top, gw: aw, gh: ah, depth: 1, along: nil, &m)
        self = reader.resolver
        guard let node, diagnostics.count == errorsBefore else { return nil }
        do throws(Diagnostic) {
            return try GroupLayout.pattern(node)
        } catch {
            fail(error, key: error.span)
            return nil
        }
    }
}

/// Reads a group block into a `GroupNode`, reporting through its resolver.
struct GroupReader {
    var resolver: Resolver
    let section: Int

    var compiler: Compiler { resolver.compiler }

    /// An expression of a size, `count` or `frame` evaluated with the machine as it is set;
    /// `random` and lists (unless `list` is true) are errors. nil after an error.
    mutating func value(_ e: Expr, _ what: String, _ m: inout Machine, list: Bool = false) -> Value? {
        let node = compiler.compile(e)
        if let r = node.deps.random {
            resolver.fail(.error(.randomInGroup, "'random' cannot be used in \(what)", at: r,
                                 help: "a group's sizes are evaluated once for the section, not per item; derive them from 'gw' and 'gh'"), key: e.span)
            return nil
        }
        m.reserveLets(compiler.letCount)
        m.unwind()
        m.place = what
        let v: Value
        do {
            v = try node.code(&m)
        } catch {
            resolver.fail(error.at("in \(what) of section \(section)").diagnostic, key: e.span)
            return nil
        }
        if case .list = v, !list {
            resolver.fail(.error(.listInGroupSize, "\(what) is a list: a group's sizes and 'count' are one number each", at: e.span,
                                 help: "a list cycles over items in item rules; here write one value (a custom group's 'frame' may take lists, cycling by 'k')"), key: e.span)
            return nil
        }
        return v
    }

    /// A number of a size: finite and at least 0. nil after an error.
    mutating func length(_ e: Expr, _ what: String, _ m: inout Machine, negative: Bool = false) -> Double? {
        guard let v = value(e, what, &m) else { return nil }
        return number(v, e, what, negative: negative)
    }

    mutating func number(_ v: Value, _ e: Expr, _ what: String, negative: Bool) -> Double? {
        guard case .number(let d) = v else {
            resolver.fail(.error(.wrongValueType, "\(what) must be a number, not \(v.typeName)", at: e.span), key: e.span)
            return nil
        }
        guard d.isFinite, negative || d >= 0 else {
            resolver.fail(.error(.badGroupSize, "\(what) is \(NumberFormat.format(d)): it must be a finite number\(negative ? "" : " at least 0")", at: e.span,
                                 help: "a size is a length: write it as 'gw / 2', '120' or 'gh'"), key: e.span)
            return nil
        }
        return d
    }

    /// A group's or item's `insets` (sides >= 0; they see s, cw, ch, aw, ah).
    mutating func insets(_ statements: [Statement], _ m: inout Machine) -> (Insets, Span?) {
        var out = Insets()
        var place: Span? = nil
        m.available = VarSets.section
        for st in statements {
            guard case .setting(let s) = st.kind, s.name.text == "insets" else { continue }
            place = s.name.span
            var sides: [(Side, Expr)] = []
            if case .side? = s.arguments.first {
                for a in s.arguments { if case .side(let n, let e) = a, let side = Side(name: n.text) { sides.append((side, e)) } }
            } else {
                let vs: [Expr] = s.arguments.compactMap { if case .value(let e) = $0 { return e } else { return nil } }
                let four: [Expr]
                switch vs.count {
                case 1: four = [vs[0], vs[0], vs[0], vs[0]]
                case 2: four = [vs[0], vs[1], vs[0], vs[1]]
                case 4: four = vs
                default: four = []
                }
                sides = zip(Side.allCases, four).map { ($0, $1) }
            }
            for (side, e) in sides {
                guard let d = length(e, "the \(side.name) of 'insets'", &m) else { continue }
                switch side {
                case .top: out.top = d
                case .left: out.left = d
                case .bottom: out.bottom = d
                case .right: out.right = d
                }
            }
        }
        return (out, place)
    }

    /// The size `W x H` of a node whose containing group's content box is gw x gh; along a
    /// `count` parent's axis (`along`: x or y, and the slot's length) the copy's length instead.
    mutating func size(_ we: Expr, _ he: Expr, _ what: String, gw: Double, gh: Double, along: (x: Bool, length: Double)?,
                       _ m: inout Machine) -> (Double, Double)? {
        m.available = VarSets.groupSize
        m.set(.gw, gw)
        m.set(.gh, gh)
        let w = length(we, "the width of '\(what)'", &m)
        let h = length(he, "the height of '\(what)'", &m)
        guard var w, var h else { return nil }
        if let along {
            if along.x { w = along.length } else { h = along.length }
        }
        return (w, h)
    }

    mutating func group(_ g: GroupBlock, gw: Double, gh: Double, depth: Int, along: (x: Bool, length: Double)?,
                        _ m: inout Machine) -> GroupNode? {
        let what = "group \(g.kind.rawValue)"
        let place = g.block.keyword
        guard depth <= Parser.maxGroupDepth else {
            resolver.fail(.error(.groupsTooDeep, "groups nested too deeply: this group is at level \(depth), and groups nest at most \(Parser.maxGroupDepth) deep", at: place), key: place)
            return nil
        }
        guard let (w, h) = size(g.width, g.height, what, gw: gw, gh: gh, along: along, &m) else { return nil }
        var count: Int? = nil
        if let ce = g.count {
            guard let v = value(ce, "'count'", &m) else { return nil }
            guard case .number(let d) = v, d.isFinite, d >= 1, d.rounded(.down) == d else {
                let shown = { if case .number(let d) = v { return NumberFormat.format(d) } else { return v.typeName } }()
                resolver.fail(.error(.badGroupCount, "'count' must be a whole number at least 1, not \(shown)", at: ce.span,
                                     help: "'count N' makes exactly N copies of the group's child"), key: ce.span)
                return nil
            }
            guard d <= Double(Resolver.maxLeaves) else {
                resolver.fail(.error(.tooManyLeaves, "'count' is \(NumberFormat.format(d)): a top group has at most 10,000,000 leaves", at: ce.span,
                                     help: "make 'count' smaller"), key: ce.span)
                return nil
            }
            count = Int(d)
        }
        let (ins, insetsPlace) = insets(g.block.statements, &m)
        var node = GroupNode(kind: g.kind == .horizontal ? .horizontal : g.kind == .vertical ? .vertical : .custom,
                             width: w, height: h, insets: ins, count: count, place: place, insetsPlace: insetsPlace)
        // The content box: the size less the insets.
        let bw = w - ins.left - ins.right, bh = h - ins.top - ins.bottom
        if bw < 0 || bh < 0 {
            let (length, across) = bw < 0 ? (bw, "wide") : (bh, "tall")
            resolver.fail(.error(.groupNoRoom, "the insets of this group leave it no room: its content box would be \(NumberFormat.format(length)) \(across)",
                                 at: insetsPlace ?? place, help: "make the group's insets smaller than its size (\(NumberFormat.format(w)) x \(NumberFormat.format(h)))"), key: insetsPlace ?? place)
            return nil
        }
        m.available = VarSets.section
        for st in g.block.statements {
            guard case .setting(let s) = st.kind, s.name.text == "itemSpacing", case .value(let e)? = s.arguments.first else { continue }
            node.spacingPlace = s.name.span
            if case .call(let call) = e, call.callee.text == "flexible" {
                guard call.arguments.count == 1 else {
                    resolver.fail(.error(.badArguments, "'flexible' takes one value, the least gap, not \(call.arguments.count)", at: call.span,
                                         help: "write, for example, 'itemSpacing flexible(10)'"), key: call.span)
                    return nil
                }
                guard let d = length(call.arguments[0], "'itemSpacing'", &m, negative: true) else { return nil }
                node.spacing = d
                node.flexible = true
            } else {
                guard let d = length(e, "'itemSpacing'", &m, negative: true) else { return nil }
                node.spacing = d
                node.flexible = false
            }
        }
        switch node.kind {
        case .custom:
            guard let n = count else { return nil }
            node.frames = frames(g, n: n, gw: bw, gh: bh, &m) ?? []
            if node.frames.count != n { return nil }
        case .horizontal, .vertical:
            let alongX = node.kind == .horizontal
            var copy: (x: Bool, length: Double)? = nil
            if let n = count {
                // count N: len = (L - S * (N - 1)) / N along the axis.
                let L = alongX ? bw : bh
                let len = (L - node.spacing * Double(n - 1)) / Double(n)
                if len < 0 {
                    resolver.fail(.error(.groupNoRoom, "'count \(n)' with 'itemSpacing' \(NumberFormat.format(node.spacing)) leaves no room: each slot would be \(NumberFormat.format(len)) \(alongX ? "wide" : "tall")",
                                         at: node.spacingPlace ?? g.countWord ?? place, help: "make 'itemSpacing' smaller, or 'count' smaller"), key: node.spacingPlace ?? place)
                    return nil
                }
                copy = (alongX, len)
            }
            for st in g.block.statements {
                switch st.kind {
                case .group(let inner):
                    guard let child = group(inner, gw: bw, gh: bh, depth: depth + 1, along: copy, &m) else { return nil }
                    node.children.append(child)
                case .item(let item):
                    guard let child = self.item(item, gw: bw, gh: bh, along: copy, &m) else { return nil }
                    node.children.append(child)
                default: break
                }
            }
            if node.children.isEmpty { return nil }
        case .item:
            break
        }
        return node
    }

    mutating func item(_ item: ItemBlock, gw: Double, gh: Double, along: (x: Bool, length: Double)?, _ m: inout Machine) -> GroupNode? {
        guard let (w, h) = size(item.width, item.height, "item", gw: gw, gh: gh, along: along, &m) else { return nil }
        let (ins, insetsPlace) = insets(item.block?.statements ?? [], &m)
        if w - ins.left - ins.right < 0 || h - ins.top - ins.bottom < 0 {
            let (length, across) = w - ins.left - ins.right < 0 ? (w - ins.left - ins.right, "wide") : (h - ins.top - ins.bottom, "tall")
            resolver.fail(.error(.groupNoRoom, "the insets of this item leave it no room: its cell would be \(NumberFormat.format(length)) \(across)",
                                 at: insetsPlace ?? item.keyword, help: "make the item's insets smaller than its slot (\(NumberFormat.format(w)) x \(NumberFormat.format(h)))"), key: insetsPlace ?? item.keyword)
            return nil
        }
        return GroupNode(kind: .item, width: w, height: h, insets: ins, place: item.keyword, insetsPlace: insetsPlace)
    }

    /// A custom group's N leaves: `frame X Y W H` with k = 0 ..< N, gw and gh of its content box;
    /// a list cycles by k. X and Y finite; W and H finite and at least 0.
    mutating func frames(_ g: GroupBlock, n: Int, gw: Double, gh: Double, _ m: inout Machine) -> [Frame]? {
        var setting: Setting? = nil
        for st in g.block.statements { if case .setting(let s) = st.kind, s.name.text == "frame" { setting = s } }
        guard let setting else { return nil }
        let exprs: [Expr] = setting.arguments.compactMap { if case .value(let e) = $0 { return e } else { return nil } }
        guard exprs.count == 4 else { return nil }
        m.available = VarSets.groupFrame
        m.set(.gw, gw)
        m.set(.gh, gh)
        let names = ["the x of 'frame'", "the y of 'frame'", "the width of 'frame'", "the height of 'frame'"]
        // A side that does not read k is evaluated once, and a list of it cycles by k.
        var fixed: [Value?] = []
        for (j, e) in exprs.enumerated() {
            if compiler.compile(e).deps.vars & EngineVar.k.bit == 0 {
                m.set(.k, 0)
                guard let v = value(e, names[j], &m, list: true) else { return nil }
                if case .list(let xs) = v, xs.isEmpty {
                    resolver.fail(.error(.badListRule, "\(names[j]) is an empty list", at: e.span, help: "a list here cycles by 'k', so it needs at least one number"), key: e.span)
                    return nil
                }
                fixed.append(v)
            } else {
                fixed.append(nil)
            }
        }
        var out: [Frame] = []
        out.reserveCapacity(n)
        var side = [0.0, 0, 0, 0]
        for k in 0..<n {
            m.set(.k, Double(k))
            for j in 0..<4 {
                let v: Value
                if let f = fixed[j] {
                    v = f
                } else {
                    guard let got = value(exprs[j], names[j], &m, list: true) else { return nil }
                    v = got
                }
                let one = ItemRule.cycled(v, item: k)
                guard let d = number(one, exprs[j], names[j] + (n > 1 ? " of leaf \(k)" : ""), negative: j < 2) else { return nil }
                side[j] = d
            }
            out.append(Frame(x: side[0], y: side[1], width: side[2], height: side[3]))
        }
        return out
    }
}
