/// Output formatted straight into bytes: text, whole numbers and doubles (ECMAScript's
/// `Number::toString`, as `NumberFormat.format`), with no `String` per value. The json and csv
/// writers build their output with it, in pieces that can be formatted independently.

/// A growable byte buffer with the number formatting of docs/usage.md. Reuse one (`removeAll`) to keep
/// its storage and its cache of formatted doubles.
package struct ByteWriter {
    /// What has been written.
    package private(set) var bytes: [UInt8] = []
    /// Doubles whose shortest digits took the slow path, by bit pattern (direct-mapped): a lane
    /// width or a column's x repeats on every row.
    var cacheKeys: [UInt64] = []
    var cacheText: [UInt8] = []
    static let cacheSlots = 1024
    static let cacheWidth = 32

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Empties the buffer, keeping its storage.
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    @inline(__always) package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Appends ASCII or UTF-8 text.
    @inline(__always) package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a `String`'s UTF-8. Labelled, so that a literal takes the `StaticString` overload
    /// instead of becoming a `String` on every row.
    package mutating func append(string text: String) { bytes.append(contentsOf: text.utf8) }

    package mutating func append(contentsOf other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Appends bytes from a buffer (a table row laid out in place).
    @inline(__always) mutating func append(buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    /// A whole number in decimal.
    @inline(__always) package mutating func append(_ n: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buf in
            let k = ByteWriter.digits(n, into: buf.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buf.baseAddress! + 24 - k, count: k))
        }
    }

    /// Writes n's decimal digits (and sign) to end at `p + 24`; returns how many.
    @inline(__always) static func digits(_ n: Int, into p: UnsafeMutablePointer<UInt8>) -> Int {
        var k = 0
        var u = n.magnitude
        repeat {
            k += 1
            p[24 - k] = UInt8(truncatingIfNeeded: 48 &+ u % 10)
            u /= 10
        } while u != 0
        if n < 0 {
            k += 1
            p[24 - k] = 45 // "-"
        }
        return k
    }

    /// A frame's x, y, width and height as numbers, `separator` between them (`", "` in a json
    /// array, `","` in a csv row).
    @inline(__always) package mutating func append(frame f: Frame, separator: StaticString) {
        append(number: f.x)
        append(separator)
        append(number: f.y)
        append(separator)
        append(number: f.width)
        append(separator)
        append(number: f.height)
    }

    /// A double as docs/usage.md says it prints (`NumberFormat.format`).
    @inline(__always) package mutating func append(number v: Double) {
        // Whole numbers below 1e15: their digits (the common case).
        if v == v.rounded(.towardZero), Swift.abs(v) < 1e15 {
            append(Int(v)) // -0 gives 0
            return
        }
        appendFraction(v)
    }

    /// Below this magnitude doubles are closer than 0.001, so each 3-decimal number reads back
    /// to its own double, whose shortest digits are those 3 decimals; above it the spacing is at
    /// least 1/512, the shortest digits have at most 3 decimals anyway, and the number is
    /// written exactly.
    static let roundingLimit = 0x1p43

    /// A double for people (`NumberFormat.forPeople`): rounded to 3 decimals, trailing zeros
    /// dropped, `-0` as `0`. Thousandths as an integer: no search for shortest digits.
    @inline(__always) package mutating func append(roundedNumber v: Double) {
        guard Swift.abs(v) < ByteWriter.roundingLimit else { // also NaN and the infinities
            append(number: v)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf in
            let k = ByteWriter.put(rounded: v, at: buf.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buf.baseAddress!, count: k))
        }
    }

    /// `(v * 1000).rounded()` (halves away from zero) as an integer, for |v| < `roundingLimit`:
    /// truncated by the conversion, then the exact remainder decides (no call to `round`).
    @inline(__always) static func thousandths(_ v: Double) -> Int {
        let t = v * 1000
        var n = Int(t)
        let rest = t - Double(n)
        if rest >= 0.5 { n += 1 } else if rest <= -0.5 { n -= 1 }
        return n
    }

    /// How many bytes `append(roundedNumber:)` writes for `v`, without writing them: column widths.
    @inline(__always) static func roundedWidth(_ v: Double) -> Int {
        guard Swift.abs(v) < ByteWriter.roundingLimit else {
            var w = ByteWriter()
            w.append(number: v)
            return w.bytes.count
        }
        let thousandths = ByteWriter.thousandths(v)
        var m = thousandths.magnitude
        var k = thousandths < 0 ? 1 : 0
        let fraction = m % 1000
        if fraction != 0 {
            // The point and three places, less the trailing zeros.
            k += fraction % 100 != 0 ? (fraction % 10 != 0 ? 4 : 3) : 2
        }
        m /= 1000
        if m < 10 { return k + 1 }
        if m < 100 { return k + 2 }
        if m < 1000 { return k + 3 }
        if m < 10000 { return k + 4 }
        repeat {
            k += 1
            m /= 10
        } while m != 0
        return k
    }

    /// Writes n's digits (and sign) at `p`; returns how many.
    @inline(__always) static func put(_ n: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
        let k = TableFormat.digits(n)
        var u = n.magnitude
        var i = k
        repeat {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: 48 &+ u % 10)
            u /= 10
        } while u != 0
        if n < 0 { p[0] = 45 } // "-"
        return k
    }

    /// Writes ASCII text at `p`; returns how many bytes.
    @inline(__always) static func put(_ text: StaticString, at p: UnsafeMutablePointer<UInt8>) -> Int {
        text.withUTF8Buffer { t in
            p.update(from: t.baseAddress!, count: t.count)
            return t.count
        }
    }

    /// Writes `append(roundedNumber:)`'s bytes at `p`; returns how many.
    @inline(__always) static func put(rounded v: Double, at p: UnsafeMutablePointer<UInt8>) -> Int {
        guard Swift.abs(v) < ByteWriter.roundingLimit else {
            var w = ByteWriter()
            w.append(number: v)
            w.bytes.withUnsafeBufferPointer { p.update(from: $0.baseAddress!, count: $0.count) }
            return w.bytes.count
        }
        let thousandths = ByteWriter.thousandths(v)
        var m = thousandths.magnitude
        var fraction = m % 1000
        m /= 1000
        // From the end: the fraction without its trailing zeros, the point, the whole part.
        let k = roundedWidth(v)
        var i = k
        if fraction != 0 {
            var places = 3
            while fraction % 10 == 0 {
                fraction /= 10
                places -= 1
            }
            for _ in 0..<places {
                i -= 1
                p[i] = UInt8(truncatingIfNeeded: 48 &+ fraction % 10)
                fraction /= 10
            }
            i -= 1
            p[i] = 46 // "."
        }
        repeat {
            i -= 1
            p[i] = UInt8(truncatingIfNeeded: 48 &+ m % 10)
            m /= 10
        } while m != 0
        if thousandths < 0 { p[0] = 45 } // "-"
        return k
    }

    /// 10^d, exact for d <= 22.
    static let powers: [Double] = (0...22).map { d in
        var p = 1.0
        for _ in 0..<d { p *= 10 }
        return p
    }

    @inline(never) mutating func appendFraction(_ v: Double) {
        if cacheKeys.isEmpty {
            cacheKeys = [UInt64](repeating: 0, count: ByteWriter.cacheSlots)
            cacheText = [UInt8](repeating: 0, count: ByteWriter.cacheSlots * ByteWriter.cacheWidth)
        }
        // The cache first: a repeated 17-digit number (a lane's x, its width) would otherwise
        // try all fifteen places of the fast path before coming back here.
        let bits = v.bitPattern
        // Bit pattern 0 is +0, which never comes here, so 0 marks an empty slot.
        let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 54) & (ByteWriter.cacheSlots - 1)
        let base = slot * ByteWriter.cacheWidth
        if cacheKeys[slot] == bits {
            let n = Int(cacheText[base])
            cacheText.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[(base + 1)..<(base + 1 + n)])) }
            return
        }
        if fastDecimal(v) { return }
        // The slow path, remembered per bit pattern.
        let start = bytes.count
        appendShortest(v)
        let count = bytes.count - start
        if count < ByteWriter.cacheWidth {
            cacheKeys[slot] = bits
            cacheText[base] = UInt8(count)
            for k in 0..<count { cacheText[base + 1 + k] = bytes[start + k] }
        }
    }

    /// Any double as `NumberFormat.referenceFormat` writes it (its plain twin, NumberWriterTests):
    /// Swift's shortest round-trip digits (`description`, the one `String` made), laid out as
    /// ECMAScript does straight from its bytes. Most doubles with 17 significant digits come here,
    /// so it must not build more strings: it did, and it was most of the json time.
    mutating func appendShortest(_ v: Double) {
        if v.isNaN { return append("NaN") }
        if v.isInfinite { return append(v < 0 ? "-Infinity" : "Infinity") }
        if v == 0 { return append(UInt8(48)) }
        var text = v.description
        text.withUTF8 { s in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
                let digits = buffer.baseAddress!
                var k = 0, pointAt = -1, exponent = 0, i = 0
                let negative = s[0] == 45
                if negative { i = 1 }
                while i < s.count {
                    let c = s[i]
                    if c == 46 { // "."
                        pointAt = k
                    } else if c == 101 || c == 69 { // "e", "E": the exponent, to the end
                        i += 1
                        var sign = 1
                        if i < s.count, s[i] == 45 || s[i] == 43 {
                            if s[i] == 45 { sign = -1 }
                            i += 1
                        }
                        while i < s.count {
                            exponent = exponent * 10 + Int(s[i] &- 48)
                            i += 1
                        }
                        exponent *= sign
                        break
                    } else if k < 40 {
                        digits[k] = c
                        k += 1
                    }
                    i += 1
                }
                if pointAt < 0 { pointAt = k }
                // value = 0.digits * 10^n, without leading or trailing zeros.
                var n = pointAt + exponent
                var first = 0
                while first < k - 1, digits[first] == 48 {
                    first += 1
                    n -= 1
                }
                while k - first > 1, digits[k - 1] == 48 { k -= 1 }
                let d = UnsafeBufferPointer(start: digits + first, count: k - first)
                let count = d.count
                if negative { append(UInt8(45)) }
                if count <= n && n <= 21 {
                    bytes.append(contentsOf: d)
                    for _ in 0..<(n - count) { append(UInt8(48)) }
                } else if 0 < n && n <= 21 {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[0..<n]))
                    append(UInt8(46))
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[n...]))
                } else if -6 < n && n <= 0 {
                    append("0.")
                    for _ in 0..<(-n) { append(UInt8(48)) }
                    bytes.append(contentsOf: d)
                } else {
                    append(d[0])
                    if count > 1 {
                        append(UInt8(46))
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: d[1...]))
                    }
                    append(UInt8(101)) // "e"
                    append(UInt8(n - 1 >= 0 ? 43 : 45))
                    append(Swift.abs(n - 1))
                }
            }
        }
    }

    /// Doubles of 1e-6 <= |v| < 1e15 that some decimal with at most 15 places reads back to: the
    /// fewest places d such that an integer x with x / 10^d == v exists (an exact division, so
    /// x / 10^d is the double that decimal reads as). The candidates for each d are the integers
    /// next to v * 10^d: any decimal with d places that reads back to v is one of them, or they
    /// read back too (rounding is monotonic). With exactly one candidate at the first d that has
    /// any, those are the shortest digits, the closest to v; otherwise (two, or none by d = 15)
    /// the slow path decides. Returns false when it wrote nothing.
    @inline(__always) mutating func fastDecimal(_ v: Double) -> Bool {
        let a = Swift.abs(v)
        guard a >= 1e-6, a < 1e15 else { return false }
        var d = 1
        while d <= 15 {
            let p = ByteWriter.powers[d]
            let scaled = a * p
            if scaled >= 0x1p52 { return false }
            let c = scaled.rounded()
            var found = -1.0
            var hits = 0
            if c >= 1, (c - 1) / p == a { found = c - 1; hits += 1 }
            if c / p == a { found = c; hits += 1 }
            if (c + 1) / p == a { found = c + 1; hits += 1 }
            if hits == 1 {
                writeDecimal(negative: v < 0, UInt64(found), places: d)
                return true
            }
            if hits > 1 { return false }
            d += 1
        }
        return false
    }

    /// x / 10^places in fixed notation: "0.05", "12.5".
    @inline(__always) mutating func writeDecimal(negative: Bool, _ x: UInt64, places: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buf in
            let p = buf.baseAddress!
            var k = 0
            var u = x
            // Fraction digits, then the point, then the whole part (at least "0").
            for _ in 0..<places {
                k += 1
                p[40 - k] = UInt8(truncatingIfNeeded: 48 &+ u % 10)
                u /= 10
            }
            k += 1
            p[40 - k] = 46 // "."
            repeat {
                k += 1
                p[40 - k] = UInt8(truncatingIfNeeded: 48 &+ u % 10)
                u /= 10
            } while u != 0
            if negative {
                k += 1
                p[40 - k] = 45
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: p + 40 - k, count: k))
        }
    }

    /// A JSON string literal (`JSONFormat.quote`).
    package mutating func append(jsonString s: String) { append(string: JSONFormat.quote(s)) }
}
