/// Evaluated tables as `wfl diff` compares them, so that a spec can stand on either side of a
/// diff without a json file in between.

extension ReadLayout {
    /// The layout of an evaluated table as `TableReader` would read it back from the `json` that
    /// `wfl run` writes of it: the same name, content size, kinds, indexes, frames, z-indexes, alphas and zooms
    /// (json numbers read back to the same doubles). Elements come from no file: their `line` is 0.
    package init(_ table: AttributeTable) {
        self.init(name: table.name, contentSize: [table.contentWidth, table.contentHeight],
                  elements: table.elements.indices.map { j in
                      let e = table.elements[j]
                      var r = ReadElement(kind: table.kindName(of: e), section: e.section, item: e.item, frame: e.frame,
                                          zIndex: e.zIndex, line: 0, alpha: table.alpha(of: j), zoom: table.zoom(of: j))
                      // Motion: translate and rotate, as json carries them.
                      let t = table.transform(of: j)
                      r.translateX = t.tx
                      r.translateY = t.ty
                      r.rotate = t.rotate
                      return r
                  })
    }
}
