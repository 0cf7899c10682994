/// A recording made from a `UICollectionViewLayout`: a thin mapping of its attributes onto the
/// neutral `RecordedElement` (LayoutRecording.swift), which does all the comparing.
///
/// This file is compiled only where UIKit is (iOS, tvOS, visionOS, Mac Catalyst); the project's
/// machines have no Apple SDK, so its tests cover the neutral part only (docs/usage.md).

#if canImport(UIKit)
import UIKit
import WFL

extension LayoutRecording {
    /// UIKit's element kinds and the wfl kinds they record as; a caller adds its own
    /// (`["badge-kind": "badge"]`) with `kinds:`.
    @MainActor public static var uiKitKinds: [String: String] { [
        UICollectionView.elementKindSectionHeader: "header",
        UICollectionView.elementKindSectionFooter: "footer",
    ] }

    /// Records every element of `layout` in its content rect (`layoutAttributesForElements(in:)`
    /// over `(0, 0)` and `collectionViewContentSize`) and the content size. A supplementary or
    /// decoration view's kind is `representedElementKind` looked up in `kinds`, then in
    /// `uiKitKinds`, else kept as it is; `header`, `footer` and `background` have no item.
    /// Each element records `center` and `bounds.size`, not `frame`: a transformed element's
    /// `frame` is the box around it.
    @MainActor
    public init(_ layout: UICollectionViewLayout, name: String = "recording", kinds: [String: String] = [:]) {
        let size = layout.collectionViewContentSize
        let attributes = layout.layoutAttributesForElements(in: CGRect(origin: .zero, size: size)) ?? []
        self.init(name: name, contentWidth: Double(size.width), contentHeight: Double(size.height),
                  elements: attributes.map { LayoutRecording.element($0, kinds: kinds) })
    }

    /// One element's attributes, mapped.
    @MainActor
    static func element(_ a: UICollectionViewLayoutAttributes, kinds: [String: String]) -> RecordedElement {
        var kind = "cell"
        if a.representedElementCategory != .cell, let k = a.representedElementKind { kind = kinds[k] ?? uiKitKinds[k] ?? k }
        let hasItem = !["header", "footer", "background"].contains(kind)
        let t = a.transform
        return RecordedElement(kind: kind, section: a.indexPath.section, item: hasItem ? a.indexPath.item : nil,
                               centerX: Double(a.center.x), centerY: Double(a.center.y),
                               width: Double(a.bounds.size.width), height: Double(a.bounds.size.height),
                               zIndex: a.zIndex, alpha: Double(a.alpha),
                               transform: LayoutTransform(a: Double(t.a), b: Double(t.b), c: Double(t.c), d: Double(t.d),
                                                          tx: Double(t.tx), ty: Double(t.ty)))
    }
}
#endif
