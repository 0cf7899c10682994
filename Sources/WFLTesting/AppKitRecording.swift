/// A recording made from an `NSCollectionViewLayout`: a thin mapping of its attributes onto the
/// neutral `RecordedElement` (LayoutRecording.swift), which does all the comparing.
///
/// Compiled only where AppKit is (macOS); the project's machines have no Apple SDK, so its tests
/// cover the neutral part only (docs/usage.md). AppKit's attributes carry no transform.

#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import WFL

extension LayoutRecording {
    /// AppKit's element kinds and the wfl kinds they record as; a caller adds its own with `kinds:`.
    @MainActor public static var appKitKinds: [String: String] { [
        NSCollectionView.elementKindSectionHeader: "header",
        NSCollectionView.elementKindSectionFooter: "footer",
    ] }

    /// Records every element of `layout` in its content rect and the content size, as the UIKit
    /// recording does; each element records its frame (AppKit has no transform on attributes).
    @MainActor
    public init(_ layout: NSCollectionViewLayout, name: String = "recording", kinds: [String: String] = [:]) {
        let size = layout.collectionViewContentSize
        let attributes = layout.layoutAttributesForElements(in: NSRect(origin: .zero, size: size))
        self.init(name: name, contentWidth: Double(size.width), contentHeight: Double(size.height), elements: attributes.map { a in
            var kind = "cell"
            if a.representedElementCategory != .item, let k = a.representedElementKind { kind = kinds[k] ?? LayoutRecording.appKitKinds[k] ?? k }
            let hasItem = !["header", "footer", "background"].contains(kind)
            let f = a.frame
            return RecordedElement(kind: kind, section: a.indexPath?.section ?? 0, item: hasItem ? a.indexPath?.item : nil,
                                   frame: Frame(x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height)),
                                   zIndex: a.zIndex, alpha: Double(a.alpha))
        })
    }
}
#endif
