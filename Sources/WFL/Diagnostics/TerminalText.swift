/// How source text is shown on a terminal: control characters escaped, so that a quoted line
/// cannot clear the screen or set the window title, and the width each scalar takes, so that
/// carets stand under what they mark.
enum TerminalText {
    /// True for scalars a terminal would act on rather than show: C0 and C1 controls (not the
    /// tab), DEL, the line and paragraph separators, and the bidirectional overrides and isolates
    /// (which reorder what follows them on screen).
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The escape shown for a scalar that `needsEscape`: `\u{1B}`.
    static func escape(_ s: Unicode.Scalar) -> String {
        let digits = Array("0123456789ABCDEF")
        var hex = ""
        var v = s.value
        repeat {
            hex.insert(digits[Int(v & 15)], at: hex.startIndex)
            v >>= 4
        } while v > 0
        return "\\u{" + hex + "}"
    }

    /// `text` with every scalar that `needsEscape` escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for s in text.unicodeScalars {
            if needsEscape(s) { out += escape(s) } else { out.unicodeScalars.append(s) }
        }
        return out
    }

    /// The cells a scalar takes on a terminal: 2 for East Asian wide and fullwidth characters and
    /// emoji, 0 for combining marks, the zero width joiner and variation selectors, 1 otherwise.
    /// The main ranges only: no Unicode tables in the core.
    static func width(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }
        switch v {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
             0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF:
            return 0
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
