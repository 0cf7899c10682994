/// A scroll offset: the frames at an offset (Engines/ScrollOffsets.swift), the attribute rules
/// evaluated there (Evaluation/Attributes.swift), the pictures and the Swift API all take one.
public struct Offset: Equatable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Offset(x: 0, y: 0)
}
