#!/usr/bin/env python3
"""Tokenizes files with a TextMate grammar and checks the scopes given to chosen spans.

A small interpreter of the part of TextMate grammars that editors/wfl.tmLanguage.json uses:
`match` and `begin`/`end` rules with `name`, `captures`, `beginCaptures`, `endCaptures` and
`patterns`, `include` of `#name` (the repository) and `$self`. Lines are matched one at a time with
their line break, as editors do; at each position the leftmost match wins, and of matches at the
same position the end of the open rule first, then the first pattern in order. Python's `re` reads
the grammar's expressions (it uses no Oniguruma-only syntax).

usage: textmate.py GRAMMAR CHECKS
CHECKS is JSON: [{"path": FILE, "checks": [{"start": BYTE, "end": BYTE, "scope": PREFIX,
"what": TEXT}, ...]}, ...]. Each check passes when every character of the span has a scope that
starts with PREFIX. Also, every word outside comments and strings must get a scope of its own.
Exit status 0 when every check passes, 1 otherwise (each failure printed), 2 on bad input.
Only the standard library.
"""

import json
import re
import sys

ROOT_SCOPE = "source.wfl"


class Grammar:
    def __init__(self, data):
        self.data = data
        self.repository = data.get("repository", {})
        self.compiled = {}

    def regex(self, text):
        if text not in self.compiled:
            self.compiled[text] = re.compile(text)
        return self.compiled[text]

    def expand(self, patterns, seen=None):
        """The rules of a pattern list with every include replaced by what it names."""
        seen = set() if seen is None else seen
        out = []
        for p in patterns:
            if "include" in p:
                ref = p["include"]
                if ref == "$self":
                    key = "$self"
                    target = self.data
                elif ref.startswith("#"):
                    key = ref
                    target = self.repository[ref[1:]]
                else:
                    raise ValueError("unsupported include " + ref)
                if key in seen:
                    continue
                if "match" in target or "begin" in target:
                    out.append(target)
                else:
                    out.extend(self.expand(target.get("patterns", []), seen | {key}))
            else:
                out.append(p)
        return out


def scopes_of_captures(captures, match, base, line_scopes):
    """Gives the groups of a match their scopes (group 0 first, then the others in order)."""
    for key in sorted(captures or {}, key=int):
        group = int(key)
        if match.start(group) < 0:
            continue
        name = captures[key].get("name")
        if name:
            for k in range(match.start(group), match.end(group)):
                line_scopes[k] = line_scopes[k] + [name]


def tokenize(grammar, text):
    """Scopes of every character, line by line: a list of lists of scope lists."""
    stack = [(None, [ROOT_SCOPE], grammar.data.get("patterns", []))]  # (rule, scopes, patterns)
    result = []
    for raw in text.split("\n"):
        line = raw + "\n"
        scopes = [None] * len(line)
        pos = 0
        while pos < len(line):
            rule, current, patterns = stack[-1]
            best = None  # (start, order, kind, rule, match)
            if rule is not None:
                m = grammar.regex(rule["end"]).search(line, pos)
                if m:
                    best = (m.start(), -1, "end", rule, m)
            for order, p in enumerate(grammar.expand(patterns)):
                key = "match" if "match" in p else "begin"
                m = grammar.regex(p[key]).search(line, pos)
                if m and (best is None or m.start() < best[0]):
                    best = (m.start(), order, key, p, m)
            if best is None:
                for k in range(pos, len(line)):
                    scopes[k] = current
                break
            start, _, kind, p, m = best
            for k in range(pos, start):
                scopes[k] = current
            if kind == "end":
                for k in range(m.start(), m.end()):
                    scopes[k] = current
                scopes_of_captures(p.get("endCaptures", p.get("captures")), m, current, scopes)
                stack.pop()
                pos = m.end()
                continue
            inner = current + ([p["name"]] if "name" in p else [])
            if kind == "match":
                for k in range(m.start(), m.end()):
                    scopes[k] = inner
                scopes_of_captures(p.get("captures"), m, inner, scopes)
                if m.end() == m.start():
                    scopes[pos] = current
                    pos += 1
                else:
                    pos = m.end()
            else:
                for k in range(m.start(), m.end()):
                    scopes[k] = inner
                scopes_of_captures(p.get("beginCaptures", p.get("captures")), m, inner, scopes)
                body = inner + ([p["contentName"]] if "contentName" in p else [])
                stack.append((p, body, p.get("patterns", [])))
                pos = m.end() if m.end() > m.start() else pos + 1
        result.append(scopes)
    return result


def char_positions(data):
    """For each byte offset of the file, its (line, character) position."""
    positions = {}
    line, offset = 0, 0
    for raw in data.split(b"\n"):
        text = raw.decode("utf-8")
        byte = offset
        for col, ch in enumerate(text):
            positions[byte] = (line, col)
            byte += len(ch.encode("utf-8"))
        positions[byte] = (line, len(text))
        offset += len(raw) + 1
        line += 1
    return positions


WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_file(grammar, path, checks):
    with open(path, "rb") as f:
        data = f.read()
    lines = tokenize(grammar, data.decode("utf-8"))
    positions = char_positions(data)
    failures = []
    for c in checks:
        line, col = positions[c["start"]]
        end_line, end_col = positions[c["end"]]
        spots = []
        for n in range(line, end_line + 1):
            first = col if n == line else 0
            last = end_col if n == end_line else len(lines[n]) - 1
            spots += [(n, k) for k in range(first, last)]
        for n, k in spots:
            got = lines[n][k]
            if not any(s.startswith(c["scope"]) for s in got):
                failures.append("%s:%d:%d: %s: expected %s, got %s" % (path, n + 1, k + 1, c["what"], c["scope"], " ".join(got)))
                break
    # No word is left with the root scope alone, outside comments and strings.
    text_lines = data.decode("utf-8").split("\n")
    for n, text in enumerate(text_lines):
        for m in WORD.finditer(text):
            got = lines[n][m.start()]
            if any(s.startswith("comment") or s.startswith("string") for s in got):
                continue
            if len(got) < 2:
                failures.append("%s:%d:%d: the word '%s' has no scope" % (path, n + 1, m.start() + 1, m.group()))
    return failures, len(checks)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        grammar = Grammar(json.load(f))
    with open(argv[2], encoding="utf-8") as f:
        files = json.load(f)
    failures, count = [], 0
    for entry in files:
        fs, n = check_file(grammar, entry["path"], entry["checks"])
        failures += fs
        count += n
    for f in failures[:50]:
        print(f)
    if len(failures) > 50:
        print("... and %d more" % (len(failures) - 50))
    print("%d files, %d checks, %d failures" % (len(files), count, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
