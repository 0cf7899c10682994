/// `n % d` for a divisor fixed in advance, by a multiplication and shifts instead of a division
/// (Granlund and Montgomery, "Division by invariant integers using multiplication", 1994, fig. 4.1):
/// what a C compiler does for `z % 150`. `random(lo, hi)` with constant bounds takes its remainder
/// this way, once or twice per item; a 64-bit `div` costs several times more.
struct Modulus: Sendable {
    let divisor: UInt64
    private let multiplier: UInt64, shift1: UInt64, shift2: UInt64

    /// For 1 <= `divisor` <= 2^63.
    init(_ divisor: UInt64) {
        precondition(divisor >= 1 && divisor <= 1 << 63)
        self.divisor = divisor
        // l = ceil(log2(d)); m = floor(2^64 * (2^l - d) / d) + 1, which fits in 64 bits.
        let l = UInt64(64 - (divisor - 1).leadingZeroBitCount)
        let high: UInt64 = l == 64 ? 0 &- divisor : (1 << l) &- divisor
        multiplier = divisor.dividingFullWidth((high: high, low: 0)).quotient &+ 1
        shift1 = Swift.min(l, 1)
        shift2 = l == 0 ? 0 : l - 1
    }

    /// `n % divisor`.
    @inline(__always) func remainder(_ n: UInt64) -> UInt64 {
        let t = multiplier.multipliedFullWidth(by: n).high
        let quotient = (t &+ ((n &- t) &>> shift1)) &>> shift2
        return n &- quotient &* divisor
    }

    /// `n % divisor` as a double: below 2^63, so it converts as a signed number (one instruction;
    /// an unsigned 64-bit conversion takes several).
    @inline(__always) func double(_ n: UInt64) -> Double {
        Double(Int64(bitPattern: remainder(n)))
    }
}

/// The language's `%`, the truncating remainder (docs/language.md, "Expressions"), with the bits of
/// `truncatingRemainder(dividingBy:)`, which calls the C library's `fmod` (about 20 ns). Whole
/// operands below 2^53 (`i % 10`, the usual case) take the integer remainder instead: it is exact,
/// has the dividend's sign, and a zero result keeps the dividend's sign as `fmod`'s does.
@inline(__always) func languageRemainder(_ a: Double, _ b: Double) -> Double {
    if abs(a) < 9.0e15, abs(b) < 9.0e15 {
        let ia = Int64(a), ib = Int64(b)
        if Double(ia) == a, Double(ib) == b, ib != 0 {
            let r = ia % ib
            return r != 0 ? Double(r) : (a.sign == .minus ? -0.0 : 0.0)
        }
    }
    return a.truncatingRemainder(dividingBy: b)
}
