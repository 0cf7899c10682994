/// `n % d` for a divisor fixed in advance, by a multiplication and shifts instead of a division
/// (Granlund and Montgomery, "Division by invariant integers using multiplication", 1994, fig. 4.1):
/// what a C compiler does for `z % 150`. `random(lo, hi)` with constant bounds takes its remainder
/// this way, once or twice per item; a 64-bit `div` costs several times more.
struct Modulus: Sendable {
    let divisor: UInt64
    private let multiplier: UInt64, shift1: UInt64, shift2: UInt64
    /// True when the quotient is the high word of n * multiplier shifted right by `shift2`, with
    /// no correction step (what a C compiler emits for `z % 120` or `z % 40`).
    let short: Bool

    /// For 1 <= `divisor` <= 2^63.
    init(_ divisor: UInt64) {
        precondition(divisor >= 1 && divisor <= 1 << 63)
        self.divisor = divisor
        // The short form (Granlund and Montgomery, theorem 4.2): with m = ceil(2^(64+s) / d) below
        // 2^64 and m * d - 2^(64+s) <= 2^s, floor(n / d) = floor(n * m / 2^(64+s)) for every n
        // below 2^64. m fits when 2^s < d; the smallest s that meets the bound is taken.
        var s: UInt64 = 0
        while s < 63, 1 << s < divisor {
            let (q, r) = divisor.dividingFullWidth((high: 1 << s, low: 0))
            if r == 0 || divisor - r <= 1 << s {
                (multiplier, shift1, shift2, short) = (r == 0 ? q : q + 1, 0, s, true)
                return
            }
            s += 1
        }
        // l = ceil(log2(d)); m = floor(2^64 * (2^l - d) / d) + 1, which fits in 64 bits.
        let l = UInt64(64 - (divisor - 1).leadingZeroBitCount)
        let high: UInt64 = l == 64 ? 0 &- divisor : (1 << l) &- divisor
        multiplier = divisor.dividingFullWidth((high: high, low: 0)).quotient &+ 1
        shift1 = Swift.min(l, 1)
        shift2 = l == 0 ? 0 : l - 1
        short = false
    }

    /// `n % divisor`.
    @inline(__always) func remainder(_ n: UInt64) -> UInt64 {
        remainder(n, short: short)
    }

    /// `n % divisor`, given `short` (a constant where a loop is compiled for each form: the
    /// compiler otherwise computes both forms and selects one).
    @inline(__always) func remainder(_ n: UInt64, short: Bool) -> UInt64 {
        let t = multiplier.multipliedFullWidth(by: n).high
        let quotient = short ? t &>> shift2 : (t &+ ((n &- t) &>> shift1)) &>> shift2
        return n &- quotient &* divisor
    }

    /// `n % divisor` as a double: below 2^63, so it converts as a signed number (one instruction;
    /// an unsigned 64-bit conversion takes several).
    @inline(__always) func double(_ n: UInt64, short: Bool? = nil) -> Double {
        Double(Int64(bitPattern: remainder(n, short: short ?? self.short)))
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
