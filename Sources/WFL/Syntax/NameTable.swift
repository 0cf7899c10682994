/// Identifiers interned to small integers, looked up by their bytes.
///
/// The parser meets every identifier once or twice; hashing a `String` and building one for each
/// costs more than the rest of parsing a name. Here a name's bytes are hashed straight from the
/// source (FNV-1a), and its `String` is made once per distinct name. What the language knows of a
/// word (a setting, a built-in variable or function, a side of insets) is a table indexed by id.
struct NameTable {
    /// What a word is to the language, whatever the user binds to it.
    struct Known: OptionSet {
        let rawValue: UInt8
        static let variable = Known(rawValue: 1)
        static let function = Known(rawValue: 2)
        static let side = Known(rawValue: 4)
        static let adaptive = Known(rawValue: 8)
    }

    /// What the lookup compares, in one place: the hash, where the name's bytes are in `arena`,
    /// its length, and its first eight bytes (zero-padded), so that a name of eight bytes or
    /// fewer is compared without reading `arena`.
    private struct Entry {
        var hash: UInt64
        var head: UInt64
        var start: Int32
        var length: Int32
    }

    private var slots: [Int32]
    private var mask: Int
    private var entries: [Entry] = []
    private var arena: [UInt8] = []
    /// The text of each id.
    private(set) var strings: [String] = []
    /// For each id: its row in `SettingTable.all` plus one, or 0.
    private(set) var setting: [Int16] = []
    private(set) var known: [Known] = []
    /// For each id: how many arguments the built-in function of that name takes, if it is one
    /// (a call looked it up in a dictionary by its `String`, hashing the name each time).
    private(set) var functionArity: [Arity?] = []

    /// The table of the words the language knows, made once: each parser starts from a copy
    /// (the REPL makes a parser for every entry, and interning some 200 words cost more than
    /// reading the entry).
    private static let languageWords = NameTable(languageWords: ())

    init() {
        self = NameTable.languageWords
    }

    private init(languageWords: Void) {
        slots = [Int32](repeating: -1, count: 1024)
        mask = 1023
        for (k, info) in SettingTable.all.enumerated() { setting[Int(intern(info.name))] = Int16(k + 1) }
        for v in Builtins.variables { known[Int(intern(v))].insert(.variable) }
        for f in Builtins.functions + Builtins.expectFunctions {
            let id = Int(intern(f.name))
            known[id].insert(.function)
            functionArity[id] = f.arity
        }
        for s in SettingTable.sides { known[Int(intern(s))].insert(.side) }
        known[Int(intern("adaptive"))].insert(.adaptive)
    }

    var count: Int { strings.count }

    mutating func intern(_ text: String) -> Int32 {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { intern($0, 0, $0.count) }
    }

    /// The id of the bytes `start..<end` of `buf`, added when new.
    @inline(__always)
    mutating func intern(_ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int32 {
        let length = end - start
        let (h, head) = NameTable.hash(buf, start, end)
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let id = slots.withUnsafeBufferPointer { $0[slot] }
            if id < 0 { break }
            let e = entries.withUnsafeBufferPointer { $0[Int(id)] }
            if e.hash == h, e.head == head, Int(e.length) == length,
               length <= 8 || equal(Int(e.start) + 8, buf, start + 8, length - 8) { return id }
            slot = (slot + 1) & mask
        }
        let id = Int32(strings.count)
        slots[slot] = id
        entries.append(Entry(hash: h, head: head, start: Int32(truncatingIfNeeded: arena.count), length: Int32(truncatingIfNeeded: length)))
        arena.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<end]))
        strings.append(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<end]), as: UTF8.self))
        setting.append(0)
        known.append([])
        functionArity.append(nil)
        if strings.count * 2 > mask { grow() }
        return id
    }

    /// True when `text` has an id (a word of the language, or one interned since).
    func contains(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { b in
            let (h, head) = NameTable.hash(b, 0, b.count)
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 {
                let e = entries[Int(slots[slot])]
                if e.hash == h, e.head == head, Int(e.length) == b.count, b.count <= 8 || equal(Int(e.start) + 8, b, 8, b.count - 8) { return true }
                slot = (slot + 1) & mask
            }
            return false
        }
    }

    /// The hash of the bytes `start..<end` of `buf`, and their first eight bytes (zero-padded).
    @inline(__always)
    private static func hash(_ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (hash: UInt64, head: UInt64) {
        // Eight bytes at a time, the last word zero-padded: a name is hashed in a step or two
        // (a byte at a time, the multiplications of a long name were a chain of dependent steps).
        let head = NameTable.word(buf, start, end)
        var h = (head ^ UInt64(truncatingIfNeeded: end - start)) &* 0x9E37_79B9_7F4A_7C15
        var k = start + 8
        while k < end {
            h = (h ^ NameTable.word(buf, k, end)) &* 0x9E37_79B9_7F4A_7C15
            k += 8
        }
        // The product's high half depends on every byte; its low bits only on the first ones.
        h ^= h >> 32
        return (h, head)
    }

    /// The bytes `k ..< min(k + 8, end)` as a little-endian word, zero-padded.
    @inline(__always)
    private static func word(_ buf: UnsafeBufferPointer<UInt8>, _ k: Int, _ end: Int) -> UInt64 {
        let n = Swift.min(8, end - k)
        if k + 8 <= buf.count, let base = buf.baseAddress {
            // The eight bytes are inside the buffer: one load, the bytes past `end` masked off.
            let w = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
            return n == 8 ? w : w & ((1 << (UInt64(n) * 8)) - 1)
        }
        var w: UInt64 = 0
        for j in 0..<n { w |= UInt64(buf[k + j]) << (UInt64(j) * 8) }
        return w
    }

    /// True when `length` bytes of `arena` from `at` are those of `buf` from `from`.
    @inline(__always)
    private func equal(_ at: Int, _ buf: UnsafeBufferPointer<UInt8>, _ from: Int, _ length: Int) -> Bool {
        // `length` is the entry's too (checked first): both ranges lie inside their buffers.
        arena.withUnsafeBufferPointer { a in
            for k in 0..<length where a[at + k] != buf[from + k] { return false }
            return true
        }
    }

    private mutating func grow() {
        mask = mask * 2 + 1
        slots = [Int32](repeating: -1, count: mask + 1)
        for (id, e) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: e.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    /// The row in `SettingTable.all` of a word, if it is a setting's name.
    @inline(__always) func settingRow(_ id: Int32) -> Int? {
        let k = setting[Int(id)]
        return k == 0 ? nil : Int(k) - 1
    }
}
