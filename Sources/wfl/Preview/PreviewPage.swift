/// The one page `wfl preview` serves. It holds no picture itself: it listens to `/events` and
/// draws each `html` page the server sends into itself (its styles, its sections, its script run
/// again), so the page is never reloaded. Before a redraw it notes where each layout's slider
/// stands, and puts it back there after. While the file has errors it shows the diagnostics over
/// the last good picture, dimmed (a page opened then gets that picture with the errors), or says
/// that there is no picture yet.
///
/// For checks in a headless browser the body records what happened: `data-redraws` (events
/// drawn), `data-state` (`ok` or `errors`), and `data-history`, one word per event
/// (`ok:BOXES@STEPS`, or `errors:BOXES` with the boxes of the last good picture still shown); `#move=K` in the address moves every slider to step K once,
/// after the first picture, as a user would, and `#until=N` closes the events after the Nth (a
/// headless browser dumps the page only when nothing is loading).
enum PreviewPage {
    /// The page of `title`; its requests for events carry `token` (hex digits), as its own
    /// address did.
    static func html(title: String, token: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(escape("wfl preview: " + title))</title>
        <style>
        #wfl-preview-bar { font: 12px Menlo, Consolas, monospace; color: #555555; padding: 4px 8px; border-bottom: 1px solid #dddddd; }
        #wfl-preview-diagnostics { position: fixed; left: 0; right: 0; top: 0; z-index: 10; margin: 0; max-height: 60vh; overflow: auto;
          font: 13px Menlo, Consolas, monospace; white-space: pre-wrap; padding: 10px 14px; background: rgba(255, 243, 243, 0.96);
          border-bottom: 3px solid #c62828; color: #1d1d1f; }
        #wfl-preview-diagnostics.warnings { position: static; background: #fffbe6; border-bottom: 1px solid #d8b600; max-height: 20vh; }
        body.has-errors #wfl-preview-picture { opacity: 0.35; }
        #wfl-preview-note { font: 13px -apple-system, Helvetica, Arial, sans-serif; color: #555555; padding: 4px 8px; }
        </style>
        </head>
        <body data-redraws="0" data-state="waiting" data-history="">
        <div id="wfl-preview-bar">wfl preview: \(escape(title)) <span id="wfl-preview-status">connecting...</span></div>
        <pre id="wfl-preview-diagnostics" hidden></pre>
        <div id="wfl-preview-note" hidden></div>
        <div id="wfl-preview-picture"></div>
        <script>
        var wflPreviewToken = '\(token)';
        \(script)
        </script>
        </body>
        </html>

        """
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static let script = """
        (function () {
          'use strict';
          var pic = document.getElementById('wfl-preview-picture');
          var diag = document.getElementById('wfl-preview-diagnostics');
          var status = document.getElementById('wfl-preview-status');
          var note = document.getElementById('wfl-preview-note');
          var drawn = false;
          var body = document.body;
          var redraws = 0, history = [];
          var move = /move=([0-9]+)/.exec(location.hash);
          var moved = false;
          var until = /until=([0-9]+)/.exec(location.hash);
          function layouts() { return pic.querySelectorAll('section.layout'); }
          function nameOf(sec) { var h = sec.querySelector('h2'); return h ? h.textContent : ''; }
          function steps() {
            var out = {}, secs = layouts();
            for (var i = 0; i < secs.length; i++) {
              var input = secs[i].querySelector('.slider input');
              if (input) { out[nameOf(secs[i])] = parseInt(input.value, 10); }
            }
            return out;
          }
          function setStep(sec, step) {
            var input = sec.querySelector('.slider input');
            if (!input) { return; }
            input.value = String(Math.min(step, parseInt(input.max, 10)));
            input.dispatchEvent(new Event('input'));
          }
          function draw(page) {
            var saved = steps();
            var doc = new DOMParser().parseFromString(page, 'text/html');
            var css = '', code = '';
            doc.querySelectorAll('style').forEach(function (s) { css += s.textContent; s.remove(); });
            doc.querySelectorAll('body > script').forEach(function (s) {
              if (!s.getAttribute('type')) { code = s.textContent; s.remove(); }
            });
            pic.innerHTML = '<style>' + css + '</style>' + doc.body.innerHTML;
            var run = document.createElement('script');
            run.textContent = code;
            pic.appendChild(run);
            drawn = true;
            var secs = layouts();
            for (var i = 0; i < secs.length; i++) {
              var name = nameOf(secs[i]);
              if (Object.prototype.hasOwnProperty.call(saved, name)) { setStep(secs[i], saved[name]); }
            }
            if (move && !moved) {
              moved = true;
              for (var j = 0; j < secs.length; j++) { setStep(secs[j], parseInt(move[1], 10)); }
            }
          }
          function record(word) {
            redraws += 1;
            history.push(word);
            body.setAttribute('data-redraws', String(redraws));
            body.setAttribute('data-history', history.join(' '));
          }
          var events = new EventSource('events?token=' + encodeURIComponent(wflPreviewToken));
          function done() {
            if (until && redraws >= parseInt(until[1], 10)) { events.close(); status.textContent = '(closed)'; }
          }
          events.onopen = function () { status.textContent = '(live)'; };
          events.onerror = function () { status.textContent = '(waiting for wfl preview...)'; };
          events.onmessage = function (ev) {
            var m = JSON.parse(ev.data);
            if (m.state === 'ok') {
              draw(m.page);
              note.hidden = true;
              body.classList.remove('has-errors');
              diag.textContent = m.diagnostics;
              diag.className = 'warnings';
              diag.hidden = m.diagnostics === '';
              body.setAttribute('data-state', 'ok');
              var s = steps(), words = [];
              for (var k in s) { words.push(s[k]); }
              record('ok:' + (body.getAttribute('data-boxes') || '0') + '@' + (words.length ? words.join(',') : '-'));
            } else {
              // Opened while the file has errors: the server sends the last good picture along.
              if (!drawn && m.page) { draw(m.page); }
              note.textContent = drawn
                ? 'The file has errors: the picture below is the last one that had none, dimmed.'
                : 'No picture yet: the file has had errors since wfl preview started. Fix them and it appears here.';
              note.hidden = false;
              body.classList.add('has-errors');
              diag.textContent = m.diagnostics;
              diag.className = '';
              diag.hidden = false;
              body.setAttribute('data-state', 'errors');
              record('errors:' + pic.querySelectorAll('rect.box').length);
            }
            done();
          };
        })();
        """
}
