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

    private var slots: [Int32]
    private var mask: Int
    private var hashes: [UInt64] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
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
        var h: UInt64 = 0xcbf29ce484222325
        for k in start..<end { h = (h ^ UInt64(buf[k])) &* 0x100000001b3 }
        var slot = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
        let length = end - start
        while true {
            let id = slots[slot]
            if id < 0 { break }
            if hashes[Int(id)] == h, lengths[Int(id)] == length, equal(Int(id), buf, start, length) { return id }
            slot = (slot + 1) & mask
        }
        let id = Int32(strings.count)
        slots[slot] = id
        hashes.append(h)
        starts.append(arena.count)
        lengths.append(length)
        arena.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<end]))
        strings.append(String(decoding: UnsafeBufferPointer(rebasing: buf[start..<end]), as: UTF8.self))
        setting.append(0)
        known.append([])
        functionArity.append(nil)
        if strings.count * 2 > mask { grow() }
        return id
    }

    @inline(__always)
    private func equal(_ id: Int, _ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Bool {
        let s = starts[id]
        // `lengths[id] == length`, checked first, keeps both ranges inside their buffers.
        return arena.withUnsafeBufferPointer { a in
            let p = a.baseAddress! + s, q = buf.baseAddress! + start
            for k in 0..<length where p[k] != q[k] { return false }
            return true
        }
    }

    private mutating func grow() {
        mask = mask * 2 + 1
        slots = [Int32](repeating: -1, count: mask + 1)
        for (id, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
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
