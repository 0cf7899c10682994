/// What a diagnostic is about, as a stable code (`E0401`): the identity that code compares (never
/// the words), that editors and tests can key on, and that `docs/diagnostics.md` lists. `E` codes
/// are errors and `W` codes warnings; the hundreds follow the stage that finds them. A code, once
/// given, keeps its meaning: retire it rather than reuse it.
public enum DiagnosticCode: String, CaseIterable, Sendable {
    // Lexing (E01xx).
    case unexpectedCharacter = "E0101"
    case invalidNumber = "E0102"
    case unterminatedString = "E0103"
    case invalidEscape = "E0104"
    case unterminatedComment = "E0105"
    case invalidUTF8 = "E0106"

    // Syntax (E02xx).
    case unexpectedToken = "E0201"
    case unmatchedCloser = "E0202"
    case unclosed = "E0203"
    case braceOnNextLine = "E0204"
    case nestedTooDeeply = "E0205"
    case misplacedStatement = "E0206"
    case duplicateLayout = "E0207"
    case layoutWithoutName = "E0208"
    case chainedComparison = "E0209"
    case missingOperand = "E0210"
    case notCallable = "E0211"
    case sizeSeparatorAsValue = "E0212"
    case missingCondition = "E0213"
    case duplicateSectionName = "W0201"

    // Names (E03xx, W03xx).
    case unknownName = "E0301"
    case unknownFunction = "E0302"
    case functionWithoutCall = "E0303"
    case valueCalled = "E0304"
    case wrongArgumentCount = "E0305"
    case reservedName = "E0306"
    case duplicateParameter = "E0307"
    case misplacedAdaptive = "E0308"
    case expectOnlyFunction = "E0309"
    case redefined = "W0301"
    case shadows = "W0302"
    case hidesEngineVariable = "W0303"

    // Settings (E04xx, W04xx).
    case unknownSetting = "E0401"
    case layoutOnlySetting = "E0402"
    case missingValue = "E0403"
    case equalsInSetting = "E0404"
    case badKeyword = "E0405"
    case badArguments = "E0406"
    case badSide = "E0407"
    case unusedSetting = "E0408"
    case wrongValueType = "E0409"
    case valueOutOfRange = "E0410"
    case noRoom = "E0411"
    case tooManyItems = "E0412"
    case rightToLeftUnsupported = "E0413"
    case badAttachName = "E0414"
    case notInAttach = "E0415"
    case notInAppear = "E0416"
    // Motion: shelf offsets and transforms (E0430-E0439).
    case sxOutsideShelf = "E0430"
    case setTwice = "W0401"
    case spacedMinus = "W0402"
    case attachTwice = "W0403"
    // The environment and devices (docs/layout.md, "The environment", "Devices").
    case unknownDevice = "E0420"
    case safeAreaTooLarge = "E0421"
    case noRoomAtReference = "E0422"

    // Evaluating expressions (E05xx).
    case typeMismatch = "E0501"
    case noValueHere = "E0502"
    case divisionByZero = "E0503"
    case badIndex = "E0504"
    case badFunctionArgument = "E0505"
    case randomOutsideItemRule = "E0506"
    case callLimit = "E0507"
    case earlierError = "E0508"
    case badListRule = "E0509"
    case notACondition = "E0510"
    case randomInAttribute = "E0511"

    // Laying out (E06xx, W06xx).
    case badSpan = "E0601"
    case badNaturalSize = "E0602"
    case badSize = "E0603"
    case flowNeedsSize = "E0604"
    case lineOverflow = "W0601"
    case spanCapped = "W0602"
    case positionOverflow = "E0605"
    case badAttribute = "E0606"
    // Tile grids (E0650-E0659, W0650-W0659).
    case badTile = "E0650"
    case tileTooLong = "E0651"
    case tileClamped = "W0650"
    case gridTooLarge = "E0652"

    // Expectation functions (E07xx).
    case noSuchSection = "E0701"
    case noSuchItem = "E0702"
    case noSuchElement = "E0703"
    case snapUnavailable = "E0704"
    case badQueryArgument = "E0705"
    case shelfSnapUnavailable = "E0706"

    // Batch updates (E08xx).
    case misplacedUpdate = "E0801"
    case secondUpdate = "E0802"
    case updateIndexOutOfRange = "E0803"
    case updateIndexTwice = "E0804"
    case updateIndexNotWhole = "E0805"
    // Self-sizing cells and scroll paths (E094x-E096x, W094x).
    case badEstimate = "E0940"
    case estimateShape = "E0941"
    case randomInEstimate = "E0942"
    case estimateUnsupported = "E0943"
    // Scroll paths (`scroll` blocks).
    case misplacedScroll = "E0944"
    case toOutsideScroll = "E0945"
    case notInScroll = "E0946"
    case badScrollStep = "E0947"
    case tooManyStops = "E0948"
    case badScrollTarget = "E0949"

    // Groups (E09xx): compositional groups (docs/language.md, "Groups").
    case misplacedGroup = "E0901"
    case itemOutsideGroup = "E0902"
    case missingGroup = "E0903"
    case secondGroup = "E0904"
    case shelfGroupConflict = "E0905"
    case groupWithoutChildren = "E0906"
    case countWithSeveralChildren = "E0907"
    case badCustomGroup = "E0908"
    case badGroupSize = "E0909"
    case badGroupCount = "E0910"
    case groupNoRoom = "E0911"
    case childTooLong = "E0912"
    case randomInGroup = "E0913"
    case tooManyLeaves = "E0914"
    case groupsTooDeep = "E0915"
    case listInGroupSize = "E0916"
    case notInGroup = "E0917"
    case badGroupKind = "E0918"

    /// True for the mistakes about names that the parser reports after it has read a statement
    /// whole, so that the tree is complete (`wfl fmt` formats such a file), and for warnings. A
    /// name that cannot be bound (`let x`, a reserved word) or a parameter named twice stops the
    /// statement, and other errors hide behind it: those are not among them.
    public var keepsTheTreeWhole: Bool {
        switch self {
        case .unknownName, .unknownFunction, .functionWithoutCall, .valueCalled, .wrongArgumentCount, .misplacedAdaptive:
            return true
        // A group's shape, checked once its block is read whole (Syntax/ParserGroups.swift).
        case .groupWithoutChildren, .countWithSeveralChildren, .badCustomGroup, .itemOutsideGroup, .badGroupKind:
            return true
        default:
            return severity == .warning
        }
    }

    /// Errors stop a file from evaluating; warnings never change an exit status.
    public var severity: Severity { rawValue.hasPrefix("W") ? .warning : .error }

    /// One line on what it means, for `docs/diagnostics.md`.
    public var summary: String {
        switch self {
        case .unexpectedCharacter: return "a character that no token starts with, or a name with a letter outside ASCII"
        case .invalidNumber: return "a number written in a way wfl does not read (`.5`, `5.`, `1__0`, `1e`)"
        case .unterminatedString: return "a string without its closing quote on the same line"
        case .invalidEscape: return "an escape in a string that is not one of `\\\" \\\\ \\n \\t \\u{...}`"
        case .unterminatedComment: return "a `/*` comment without its `*/`"
        case .invalidUTF8: return "bytes that are not UTF-8"
        case .unexpectedToken: return "the grammar expected something else here"
        case .unmatchedCloser: return "a `)`, `]` or `}` with nothing open to close"
        case .unclosed: return "a `(`, `[` or `{` that is never closed"
        case .braceOnNextLine: return "a block's `{` on the line after its keyword"
        case .nestedTooDeeply: return "blocks or expressions nested past the limits"
        case .misplacedStatement: return "a `layout`, `section` or `expect` where it cannot stand"
        case .duplicateLayout: return "two layouts with one name"
        case .layoutWithoutName: return "a `layout` block without a name"
        case .chainedComparison: return "`a < b < c`: comparisons do not chain"
        case .missingOperand: return "an operator without a value after it"
        case .notCallable: return "a call of something that is not a function name"
        case .sizeSeparatorAsValue: return "`x` used as a value (it separates the sides of a size)"
        case .duplicateSectionName: return "two sections of one layout with one name (names are only shown, so they could not be told apart)"
        case .missingCondition: return "`expect` without a condition (in the REPL: an entry that is no expression)"
        case .unknownName: return "a name that no `let`, parameter or variable defines here"
        case .unknownFunction: return "a call of a function that does not exist"
        case .functionWithoutCall: return "a function's name used as a value"
        case .valueCalled: return "a value's name called as a function"
        case .wrongArgumentCount: return "a call with too many or too few arguments"
        case .reservedName: return "a reserved word or `x` used as a name"
        case .duplicateParameter: return "a function with two parameters of one name"
        case .misplacedAdaptive: return "`adaptive(MIN)` outside `columns` and `rows`"
        case .expectOnlyFunction: return "an expectation function (`frame`, `count`, ...) outside `expect`"
        case .redefined: return "a second `let` of a name in one block"
        case .shadows: return "a `let` that hides one of an outer block"
        case .hidesEngineVariable: return "a `let` that hides an engine variable (`i`, `w`, ...)"
        case .unknownSetting: return "a setting name that wfl does not know (or a block keyword: `secton {`)"
        case .layoutOnlySetting: return "a layout-level setting written in a section"
        case .missingValue: return "a setting or a side without its value"
        case .equalsInSetting: return "`columns = 3`: settings take no `=`"
        case .badKeyword: return "a word that is not one of the setting's values"
        case .badArguments: return "a setting with arguments of the wrong number or shape"
        case .badSide: return "an unknown, repeated or mixed side in an insets setting"
        case .unusedSetting: return "a setting that no section it reaches uses (it says what to write instead)"
        case .wrongValueType: return "a setting's value of the wrong type"
        case .valueOutOfRange: return "a setting's value outside what it allows (negative, not whole, too many lanes, ...)"
        case .noRoom: return "insets, spacings or lanes that leave no room for the items"
        case .tooManyItems: return "more items than wfl lays out"
        case .rightToLeftUnsupported: return "a setting or function not defined with `layoutDirection rightToLeft`"
        case .setTwice: return "the same property set twice in one block (the later one wins)"
        case .spacedMinus: return "`8 -6` among a setting's several values: one value (2), not two"
        case .badAttachName: return "an `attach` block without a name, or named as a kind of its own (`cell`, `header`, `footer`, `background`) or empty"
        case .notInAttach: return "a setting that cannot stand inside an `attach` block"
        case .notInAppear: return "a setting other than `alpha`, `zoom`, `offset`, `translate` and `rotate` inside an `appear` or `disappear` block"
        // Motion.
        case .sxOutsideShelf: return "a rule that reads `sx`, a shelf's own offset, reaching a section that is not a shelf"
        case .attachTwice: return "two `attach` blocks of one name in one block (the later one wins)"
        case .unknownDevice: return "a `device` name that is not in the table of devices"
        case .safeAreaTooLarge: return "a safe area whose two sides along one axis take all of the container"
        case .noRoomAtReference: return "a section's reference edges (`insetsReference`) and insets that leave no room"
        case .typeMismatch: return "an operator or function given a value of the wrong type"
        case .noValueHere: return "a variable read where it has no value"
        case .divisionByZero: return "division or remainder by zero"
        case .badIndex: return "an index that is not whole or out of range"
        case .badFunctionArgument: return "a built-in function given an argument it cannot take"
        case .randomOutsideItemRule: return "`random` outside an item rule"
        case .callLimit: return "user functions nested or called past the limits"
        case .earlierError: return "an expression whose error was reported earlier"
        case .badListRule: return "an item rule whose list is empty or holds lists"
        case .notACondition: return "an `expect` whose value is not true or false"
        case .randomInAttribute: return "`random` in `alpha`, `zoom`, `zIndex`, an `attach` block or an `appear` or `disappear` block"
        case .badSpan: return "a span that is not a whole number of lanes, at least 1"
        case .badNaturalSize: return "a natural size that cannot be scaled to the lane"
        case .badSize: return "an item size that is negative, NaN or infinite"
        case .flowNeedsSize: return "a flow section whose item size rule is not `size W x H` (the resolver says so first, as E0408)"
        case .lineOverflow: return "a flow item longer than its line"
        case .positionOverflow: return "a layout whose positions grow past what a double holds: a frame, or a lane width, that would come out infinite or NaN"
        case .badAttribute: return "an `alpha`, `zoom` or `zIndex` value outside its range (or a z-index that is not whole), also in `appear` and `disappear`; an offset of `attach`, `appear` or `disappear` that is not finite or moves a frame past what a double holds"
        case .badTile: return "a grid's `tile` side that is not a whole number, at least 1"
        case .tileTooLong: return "a grid's `tile` more than 1,000 cells long along the scroll axis"
        case .gridTooLarge: return "a grid whose placement would hold more than 2^30 cells at once (a limit, as the other limits)"
        case .tileClamped: return "a grid's `tile` wider across than the grid (clamped to its columns, or rows when horizontal; said once per section)"
        case .spanCapped: return "a span of more lanes than the section has (capped at the lane count; said once per section)"
        case .noSuchSection: return "an expectation about a section the layout does not have"
        case .noSuchItem: return "an expectation about an item the section does not have"
        case .noSuchElement: return "an expectation about a header or footer the section does not have"
        case .snapUnavailable: return "`snap` where there is nothing to snap to"
        case .badQueryArgument: return "an expectation function given an argument it cannot take"
        case .shelfSnapUnavailable: return "`shelfSnap` on a section that is not a shelf with items"
        case .misplacedUpdate: return "an `update` block where it cannot stand: in a layout with `section` blocks, or at the top of a file with `layout` or `section` blocks"
        case .secondUpdate: return "a second `update` block for one section"
        case .updateIndexOutOfRange: return "a `delete` index not among the items before the update, or an `insert` index not among those after it"
        case .updateIndexTwice: return "the same index twice among a section's `delete`s, or among its `insert`s"
        case .updateIndexNotWhole: return "an index of `insert` or `delete` that is not a whole number"
        // Self-sizing cells and scroll paths.
        case .badEstimate: return "an `estimate` that is 0 or less on a side, NaN or infinite"
        case .estimateShape: return "`estimate W x H` in a waterfall section, or one value in a flow or shelf section"
        case .randomInEstimate: return "`random` in `estimate`"
        case .estimateUnsupported: return "`estimate` in a horizontal right-to-left layout, or in a section whose engine has no self-sizing cells"
        // Scroll paths.
        case .misplacedScroll: return "a `scroll` block in a section, an `update` or `scroll` block, or at the top of a file with `layout` blocks"
        case .toOutsideScroll: return "`to` outside a `scroll` block"
        case .notInScroll: return "a statement other than `to` and `expect` inside a `scroll` block"
        case .badScrollStep: return "`by D` with D 0 or less, NaN or infinite (it fails the block's expects)"
        case .tooManyStops: return "a scroll path of more than 1,000,000 stops, the first display included (it fails the block's expects)"
        case .badScrollTarget: return "a `to` or `by` value that is not a finite number"
        case .misplacedGroup: return "a `group` block in a section whose style is not `groups` or `shelf`, or where no section takes it"
        case .itemOutsideGroup: return "an `item` outside a `group` block"
        case .missingGroup: return "a `style groups` section without a `group` block"
        case .secondGroup: return "a second `group` block in one section (a section has one top group)"
        case .shelfGroupConflict: return "a shelf with a `group` block and `size`, `rows` or `align`, or a spacing other than `groupSpacing` and `itemSpacing`; `groupSpacing` in a shelf without one"
        case .groupWithoutChildren: return "a `horizontal` or `vertical` group without children"
        case .countWithSeveralChildren: return "`count` on a group of more than one child"
        case .badCustomGroup: return "a `custom` group without `count` or `frame`, or with children"
        case .badGroupSize: return "a group's or item's size, or a `frame`, that is negative, NaN or infinite"
        case .badGroupCount: return "a group's `count` that is not a whole number at least 1"
        case .groupNoRoom: return "insets or spacings that leave a group's content box, a cell or a `count` slot a negative length, or `aw` or `ah` at most 0"
        case .childTooLong: return "a group's first child longer than the group's content box"
        case .randomInGroup: return "`random` in a group's or item's size, `count` or `frame`"
        case .tooManyLeaves: return "more than 10,000,000 leaves in one top group"
        case .groupsTooDeep: return "groups nested more than 32 deep"
        case .listInGroupSize: return "a list in a group's or item's size or in `count`"
        case .notInGroup: return "a statement or setting that cannot stand inside a `group` or `item` block"
        case .badGroupKind: return "a group whose kind is not `horizontal`, `vertical` or `custom`"
        }
    }
}

extension DiagnosticCode {
    /// `docs/diagnostics.md`: every code with its meaning, grouped by stage. A test keeps the page
    /// equal to this.
    package static func catalogue() -> String {
        var out = """
            # Diagnostic codes

            Every error and warning wfl reports has a code that stays with it whatever its wording:
            `E` codes are errors (the file does not evaluate), `W` codes warnings (they never change
            an exit status). The text output shows the words only; the code is what a program reads
            (the `Diagnostic.code` of the Swift API). This page is generated from
            `Sources/WFL/Diagnostics/DiagnosticCode.swift` (`WFL_UPDATE_GOLDEN=1 swift test` rewrites it).


            """
        let stages = [("01", "Reading characters"), ("02", "Syntax"), ("03", "Names"), ("04", "Settings"),
                      ("05", "Evaluating expressions"), ("06", "Laying out"), ("07", "Expectation functions"),
                      ("08", "Batch updates"), ("09", "Groups; self-sizing cells and scroll paths")]
        for (hundreds, title) in stages {
            out += "## \(title)\n\n| code | meaning |\n|---|---|\n"
            for c in allCases where c.rawValue.dropFirst().hasPrefix(hundreds) {
                out += "| `\(c.rawValue)` | \(c.summary.replacingBars) |\n"
            }
            out += "\n"
        }
        return out
    }
}

extension String {
    /// Safe inside a Markdown table cell.
    fileprivate var replacingBars: String {
        var out = ""
        for ch in self { out += ch == "|" ? "\\|" : String(ch) }
        return out
    }
}
