/// `wfl run --transitions --format html` (docs/usage.md, "Updates and transitions"): one
/// self-contained page with, for each layout, the picture of its table before the update and a
/// Play button that animates every element from its `from` to its `to` (frame, alpha, zoom, and
/// translate and rotate where an end uses one, turning the shorter way as UIKit does), as UIKit's
/// batch update would, and back when pressed again. The boxes are HTML boxes positioned
/// in the page (no script libraries): the page draws them at `from`, and Play changes their
/// style to `to`, which CSS transitions animate.
///
/// For checks in a headless browser: each box carries `data-from` and `data-to` (x, y, w, h,
/// alpha, zoom in layout points); opening the page with `#play=K` presses Play K times. After
/// each press the CSS transitions it started are counted (the section's `data-animated`: the
/// boxes with one) and run to their end (`Animation.finish`: a headless browser's virtual time
/// does not advance the animation clock); then where each box is drawn is written into its
/// section's `data-played` ("x,y,w,h,opacity" a box, in layout points, the bounding box of the
/// box as drawn: zoomed, turned and moved,
/// `;` between boxes, in transition order) and `body` gets `data-played="yes"`.
public enum TransitionsHTML {
    /// How long one transition lasts, in seconds.
    package static let duration = 0.8
    /// The most pixels a picture is across the scroll axis: larger layouts are scaled down.
    static let across = 400.0

    /// The page for the transitions of `tables`.
    public static func format(_ tables: [TransitionTable]) -> String {
        let names = tables.map(\.before.name).joined(separator: ", ")
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"generator\" content=\"wfl\">\n"
        out += "<title>\(PictureText.escape("wfl transitions: " + names))</title>\n<style>\n\(HTMLFormat.css)\(css)</style>\n</head>\n"
        out += "<body data-layouts=\"\(tables.count)\">\n"
        out += "<noscript><p class=\"warn\">The Play button needs the page's script: allow scripts to see the animation.</p></noscript>\n"
        for (k, t) in tables.enumerated() { out += section(t, number: k) }
        out += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// Pixels per layout point for `t`: 1, or less to keep the picture `across` pixels across
    /// the scroll axis.
    static func scale(_ t: TransitionTable) -> Double {
        let b = t.before
        let side = b.direction == .vertical ? b.containerWidth : b.containerHeight
        return side > across ? across / side : 1
    }

    /// The CSS layer of an element: backgrounds behind cells, attached views above them, headers
    /// and footers above all (their z-indexes in UIKit: -1, 0, 1 and 10).
    static func layer(_ kind: ElementKind) -> Int {
        switch kind {
        case .background: return 0
        case .cell: return 1
        case .attached: return 2
        case .header, .footer: return 3
        }
    }

    /// One layout: heading, Play button, the picture at `from`, and the table of transitions.
    static func section(_ t: TransitionTable, number k: Int) -> String {
        let f = NumberFormat.forPeople, g = NumberFormat.format
        let b = t.before, a = t.after
        let s = scale(t)
        let c = t.counts
        // Translate and rotate, where some end uses one: the boxes carry them and the table
        // gets their columns (a page without them is as it was).
        let moves = t.transitions.contains { !$0.from.transform.isIdentity || !$0.to.transform.isIdentity }
        // The picture holds the container and both tables' contents.
        let width = Swift.max(b.containerWidth, b.contentWidth, a.contentWidth) * s
        let height = Swift.max(b.containerHeight, b.contentHeight, a.contentHeight) * s
        var out = "<section class=\"layout transitions\" id=\"transitions-\(k)\" data-scale=\"\(g(s))\" data-elements=\"\(t.transitions.count)\">\n"
        out += "<h2>\(PictureText.escape(b.name))</h2>\n"
        out += "<p class=\"controls\"><button type=\"button\" class=\"play\">Play</button> <span class=\"state\">before the update</span>"
        out += " <span class=\"hint\">content \(f(b.contentWidth)) x \(f(b.contentHeight)) before, \(f(a.contentWidth)) x \(f(a.contentHeight)) after;"
        out += " \(c.stay) stay, \(c.move) move, \(c.appear) appear, \(c.disappear) disappear</span></p>\n"
        out += "<div class=\"row\">\n<div class=\"pic\">\n"
        out += "<div class=\"stage\" style=\"width: \(g(width))px; height: \(g(height))px\">\n"
        out += "<div class=\"container\" style=\"width: \(g(b.containerWidth * s))px; height: \(g(b.containerHeight * s))px\"></div>\n"
        // In layers, each in transition order; `data-j` is the transition's position.
        let order = t.transitions.indices.sorted { (layer(t.transitions[$0].kind), $0) < (layer(t.transitions[$1].kind), $1) }
        for j in order {
            let x = t.transitions[j]
            let name = t.kindName(of: x)
            // Labelled with its index in the table shown: before the update, then after it.
            func label(_ item: Int?, _ missing: String) -> String {
                let prefix = x.kind == .attached ? "\(name) " : ""
                switch x.kind {
                case .cell, .attached:
                    if let item { return "\(prefix)\(x.section).\(item)" }
                    return "\(prefix)\(x.section).\(x.item ?? x.itemBefore ?? 0) \(missing)"
                default:
                    return "\(x.kind.rawValue) \(x.section)"
                }
            }
            let before = label(x.itemBefore, "(new)"), after = label(x.item, "(deleted)")
            let kindClass = x.kind == .attached ? "attached" : x.kind.rawValue
            out += "<div class=\"box \(kindClass) \(x.change.rawValue)\" data-j=\"\(j)\" data-from=\"\(values(x.from, moves))\" data-to=\"\(values(x.to, moves))\""
            out += " data-label-from=\"\(PictureText.escape(before))\" data-label-to=\"\(PictureText.escape(after))\""
            out += " style=\"\(style(x.from, s, moves))\" title=\"\(PictureText.escape("\(before): \(x.change.rawValue)"))\">\(PictureText.escape(before))</div>\n"
        }
        out += "</div>\n</div>\n"
        // The table: the transitions in order.
        out += "<div class=\"tbl\">\n<table>\n<thead><tr><th>section</th><th>item</th><th>before</th><th>kind</th><th>change</th>"
        out += "<th>from x</th><th>y</th><th>width</th><th>height</th><th>alpha</th><th>zoom</th>"
        let extra = moves ? "<th>translateX</th><th>translateY</th><th>rotate</th>" : ""
        out += "\(extra)<th>to x</th><th>y</th><th>width</th><th>height</th><th>alpha</th><th>zoom</th>\(extra)</tr></thead>\n<tbody>\n"
        for (j, x) in t.transitions.enumerated() {
            out += "<tr data-j=\"\(j)\" class=\"\(x.change.rawValue)-row\"><td>\(x.section)</td><td>\(x.item.map(String.init) ?? "-")</td>"
            out += "<td>\(x.itemBefore.map(String.init) ?? "-")</td><td>\(PictureText.escape(t.kindName(of: x)))</td><td>\(x.change.rawValue)</td>"
            for e in [x.from, x.to] {
                for v in [e.frame.x, e.frame.y, e.frame.width, e.frame.height, e.alpha, e.zoom] { out += "<td>\(f(v))</td>" }
                if moves { for v in [e.transform.tx, e.transform.ty, e.transform.rotate] { out += "<td>\(f(v))</td>" } }
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table>\n</div>\n</div>\n</section>\n"
        return out
    }

    /// `x,y,w,h,alpha,zoom` of one end, exact; then `translateX,translateY,rotate` when `moves`.
    static func values(_ e: TransitionEnd, _ moves: Bool = false) -> String {
        let m = e.transform
        return ([e.frame.x, e.frame.y, e.frame.width, e.frame.height, e.alpha, e.zoom] + (moves ? [m.tx, m.ty, m.rotate] : []))
            .map(NumberFormat.format).joined(separator: ",")
    }

    /// The inline style that draws one end at scale `s`: the frame as the box, the alpha as its
    /// opacity and the zoom as a scale about its centre; with `moves`, the translate and the
    /// rotate too, in the order of the spec's matrix (scaled, turned about the centre, then
    /// moved: CSS applies the rightmost function first). (The script writes the same.)
    static func style(_ e: TransitionEnd, _ s: Double, _ moves: Bool = false) -> String {
        let g = NumberFormat.format
        let m = e.transform
        let transform = moves ? "translate(\(g(m.tx * s))px, \(g(m.ty * s))px) rotate(\(g(m.rotate))deg) scale(\(g(e.zoom)))" : "scale(\(g(e.zoom)))"
        return "left: \(g(e.frame.x * s))px; top: \(g(e.frame.y * s))px; width: \(g(Swift.max(e.frame.width, 0) * s))px; "
            + "height: \(g(Swift.max(e.frame.height, 0) * s))px; opacity: \(g(e.alpha)); transform: \(transform)"
    }

    static let css = """
        .stage { position: relative; margin: 8px; }
        .stage .container { position: absolute; left: 0; top: 0; box-sizing: border-box; border: 2px dashed #d0342c; z-index: 5; pointer-events: none; }
        .box { position: absolute; box-sizing: border-box; overflow: hidden; font-size: 10px; line-height: 1.2; text-align: center;
          color: #1d1d1f; white-space: nowrap; transform-origin: 50% 50%;
          transition: left \(NumberFormat.format(duration))s ease-in-out, top \(NumberFormat.format(duration))s ease-in-out,
            width \(NumberFormat.format(duration))s ease-in-out, height \(NumberFormat.format(duration))s ease-in-out,
            opacity \(NumberFormat.format(duration))s ease-in-out, transform \(NumberFormat.format(duration))s ease-in-out; }
        .box.cell { background: #dbe8fb; border: 1px solid #3a6fb0; z-index: 1; }
        .box.header { background: #fde2c4; border: 1px solid #c46a12; z-index: 3; }
        .box.footer { background: #d3efd9; border: 1px solid #2f8a4a; z-index: 3; }
        .box.background { background: #e9e4f5; border: 1px dashed #7a68a8; z-index: 0; }
        .box.attached { background: #f9d7e3; border: 1px solid #b0245a; z-index: 2; }
        .box.appear { outline: 1px dotted #2f8a4a; }
        .box.disappear { outline: 1px dotted #b3261e; }
        .controls button { font-size: 14px; padding: 3px 14px; }
        .controls .state { font: 13px Menlo, Consolas, monospace; display: inline-block; min-width: 140px; }
        tr.appear-row td:nth-child(5) { color: #2f8a4a; }
        tr.disappear-row td:nth-child(5) { color: #b3261e; }
        tr.move-row td:nth-child(5) { color: #3a6fb0; }

        """

    /// The page's script: no comments in the line style and no URLs, so the page holds no `//`.
    static let script = """
        (function () {
          'use strict';
          var duration = \(NumberFormat.format(duration * 1000));
          var presses = 0;
          var m = /play=([0-9]+)/.exec(location.hash);
          if (m) { presses = parseInt(m[1], 10); }
          var secs = document.querySelectorAll('section.transitions');
          var buttons = [];
          function numbers(text) { return text.split(',').map(Number); }
          function turn(r) { return r - 360 * Math.ceil((r - 180) / 360); }
          function place(box, v, s, from) {
            box.style.left = (v[0] * s) + 'px';
            box.style.top = (v[1] * s) + 'px';
            box.style.width = (Math.max(v[2], 0) * s) + 'px';
            box.style.height = (Math.max(v[3], 0) * s) + 'px';
            box.style.opacity = String(v[4]);
            if (v.length > 6) {
              var r = from ? from[8] + turn(v[8] - from[8]) : v[8];
              box.style.transform = 'translate(' + (v[6] * s) + 'px, ' + (v[7] * s) + 'px) rotate(' + r + 'deg) scale(' + v[5] + ')';
            } else {
              box.style.transform = 'scale(' + v[5] + ')';
            }
          }
          function setup(sec) {
            var s = parseFloat(sec.getAttribute('data-scale'));
            var boxes = sec.querySelectorAll('.box');
            var button = sec.querySelector('button.play');
            var state = sec.querySelector('.state');
            var after = false;
            button.addEventListener('click', function () {
              after = !after;
              for (var k = 0; k < boxes.length; k++) {
                var b = boxes[k];
                place(b, numbers(b.getAttribute(after ? 'data-to' : 'data-from')), s, after ? numbers(b.getAttribute('data-from')) : null);
                b.textContent = b.getAttribute(after ? 'data-label-to' : 'data-label-from');
                b.title = b.textContent + ': ' + b.className.split(' ')[2];
              }
              button.textContent = after ? 'Play back' : 'Play';
              state.textContent = after ? 'after the update' : 'before the update';
              sec.setAttribute('data-shown', after ? 'after' : 'before');
            });
            sec.setAttribute('data-shown', 'before');
            buttons.push(button);
          }
          function measure(sec) {
            var s = parseFloat(sec.getAttribute('data-scale'));
            var stage = sec.querySelector('.stage');
            var st = stage.getBoundingClientRect();
            var boxes = sec.querySelectorAll('.box');
            var at = [];
            for (var k = 0; k < boxes.length; k++) {
              var b = boxes[k], r = b.getBoundingClientRect();
              var j = parseInt(b.getAttribute('data-j'), 10);
              var v = [(r.left - st.left - stage.clientLeft) / s, (r.top - st.top - stage.clientTop) / s, r.width / s, r.height / s,
                       parseFloat(getComputedStyle(b).opacity)];
              at[j] = v.map(function (x) { return Math.round(x * 1000) / 1000; }).join(',');
            }
            sec.setAttribute('data-played', at.join(';'));
          }
          for (var i = 0; i < secs.length; i++) { setup(secs[i]); }
          document.body.setAttribute('data-ready', 'yes');
          if (presses > 0) {
            var pressed = 0;
            var press = function () {
              for (var k = 0; k < buttons.length; k++) { buttons[k].click(); }
              pressed += 1;
              setTimeout(function () {
                for (var k = 0; k < secs.length; k++) {
                  var boxes = secs[k].querySelectorAll('.box');
                  var animated = 0;
                  for (var q = 0; q < boxes.length; q++) {
                    var running = boxes[q].getAnimations();
                    if (running.length) { animated += 1; }
                    running.forEach(function (a) { a.finish(); });
                  }
                  secs[k].setAttribute('data-animated', String(animated));
                }
                if (pressed < presses) { press(); return; }
                for (var k = 0; k < secs.length; k++) { measure(secs[k]); }
                document.body.setAttribute('data-played', 'yes');
              }, duration / 4);
            };
            setTimeout(press, 100);
          }
        })();

        """
}
