/// Reading attribute tables back, for `wfl diff`: the `json` and `csv` formats `wfl run` writes
/// (JSONTableReader.swift, CSVTableReader.swift), told apart by content (a JSON document starts
/// with `{`). This file holds what both give and share. Also read: the recordings of WFLTesting and
/// what a user's app dumps in the same shape, which may name kinds as UIKit does (`UICollectionElementKindSectionHeader`,
/// or `null` for a cell) and may leave out `zIndex`, `style`, `direction` and `container`.

/// One element of a table read back.
package struct ReadElement: Equatable, Sendable {
    /// `header`, `cell`, `footer`, or another supplementary kind as the file names it.
    package var kind: String
    package var section: Int
    /// nil for a header or footer.
    package var item: Int?
    package var frame: Frame
    /// nil when the file does not give it (it is then not compared).
    package var zIndex: Int?
    /// The line it was read from, for messages.
    package var line: Int
    /// Its alpha and zoom; 1 when the file does not give them (absent means 1).
    package var alpha: Double = 1
    package var zoom: Double = 1
    /// Its translation and rotation (degrees); 0 when the file does not give them (absent means unused).
    package var translateX: Double = 0
    package var translateY: Double = 0
    package var rotate: Double = 0

    package init(kind: String, section: Int, item: Int?, frame: Frame, zIndex: Int?, line: Int, alpha: Double = 1, zoom: Double = 1) {
        self.kind = kind
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex
        self.line = line
        self.alpha = alpha
        self.zoom = zoom
    }
}

/// One layout of a table read back.
package struct ReadLayout: Equatable, Sendable {
    package var name: String
    /// nil when the file does not give it (csv).
    package var contentSize: [Double]?
    package var elements: [ReadElement]

    package init(name: String, contentSize: [Double]?, elements: [ReadElement]) {
        self.name = name
        self.contentSize = contentSize
        self.elements = elements
    }
}

/// Why a table could not be read: the message, and where (line and column from 1).
package struct TableReadError: Error, Equatable, Sendable {
    package var message: String
    package var line: Int
    package var column: Int
}

/// Reads `json` or `csv` attribute tables.
package enum TableReader {
    /// Reads the bytes of a table file, deciding json or csv by its first character that is not
    /// white space.
    package static func read(_ bytes: [UInt8]) -> Result<[ReadLayout], TableReadError> {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        guard let first = bytes[start...].first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else {
            return .failure(TableReadError(message: "the file is empty: expected a table in wfl's json or csv format", line: 1, column: 1))
        }
        guard let text = validUTF8(bytes[start...]) else {
            return .failure(TableReadError(message: "the file is not UTF-8 text: expected a table in wfl's json or csv format", line: 1, column: 1))
        }
        do throws(TableReadError) {
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var reader = JSONTableReader(Array(text.unicodeScalars))
                return .success(try reader.read())
            }
            return .success(try CSVTableReader.read(text))
        } catch {
            return .failure(error)
        }
    }

    /// The text of `bytes`, or nil when they are not valid UTF-8. (`String(validating:as:)`
    /// needs macOS 15 and iOS 18; the library supports older systems.)
    static func validUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }

    /// `d` as a section, item or z-index: a whole number below 10^15 (so exact in a double).
    static func whole(_ d: Double) -> Int? {
        isWhole(d) && abs(d) < 1e15 ? Int(d) : nil
    }

    /// `header` for UIKit's header kind, `footer` for its footer kind, `cell` for nil.
    package static func normalKind(_ kind: String?) -> String {
        switch kind {
        case nil, "cell"?: return "cell"
        case "UICollectionElementKindSectionHeader"?, "header"?: return "header"
        case "UICollectionElementKindSectionFooter"?, "footer"?: return "footer"
        case let k?: return k
        }
    }
}
