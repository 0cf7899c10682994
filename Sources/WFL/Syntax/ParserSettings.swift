/// Settings and their arguments, checked against `SettingTable` as they are read.

extension Parser {
    // setting = IDENT ( wordArgument | sizeArgument | lanesArgument | insetsArgument | deviceArgument | valueArguments ) ;
    mutating func parseSetting(in context: Context) -> Statement? { parseSetting(in: context, id: nameID(tok)) }

    /// `parseSetting(in:)` when the id of the current word is known.
    mutating func parseSetting(in context: Context, id: Int32) -> Statement? {
        let nameTok = tok
        let name = Name(names.strings[Int(id)], nameTok.span)
        guard let row = names.settingRow(id) else {
            if let brace = braceOnThisLine() {
                unknownBlock(name, brace: brace)
            } else {
                unknownSetting(name, id)
            }
            return nil
        }
        let info = SettingTable.all[row]
        // `when`, `anchor` and `offset` exist only in an `attach` block, which holds only them,
        // `size`, `zIndex` and `let`.
        if info.level == .attached, context != .attach, !(info.name == "offset" && (context == .appear || context == .disappear)) {
            let blocks = info.name == "offset" ? "an 'attach', 'appear' or 'disappear' block" : "an 'attach' block"
            report(.error(.unknownSetting, "unknown setting '\(name.text)'", at: name.span,
                          help: "'\(name.text)' stands only inside \(blocks): 'attach badge { \(info.example) }'"
                              + (info.name == "offset" ? " or 'disappear { offset 0 x 40 }'" : "")))
            return nil
        }
        if info.level == .group, context != .group {
            report(.error(.unknownSetting, "unknown setting '\(name.text)'", at: name.span,
                          help: info.name == "frame" ? "'frame' stands only inside a custom group: 'group custom gw x 200 count 2 { frame 0 0 gw gh }'"
                              : "'\(name.text)' stands only inside a 'group horizontal' or 'group vertical' block: 'group horizontal gw x 100 { \(info.example); item 50 x gh }'"))
            return nil
        }
        if context == .attach, info.level != .attached, info.name != "size", info.name != "zIndex" {
            report(.error(.notInAttach, "'\(name.text)' cannot stand inside an 'attach' block", at: name.span,
                          help: "an 'attach' block holds 'when', 'size', 'anchor', 'offset', 'zIndex' and 'let'"))
            return nil
        }
        advance()
        if info.level == .layout, context == .section {
            reportAndContinue(.error(.layoutOnlySetting, "'\(name.text)' applies to a whole layout and cannot be set in a section", at: name.span,
                                     help: "move it out of the section, to the layout or the top of the file"))
        }
        if atStatementEnd {
            report(.error(.missingValue, "missing value for '\(name.text)'", at: name.span, help: "write, for example, '\(info.example)'"))
            return nil
        }
        if at(.assign) {
            report(.error(.equalsInSetting, "settings take no '='", at: tok.span, help: "write '\(info.example)'"))
            return nil
        }
        // The arguments go straight into the store, from `first` on.
        let first = beginArguments()
        let read: Bool
        switch info.shape {
        case .word(let words): read = parseWordArgument(info, words)
        case .size: read = parseSizeArgument(info)
        case .lanes: read = parseLanesArgument(info)
        case .insets: read = parseInsetsArgument(info, from: first)
        case .values(let lo, let hi): read = parseValueArguments(info, min: lo, max: hi, from: first)
        case .device: read = parseDeviceArgument(info)
        }
        guard read else {
            argumentStore.unsafelyUnwrapped.truncate(to: first)
            return nil
        }
        let arguments = pendingArguments(from: first)
        var mask = SettingTable.propertyMasks[row]
        // Only insets take named sides (a test of the shape first: reading `arguments.first`
        // copied a 72-byte argument with its reference counts).
        if case .insets = info.shape, !arguments.isEmpty, case .side = arguments[0] { mask = info.propertyMask(of: arguments) }
        noteProperties(mask, of: name)
        return Statement(kind: .setting(Setting(name: name, arguments: arguments)), span: Span(name.span.start, prevEnd))
    }

    /// The most arguments one setting takes (`insets` reads a fifth to say there are too many).
    static let maxSettingArguments = 5

    /// Makes room in the store for one setting's arguments and returns where they will start. A
    /// new store has twice the room of the one before, up to 256, so that a short file (a REPL
    /// entry) holds a small one.
    mutating func beginArguments() -> Int {
        if let store = argumentStore, store.room >= Parser.maxSettingArguments { return store.count }
        argumentStore = ArgumentStore.make(capacity: min(256, max(8, 2 * (argumentStore?.size ?? 0))))
        return 0
    }

    /// Adds an argument of the setting being read.
    func pushArgument(_ a: consuming Argument) { argumentStore.unsafelyUnwrapped.append(a) }

    /// The arguments of the setting being read, pushed from `first` on.
    func pendingArguments(from first: Int) -> SettingArguments {
        SettingArguments(store: argumentStore, start: first, count: argumentStore.unsafelyUnwrapped.count - first)
    }

    /// The warning for setting one thing twice in a block.
    mutating func noteProperties(_ mask: PropertyMask, of name: Name) {
        let top = scopes.count - 1
        let again = scopes[top].propertyMask & mask
        scopes[top].propertyMask |= mask
        if !again.isEmpty {
            let bit = again.lowest
            if let earlier = setterStack[scopes[top].setterMark...].last(where: { $0.bit == bit })?.span {
                let earlierText = source.text(earlier)
                let message: DiagnosticText = earlierText == name.text
                    ? "'\(name.text)' is set twice in this block; the later one wins"
                    : "'\(name.text)' sets what '\(earlierText)' already set in this block; the later one wins"
                warn(.warning(.setTwice, message, at: name.span, notes: [Note("set earlier here", span: earlier)]))
            }
        }
        var bits = mask
        while !bits.isEmpty {
            setterStack.append((bits.lowest, name.span))
            bits.removeLowest()
        }
    }

    /// The index of a `{` after the current token on its line (outside brackets), if any: a
    /// setting never takes one, so the line opens a block.
    func braceOnThisLine() -> Int? {
        var k = pos + 1, open = 0
        while k < tokens.count {
            switch tokens[k].kind {
            case .eof, .semicolon, .rBrace: return nil
            case .newline: if open == 0 { return nil }
            case .lParen, .lBracket: open += 1
            case .rParen, .rBracket: open -= 1
            case .lBrace: return open == 0 ? k : nil
            default: break
            }
            k += 1
        }
        return nil
    }

    /// An unknown word on a line that opens a block (`secton {`, `layuot feed {`): a block
    /// keyword misspelled. One error, and the block is stepped over (braces counted), so that
    /// its statements and its `}` do not give more.
    mutating func unknownBlock(_ name: Name, brace: Int) {
        let blocks = ["layout", "section", "attach", "update", "appear", "disappear", "scroll", "group", "item"]
        report(.error(.unknownSetting, "unknown block '\(name.text)'", at: name.span,
                      help: Suggest.didYouMean(name.text, among: blocks)
                          ?? "a block starts with 'layout', 'section', 'attach', 'update', 'appear', 'disappear', 'scroll', 'group' or 'item'"))
        while pos < brace { advance() }
        _ = skipBlock(keyword: name.span, name: nil, open: tok.span)
    }

    mutating func unknownSetting(_ name: Name, _ id: Int32) {
        var help = Suggest.didYouMean(name.text, among: SettingTable.names)
        let after = next
        if after.kind == .assign {
            help = "to name a value, write 'let \(name.text) = ...'"
        } else if help == nil, lookup(id) != nil || names.known[Int(id)].contains(.variable) {
            help = "an expression cannot stand alone in a file: use it in a setting or an 'expect'"
        }
        report(.error(.unknownSetting, "unknown setting '\(name.text)'", at: name.span, help: help))
    }

    // wordArgument = IDENT ;
    mutating func parseWordArgument(_ info: SettingInfo, _ words: [String]) -> Bool {
        let t = tok
        var choices: String { listWords(words) }
        if t.kind == .identifier {
            // The interned text: no `String` made for each keyword value.
            let id = nameID(t)
            let word = names.strings[Int(id)]
            guard words.contains(word) else {
                report(.error(.badKeyword, "'\(word)' is not a value of '\(info.name)'", at: t.span,
                              help: Suggest.didYouMean(word, among: words) ?? "'\(info.name)' takes \(choices)"))
                return false
            }
            advance()
            pushArgument(.word(Name(word, t.span)))
            return true
        }
        if t.kind == .string, words.contains(stringValue(t)) {
            report(.error(.badKeyword, "'\(info.name)' takes a bare word, not a string", at: t.span,
                          help: "write '\(info.name) \(stringValue(t))'"))
            return false
        }
        if t.kind == .error {
            reportUnexpected(expected: "")
            return false
        }
        report(.error(.badKeyword, "'\(info.name)' takes one of \(choices), not \(describe(t))", at: t.span,
                      help: "write, for example, '\(info.example)'"))
        return false
    }

    // deviceArgument = IDENT [ "portrait" | "landscape" ] ;
    mutating func parseDeviceArgument(_ info: SettingInfo) -> Bool {
        let t = tok
        guard t.kind == .identifier else {
            report(.error(.unknownDevice, "'\(info.name)' takes a device name, not \(describe(t))", at: t.span,
                          help: "write, for example, '\(info.example)'"))
            return false
        }
        let name = text(t)
        guard Devices.preset(name) != nil else {
            report(.error(.unknownDevice, "unknown device '\(name)'", at: t.span,
                          help: Suggest.didYouMean(name, among: Devices.names) ?? "the devices are \(listWords(Devices.names))"))
            return false
        }
        advance()
        pushArgument(.word(Name(name, t.span)))
        if atStatementEnd { return true }
        let o = tok
        let words = Orientation.allCases.map(\.rawValue)
        guard o.kind == .identifier, words.contains(text(o)) else {
            report(.error(.badKeyword, "'\(info.name) \(name)' takes 'portrait' or 'landscape' after the name, not \(describe(o))", at: o.span,
                          help: Suggest.didYouMean(o.kind == .identifier ? text(o) : "", among: words) ?? "write '\(info.name) \(name) landscape'"))
            return false
        }
        advance()
        pushArgument(.word(Name(text(o), o.span)))
        return true
    }

    // sizeArgument = expr "x" expr ;
    mutating func parseSizeArgument(_ info: SettingInfo) -> Bool {
        guard let w = argumentExpression(info) else { return false }
        guard isWord(tok, "x") else {
            // `estimate` takes a length (a waterfall) or a size (flow, shelf): the resolver,
            // which knows the engine, checks which.
            if atStatementEnd, info.name == "estimate" {
                pushArgument(.value(w))
                return true
            }
            if atStatementEnd {
                report(.error(.badArguments, "'\(info.name)' takes a size 'W x H', not one value", at: w.span,
                              help: "write, for example, '\(info.example)'"))
            } else {
                reportUnexpected(expected: "'x' between the two sides of the size",
                                 help: "write, for example, '\(info.example)'")
            }
            return false
        }
        let xSpan = tok.span
        advance()
        if atStatementEnd {
            report(.error(.missingValue, "missing the height after 'x' in '\(info.name)'", at: xSpan,
                          help: "write, for example, '\(info.example)'"))
            return false
        }
        guard let h = argumentExpression(info) else { return false }
        pushArgument(.size(w, h, w.span.to(h.span)))
        return true
    }

    // lanesArgument = "adaptive" "(" expr ")" | expr ;
    mutating func parseLanesArgument(_ info: SettingInfo) -> Bool {
        guard let e = argumentExpression(info) else { return false }
        if case .call(let call) = e, case let callee = call.callee, callee.text == "adaptive" {
            let args = call.arguments, span = call.span
            // Here 'adaptive(MIN)' is in its place: drop the error its call left pending.
            pending.removeAll { $0.span == callee.span }
            guard args.count == 1 else {
                report(.error(.badArguments, "'adaptive' takes one value, the smallest lane size, not \(args.count)", at: span,
                              help: "write, for example, '\(info.name) adaptive(150)'"))
                return false
            }
            if extraArgumentsLeft(info) { return false }
            pushArgument(.adaptive(args[0], span))
            return true
        }
        if extraArgumentsLeft(info) { return false }
        pushArgument(.value(e))
        return true
    }

    // insetsArgument = side expr { side expr } | expr { expr } ;
    // side = "top" | "left" | "bottom" | "right" ;
    mutating func parseInsetsArgument(_ info: SettingInfo, from first: Int) -> Bool {
        // The arguments read so far are those pushed from `first` on.
        var count: Int { argumentStore.unsafelyUnwrapped.count - first }
        // A side word first is the named form even when a `let` has that name: keyword positions
        // win (docs/language.md); `insets (top)` reads the value.
        if let firstSide = sideWordID() {
            // The first side was interned by the test above; the others here.
            var nextSide: Int32? = firstSide
            while let sideID = nextSide {
                let side = Name(names.strings[Int(sideID)], tok.span)
                advance()
                if let earlier = pendingArguments(from: first).first(where: { if case .side(let n, _) = $0 { return n.text == side.text } else { return false } }) {
                    report(.error(.badSide, "the side '\(side.text)' is given twice", at: side.span,
                                  notes: [Note("first given here", span: earlier.span)]))
                    return false
                }
                if atStatementEnd || !canStartExpression {
                    // A side that is also a visible name: say how to read its value.
                    let asValue: String? = count == 0 && (lookup(sideID) != nil || names.known[Int(sideID)].contains(.variable))
                        ? "to use the value of '\(side.text)', write it in parentheses: '\(info.name) (\(side.text))'" : nil
                    if atStatementEnd {
                        report(.error(.missingValue, "missing value after '\(side.text)'", at: side.span,
                                      help: asValue ?? "write, for example, '\(info.name) \(side.text) 10'"))
                    } else {
                        reportUnexpected(expected: "a value after '\(side.text)'", help: asValue)
                    }
                    return false
                }
                let from = tok.span.start
                // Checked before it joins the arguments, which it then moves into (reading it
                // back copied a 72-byte argument with its reference counts).
                let e = parseExpr()
                if panicking { return false }
                warnSpacedMinus(e, info, from: from)
                pushArgument(.side(side, consume e))
                nextSide = sideWordID()
            }
            if !atStatementEnd {
                if canStartExpression {
                    report(.error(.badSide, "'\(info.name)' takes named sides or plain values, not both", at: tok.span,
                                  help: "name every side: '\(info.name) top 10 left 4'"))
                } else {
                    reportUnexpected(expected: "a side ('top', 'left', 'bottom' or 'right')")
                }
                return false
            }
            return true
        }
        if tok.kind == .identifier, !atSideLikeName(), let guess = Suggest.closest(to: text(tok), among: SettingTable.sides) {
            report(.error(.badSide, "unknown side '\(text(tok))'", at: tok.span,
                          help: "did you mean '\(guess)'? The sides are top, left, bottom and right"))
            return false
        }
        while !atStatementEnd, canStartExpression, count < Parser.maxSettingArguments {
            let from = tok.span.start
            let e = parseExpr()
            if panicking { return false }
            warnSpacedMinus(e, info, from: from)
            pushArgument(.value(consume e))
        }
        if count == 0 {
            reportUnexpected(expected: "a value for '\(info.name)'")
            return false
        }
        if ![1, 2, 4].contains(count) || !atStatementEnd {
            if !atStatementEnd, !canStartExpression {
                reportUnexpected(expected: "another value or the end of the line")
                return false
            }
            let args = pendingArguments(from: first)
            let span = args[0].span.to(args[args.count - 1].span)
            report(.error(.badArguments, "'\(info.name)' takes 1, 2 or 4 values, not \(args.count)\(args.count >= 5 ? " or more" : "")", at: span,
                          help: "one value for all sides, two for vertical and horizontal, four for top, left, bottom and right; or name them: '\(info.name) top 10 left 4'"))
            return false
        }
        return true
    }

    /// The name id of the current word when it is a side (the loop over named sides reads it
    /// once, where it interned each side twice).
    mutating func sideWordID() -> Int32? {
        guard tok.kind == .identifier else { return nil }
        let id = nameID(tok)
        return names.known[Int(id)].contains(.side) ? id : nil
    }

    /// True when the current word is a name that is visible here (so not a misspelt side).
    mutating func atSideLikeName() -> Bool {
        let id = nameID(tok)
        return lookup(id) != nil || !names.known[Int(id)].intersection([.variable, .function]).isEmpty
    }

    // valueArguments = expr { expr } ;
    mutating func parseValueArguments(_ info: SettingInfo, min: Int, max: Int, from first: Int) -> Bool {
        // `parseSetting` has checked that a value follows.
        var count = 0
        var last = Span.point(0)
        repeat {
            let from = tok.span.start
            guard let e = argumentExpression(info) else { return false }
            if max >= 2 { warnSpacedMinus(e, info, from: from) }
            last = e.span
            pushArgument(.value(consume e))
            count += 1
        } while count < max && !atStatementEnd
        if extraArgumentsLeft(info) { return false }
        // Too few (`frame 0 0 10`): an error at the values written; the statement stays, so that
        // its block does not also lack it.
        if count < min { tooFewArguments(info, min: min, count: count, pendingArguments(from: first)[0].span.to(last)) }
        return true
    }

    @inline(never)
    mutating func tooFewArguments(_ info: SettingInfo, min: Int, count: Int, _ span: Span) {
        report(.error(.badArguments, "'\(info.name)' takes \(min) values (\(info.arguments)), not \(count)", at: span,
                      help: "write, for example, '\(info.example)'"))
    }

    /// The warning for `8 -6` in a setting that takes several arguments: a subtraction written
    /// with a space before its `-` and none after it reads as one argument, though it looks like
    /// two (docs/language.md, "Settings").
    /// `from` is where the argument starts: a `-` inside parentheses was written as meant.
    mutating func warnSpacedMinus(_ e: Expr, _ info: SettingInfo, from: Int) {
        warnSpacedMinus(e, info.name, from: from)
    }

    /// `warnSpacedMinus` for the statement named `name` (a setting, `insert` or `delete`).
    mutating func warnSpacedMinus(_ e: Expr, _ name: String, from: Int) {
        guard case .binary(let chain) = e else { return }
        let head = chain.head, operands = chain.operands
        let bytes = source.bytes
        func space(_ k: Int) -> Bool { k >= 0 && k < bytes.count && (bytes[k] == 32 || bytes[k] == 9) }
        for (k, o) in operands.enumerated() where o.op == .subtract {
            let start = Int(o.opSpan.start), end = Int(o.opSpan.end)
            guard space(start - 1), !space(end), end < bytes.count, bytes[end] != 10, bytes[end] != 13 else { continue }
            var depth = 0
            for b in bytes[from..<start] {
                if b == 40 || b == 91 { depth += 1 } else if b == 41 || b == 93 { depth -= 1 }
            }
            guard depth == 0 else { continue }
            let whole = head.span.to(o.rhs.span)
            let left = source.text(head.span.to(k == 0 ? head.span : operands[k - 1].rhs.span))
            let right = source.text(o.rhs.span)
            // The one value it is, when the operands are plain numbers.
            var value: Double? = nil
            if case .number(var d, _) = head {
                for p in operands[...k] {
                    guard case .number(let x, _) = p.rhs else { d = .nan; break }
                    d = p.op == .add ? d + x : p.op == .subtract ? d - x : .nan
                }
                if !d.isNaN { value = d }
            }
            let one = value.map { "one value, \(NumberFormat.format($0))" } ?? "one value"
            warn(.warning(.spacedMinus, "'\(source.text(whole))' is \(one); write '\(left) (-\(right))' for two", at: whole,
                          help: "'\(name)' takes several values, but a '-' subtracts even with no space after it; if the difference is meant, write '\(left) - \(right)'"))
            return
        }
    }

    /// One expression argument, or nil after an error saying why there is none.
    mutating func argumentExpression(_ info: SettingInfo) -> Expr? {
        guard canStartExpression else {
            if isWord(tok, "x") {
                report(.error(.badArguments, "'\(info.name)' takes a value before 'x'", at: tok.span, help: "write, for example, '\(info.example)'"))
            } else {
                reportUnexpected(expected: "a value for '\(info.name)'", help: "write, for example, '\(info.example)'")
            }
            return nil
        }
        let e = parseExpr()
        return panicking ? nil : e
    }

    /// Checks that nothing is left on the line after a setting's arguments: true (with the error)
    /// when something is. (It does not take the arguments: passing the array in and out cost a
    /// retain and a release a setting.)
    mutating func extraArgumentsLeft(_ info: SettingInfo) -> Bool {
        if atStatementEnd { return false }
        extraArguments(info)
        return true
    }

    @inline(never)
    mutating func extraArguments(_ info: SettingInfo) {
        if at(.error) {
            reportUnexpected(expected: "")
            return
        }
        let count: String
        switch info.shape {
        case .values(_, let hi) where hi == 2: count = "one or two values"
        default: count = "one value"
        }
        if isWord(tok, "x") {
            report(.error(.badArguments, "'\(info.name)' takes \(count), not a size", at: tok.span, help: "write, for example, '\(info.example)'"))
        } else if canStartExpression {
            var hint = "write, for example, '\(info.example)'"
            if at(.lParen) || at(.minus) {
                hint = "to compute a value, write it as one expression: '\(info.name) (a - b)'"
            }
            report(.error(.badArguments, "'\(info.name)' takes \(count)", at: tok.span, help: hint))
        } else {
            reportUnexpected(expected: "the end of the statement", help: at(.assign) ? Parser.assignHelp : nil)
        }
    }
}
