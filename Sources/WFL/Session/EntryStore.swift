/// The statements of a REPL session as typed, one string per entry, with the name of its layout
/// and the steps that `:undo` takes back. It knows text only: running it is `IncrementalPipeline`'s.

/// The entries of a session, and how to go back.
package struct EntryStore {
    /// The accepted entries, as typed (several lines for a block), in order.
    package private(set) var entries: [String] = []
    /// The name of the layout when the session has no `layout` blocks (the stem of a loaded file,
    /// or `repl`).
    package private(set) var name: String

    /// How to go back, a step a change.
    private enum UndoStep {
        /// The session before a load or reset.
        case whole(entries: [String], name: String)
        /// An entry added at `position` in place of the entries `replaced` (their indices, in
        /// order, in the session before): not a copy of the session, which made memory grow with
        /// the square of the entries.
        case added(position: Int, replaced: [(Int, String)])
    }

    private var undoStack: [UndoStep] = []
    /// What each entry sets when it is a single setting (`settingProperties` of the entry alone),
    /// kept so that typing a setting does not parse every earlier entry again.
    private var entryProperties: [String: Set<Property>?] = [:]
    /// Parallel to `entries`: what each sets when it is a single setting, once asked (the outer
    /// nil: not yet), so that typing a setting does not hash every earlier entry's text again.
    private var known: [Set<Property>??] = []

    init(name: String) {
        self.name = name
    }

    /// True when `:undo` has something to undo.
    var canUndo: Bool { !undoStack.isEmpty }

    /// The session as a `.wfl` file: its entries, one after another, ending with a newline.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// `text` as bytes, kept as entries come (an entry appended adds its bytes, not the whole
    /// session's again).
    private(set) var bytes: [UInt8] = []

    /// Each entry with where it starts in the session's text.
    var entryStarts: [(start: Int, text: String)] { EntryStore.starts(of: entries) }

    /// Each of `entries` with where it starts in their text, one after another.
    static func starts(of entries: [String]) -> [(start: Int, text: String)] {
        var out: [(start: Int, text: String)] = []
        out.reserveCapacity(entries.count)
        var start = 0
        for e in entries {
            out.append((start, e))
            start += e.utf8.count + 1
        }
        return out
    }

    // MARK: - Changes

    /// Makes `composed` the session, keeping how to go back: the entry's place and the entries
    /// it replaced.
    mutating func accept(_ composed: Composed) {
        undoStack.append(.added(position: composed.position, replaced: composed.replaced.map { ($0, entries[$0]) }))
        let entry = composed.bytes[composed.base..<(composed.base + composed.length)]
        if let list = composed.entries {
            // The entries minus those replaced, with the new one at its position.
            for k in composed.replaced.sorted(by: >) where k < known.count { known.remove(at: k) }
            known.insert(nil, at: Swift.min(composed.position, known.count))
            entries = list
            bytes = composed.bytes
        } else {
            // Appended: the entry and its bytes go at the end, nothing else is copied.
            entries.append(String(decoding: entry, as: UTF8.self))
            known.append(nil)
            bytes += entry
            bytes.append(0x0A)
        }
        if known.count != entries.count { known = Array(repeating: nil, count: entries.count) }
    }

    /// Replaces every entry (`:load`, `:reset`); `:undo` brings them back.
    mutating func replaceAll(with newEntries: [String], name newName: String) {
        undoStack.append(.whole(entries: entries, name: name))
        set(newEntries, name: newName)
    }

    /// Takes back the last change; false when there is none.
    mutating func undo() -> Bool {
        guard let last = undoStack.popLast() else { return false }
        switch last {
        case .whole(let e, let n):
            set(e, name: n)
        case .added(let position, let replaced):
            var previous = entries
            previous.remove(at: position)
            for (k, e) in replaced { previous.insert(e, at: k) }
            set(previous, name: name)
        }
        return true
    }

    private mutating func set(_ newEntries: [String], name newName: String) {
        entries = newEntries
        known = Array(repeating: nil, count: entries.count)
        name = newName
        bytes = entries.isEmpty ? [] : Array((entries.joined(separator: "\n") + "\n").utf8)
    }

    // MARK: - Composing the source

    /// What an expression typed alone is wrapped in, so that it is parsed and evaluated as an
    /// expectation's condition with the session's names.
    static let wrapper = Array("expect ".utf8)

    /// The session's text with an entry in it, and where the entry starts.
    struct Composed {
        var bytes: [UInt8]
        var base: Int
        var length: Int
        /// The entries of the session with the new one in its place (statements only); nil for a
        /// statement appended at the end (the store's entries, then it).
        var entries: [String]?
        /// For an expression: where the `expect` stands that wraps it (`EntryStore.wrapper`).
        var wrapper: Int? = nil
        /// The other entries where they start in `bytes`; nil: `earlier`, one after another from
        /// the start (an appended entry; made only when a diagnostic names another entry).
        var otherStarts: [(start: Int, text: String)]? = nil
        var earlier: [String] = []
        /// The other entries: where each starts in `bytes`, and its text.
        var others: [(start: Int, text: String)] { otherStarts ?? EntryStore.starts(of: earlier) }
        /// For a statement: its index in `entries`, and the indices of the session's entries it
        /// replaces (for `:undo`).
        var position = 0
        var replaced: [Int] = []
    }

    /// An expression entry as the `expect` it is wrapped in, after the statements, inside the
    /// `layout` block whose `}` stands at `close` when there is one.
    func composeExpression(_ entry: [UInt8], close: Int?) -> Composed {
        let session = bytes
        let prefix = EntryStore.wrapper
        if let close, close <= session.count {
            var others = entryStarts
            let head = Array(session[..<close]) + [0x0A] + prefix
            let composed = head + entry + [0x0A] + Array(session[close...])
            let inserted = composed.count - session.count
            others = others.map { ($0.start >= close ? $0.start + inserted : $0.start, $0.text) }
            return Composed(bytes: composed, base: head.count, length: entry.count, entries: entries,
                            wrapper: head.count - prefix.count, otherStarts: others)
        }
        let head = session + prefix
        return Composed(bytes: head + entry + [0x0A], base: head.count, length: entry.count, entries: entries,
                        wrapper: head.count - prefix.count, earlier: entries)
    }

    /// The entries minus `replacing` and a statement entry: at the end, or in the place of the
    /// first entry it replaces with `inPlace`.
    func composeStatement(_ entry: [UInt8], replacing: [Int], inPlace: Bool = false) -> Composed {
        if replacing.isEmpty {
            return appended(bytes + entry + [0x0A], length: entry.count)
        }
        let entryText = String(decoding: entry, as: UTF8.self)
        var list: [String] = []
        var position: Int? = nil
        for (k, e) in entries.enumerated() {
            if replacing.contains(k) {
                if inPlace, position == nil {
                    position = list.count
                    list.append(entryText)
                }
                continue
            }
            list.append(e)
        }
        if position == nil {
            position = list.count
            list.append(entryText)
        }
        var out: [UInt8] = []
        var base = 0
        var others: [(start: Int, text: String)] = []
        for (k, e) in list.enumerated() {
            if k > 0 { out.append(0x0A) }
            if k == position { base = out.count } else { others.append((out.count, e)) }
            out += Array(e.utf8)
        }
        out.append(0x0A)
        return Composed(bytes: out, base: base, length: entry.count, entries: list, otherStarts: others,
                        position: position ?? list.count - 1, replaced: replacing.sorted())
    }

    /// A statement entry of `length` bytes at the end of the session, whose text with it is `bytes`.
    func appended(_ bytes: [UInt8], length: Int) -> Composed {
        Composed(bytes: bytes, base: bytes.count - length - 1, length: length, entries: nil, earlier: entries, position: entries.count)
    }

    // MARK: - Settings typed again

    /// The properties that `statements` set when they are a single setting, else nil.
    static func settingProperties(_ statements: [Statement]) -> Set<Property>? {
        guard statements.count == 1, case .setting(let s) = statements[0].kind, let info = SettingTable.info(s.name.text) else {
            return nil
        }
        return Set(info.properties(of: s.arguments))
    }

    /// The properties an entry sets when it is a single setting, else nil.
    mutating func properties(ofEntry e: String) -> Set<Property>? {
        if let known = entryProperties[e] { return known }
        let found = EntryStore.settingProperties(Parser.parse(SourceFile(name: name, text: e)).tree.statements)
        entryProperties[e] = .some(found)
        return found
    }

    /// The indices of the entries that a setting setting `properties` replaces: those that set
    /// nothing else.
    mutating func replaced(by properties: Set<Property>) -> [Int] {
        var out: [Int] = []
        if known.count != entries.count { known = Array(repeating: nil, count: entries.count) }
        for k in entries.indices {
            if known[k] == nil { known[k] = .some(self.properties(ofEntry: entries[k])) }
            if let earlier = known[k]!, earlier.isSubset(of: properties) { out.append(k) }
        }
        return out
    }

    // MARK: - Files

    /// A file's text cut into entries: whole lines, each run of lines ending with the last line
    /// of a top-level statement (comments go with the statement after them; those at the end of
    /// the file with the last one).
    static func split(_ file: SourceFile, _ tree: SyntaxTree) -> [String] {
        var bytes = file.bytes
        if file.hasBOM { bytes.removeFirst(3) }
        let offset = file.hasBOM ? 3 : 0
        var pieces: [String] = []
        var start = 0
        for st in tree.statements {
            let endLine = file.lineIndex(of: Swift.max(st.span.start, st.span.end - 1))
            let lineEnd = endLine + 1 < file.lineStarts.count ? file.lineStarts[endLine + 1] - 1 - offset : bytes.count
            guard lineEnd >= start else { continue }
            pieces.append(trimLines(bytes[start..<lineEnd]))
            start = Swift.min(lineEnd + 1, bytes.count)
        }
        if start < bytes.count {
            let rest = trimLines(bytes[start...])
            if !rest.isEmpty {
                if pieces.isEmpty { pieces.append(rest) } else { pieces[pieces.count - 1] += "\n" + rest }
            }
        }
        return pieces.filter { !$0.isEmpty }
    }

    /// Text without CRs, and without blank lines at either end.
    static func trimLines(_ bytes: ArraySlice<UInt8>) -> String {
        var lines = String(decoding: bytes.filter { $0 != 0x0D }, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        while let f = lines.first, f.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
        while let l = lines.last, l.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
