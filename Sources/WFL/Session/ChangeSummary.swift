/// The lines that say what an entry changed: sections, items and content size of each layout,
/// how many elements moved, were added or removed, and what a batch update does.

/// What changed between two states of a session.
enum ChangeSummary {
    /// True for an `update` block, or a block that holds one.
    static func holdsUpdate(_ st: Statement) -> Bool {
        switch st.kind {
        case .update: return true
        case .layout(let b), .section(let b): return b.statements.contains(where: holdsUpdate)
        default: return false
        }
    }

    /// "update: 4 cells stay, 2 move, 1 appears, 2 disappear" for each layout with a batch
    /// update (with the layout's name when the session has several), after an entry that holds
    /// an `update` block.
    static func updates(_ tables: [AttributeTable], after: [AttributeTable], updates: [BatchUpdate]) -> String {
        var out = ""
        for (k, t) in tables.enumerated() where k < after.count && k < updates.count {
            guard tables.count == 1 || !updates[k].isEmpty else { continue }
            let counts = cellChanges(before: t, after: after[k], update: updates[k])
            out += (tables.count > 1 ? "\(TerminalText.escaped(t.name)): " : "") + "update: \(counts.description)\n"
        }
        return out
    }

    /// "1 section, 30 items, content 375 x 1234; 28 cells moved": each layout's sections, items
    /// and content size, and how its elements changed since `before`.
    /// `reasons` says, by layout name, why a layout where nothing moved did not change.
    package static func summary(before: [AttributeTable], after: [AttributeTable], reasons: [String: String] = [:]) -> String {
        if after.isEmpty { return "no layout" }
        let f = NumberFormat.forPeople
        let named = after.count > 1
        return after.enumerated().map { (k, t) in
            let sections = t.sectionStarts.count
            let items = t.sectionStarts.reduce(0) { $0 + $1.cellCount }
            var line = named ? "\(TerminalText.escaped(t.name)): " : ""
            line += "\(sections) \(sections == 1 ? "section" : "sections"), \(items) \(items == 1 ? "item" : "items"), "
            line += "content \(f(t.contentWidth)) x \(f(t.contentHeight))"
            let old = before.first { $0.name == t.name } ?? (before.count == 1 && after.count == 1 ? before[0] : nil)
            line += "; " + changes(from: old, to: t, reason: reasons[t.name])
            return line
        }.joined(separator: "; ")
    }

    /// "12 cells moved, 1 header added", or "nothing moved" (with `reason` after it, if any).
    /// Elements are matched by (kind, section, item) through the tables' section indexes, so the
    /// cost is one comparison per element, without hashing.
    static func changes(from old: AttributeTable?, to new: AttributeTable, reason: String? = nil) -> String {
        var moved: [ElementKind: Int] = [:], added: [ElementKind: Int] = [:], removed: [ElementKind: Int] = [:]
        let oldSections = old?.sectionStarts ?? [], newSections = new.sectionStarts
        let oldElements = old?.elements ?? []
        func compare(_ kind: ElementKind, _ a: Int?, _ b: Int?, count: Int = 1) {
            switch (a, b) {
            case let (a?, b?):
                // Most elements have not moved: equal bytes are equal elements (frames are finite).
                if count == 0 || sameBytes(oldElements, a, new.elements, b, count: count) { return }
                var k = 0
                while k < count {
                    let p = oldElements[a + k], e = new.elements[b + k]
                    if p.frame != e.frame || p.zIndex != e.zIndex { moved[kind, default: 0] += 1 }
                    k += 1
                }
            case (nil, _?): added[kind, default: 0] += count
            case (_?, nil): removed[kind, default: 0] += count
            case (nil, nil): break
            }
        }
        // An entry appended at the end leaves the old table a prefix of the new one: one
        // comparison of the bytes instead of one per section.
        var first = 0
        if let old, old.elements.count <= new.elements.count, oldSections.count <= newSections.count,
           sameBytes(oldSections, 0, newSections, 0, count: oldSections.count),
           sameBytes(oldElements, 0, new.elements, 0, count: oldElements.count) {
            first = oldSections.count
        }
        for s in first..<Swift.max(oldSections.count, newSections.count) {
            let o = s < oldSections.count ? oldSections[s] : nil, n = s < newSections.count ? newSections[s] : nil
            compare(.header, o?.header, n?.header)
            let both = Swift.min(o?.cellCount ?? 0, n?.cellCount ?? 0)
            compare(.cell, o.map(\.firstCell), n.map(\.firstCell), count: both)
            if let o, o.cellCount > both { removed[.cell, default: 0] += o.cellCount - both }
            if let n, n.cellCount > both { added[.cell, default: 0] += n.cellCount - both }
            compare(.footer, o?.footer, n?.footer)
            // Backgrounds, and attached views paired in table order (by name, then item).
            compare(.background, o?.background, n?.background)
            let views = Swift.min(o?.viewCount ?? 0, n?.viewCount ?? 0)
            compare(.attached, o.map(\.firstView), n.map(\.firstView), count: views)
            if let o, o.viewCount > views { removed[.attached, default: 0] += o.viewCount - views }
            if let n, n.viewCount > views { added[.attached, default: 0] += n.viewCount - views }
        }
        var parts: [String] = []
        for (counts, verb) in [(moved, "moved"), (added, "added"), (removed, "removed")] {
            let words = [ElementKind.cell, .header, .footer, .background, .attached].compactMap { kind -> String? in
                guard let n = counts[kind], n > 0 else { return nil }
                return "\(n) \(kind == .attached ? "attached view" : kind.rawValue)\(n == 1 ? "" : "s")"
            }
            if !words.isEmpty { parts.append(words.joined(separator: ", ") + " " + verb) }
        }
        if parts.isEmpty {
            let sizeChanged = old.map { $0.contentWidth != new.contentWidth || $0.contentHeight != new.contentHeight } ?? false
            if sizeChanged { return "content size changed, nothing moved" }
            return "nothing moved" + (reason.map { ": " + $0 } ?? "")
        }
        return parts.joined(separator: ", ")
    }

    /// True when `count` values from `a` in `old` and from `b` in `new` are the same bytes,
    /// compared a word at a time. Only for values without references, whose equal bytes are equal
    /// values; padding that differs only sends the caller to its slower comparison.
    static func sameBytes<T>(_ old: [T], _ a: Int, _ new: [T], _ b: Int, count: Int) -> Bool {
        let stride = MemoryLayout<T>.stride
        let length = count * stride
        guard length > 0 else { return true }
        return old.withUnsafeBytes { o in
            new.withUnsafeBytes { n in
                var k = 0
                let x = o.baseAddress! + a * stride, y = n.baseAddress! + b * stride
                func word(_ p: UnsafeRawPointer, _ at: Int) -> UInt64 { p.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
                // Four words a step, their differences joined: one branch per 32 bytes.
                while k + 32 <= length {
                    let d = (word(x, k) ^ word(y, k)) | (word(x, k + 8) ^ word(y, k + 8))
                        | (word(x, k + 16) ^ word(y, k + 16)) | (word(x, k + 24) ^ word(y, k + 24))
                    if d != 0 { return false }
                    k += 32
                }
                while k + 8 <= length {
                    if x.loadUnaligned(fromByteOffset: k, as: UInt64.self) != y.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
                    k += 8
                }
                while k < length {
                    if x.load(fromByteOffset: k, as: UInt8.self) != y.load(fromByteOffset: k, as: UInt8.self) { return false }
                    k += 1
                }
                return true
            }
        }
    }

    /// For a setting typed at the top of the session: the layouts in which blocks inside set the
    /// same properties themselves, by layout name, with what to say ("section 0 sets 'items'
    /// itself"). A layout is named when every section of it sets them all, or the layout block.
    static func setInside(_ properties: Set<Property>, _ program: Program) -> [String: String] {
        let layouts = program.hasLayoutBlocks ? Array(zip(program.layoutNames, program.file.layouts))
                                              : [(program.layoutNames.first ?? "", program.file)]
        func written(_ block: BlockRecord) -> String? {
            let found = properties.compactMap { block.properties[$0] }
            guard found.count == properties.count, let w = found.min(by: { $0.span.start < $1.span.start }) else { return nil }
            return w.setting.name.text
        }
        var reasons: [String: String] = [:]
        for (name, block) in layouts {
            if program.hasLayoutBlocks, let setting = written(block) {
                reasons[name] = "layout '\(name)' sets '\(setting)' itself"
                continue
            }
            let settings = block.sections.map(written)
            guard !settings.isEmpty, let setting = settings.first!, settings.allSatisfy({ $0 != nil }) else { continue }
            let numbers = block.sections.indices.map(String.init)
            reasons[name] = numbers.count == 1
                ? "section 0 sets '\(setting)' itself"
                : "sections \(numbers.dropLast().joined(separator: ", ")) and \(numbers.last!) set '\(setting)' themselves"
        }
        return reasons
    }
}
