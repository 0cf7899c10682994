/* The lexing yardstick: a plain byte-level tokenizer of the .wfl lexical grammar that counts
 * tokens. See cbaseline.h. */

#include "cbaseline.h"

static inline int is_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }
static inline int is_ident_start(unsigned char c) {
    return (unsigned char)((c | 0x20) - 'a') < 26 || c == '_';
}
static inline int is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }
static inline unsigned char at(const unsigned char *b, size_t i, size_t n) { return i < n ? b[i] : 0; }

/* The length of the valid UTF-8 sequence at i, or 0 when the bytes there are not one. */
static size_t utf8_length(const unsigned char *b, size_t i, size_t n) {
    unsigned char c0 = b[i];
    if (c0 < 0x80) return 1;
#define CONT(k) (i + (k) < n && (b[i + (k)] & 0xC0) == 0x80)
    if (c0 >= 0xC2 && c0 <= 0xDF) return CONT(1) ? 2 : 0;
    if (c0 >= 0xE0 && c0 <= 0xEF) {
        if (!CONT(1) || !CONT(2)) return 0;
        if (c0 == 0xE0 && b[i + 1] < 0xA0) return 0; /* overlong */
        if (c0 == 0xED && b[i + 1] >= 0xA0) return 0; /* surrogate */
        return 3;
    }
    if (c0 >= 0xF0 && c0 <= 0xF4) {
        if (!CONT(1) || !CONT(2) || !CONT(3)) return 0;
        if (c0 == 0xF0 && b[i + 1] < 0x90) return 0; /* overlong */
        if (c0 == 0xF4 && b[i + 1] >= 0x90) return 0; /* above U+10FFFF */
        return 4;
    }
    return 0;
#undef CONT
}

/* Steps over one byte or UTF-8 sequence (an invalid byte counts as one). */
static inline size_t skip_scalar(const unsigned char *b, size_t i, size_t n) {
    size_t k = utf8_length(b, i, n);
    return i + (k ? k : 1);
}

/* Digits with `_` between them; returns the position after them. */
static inline size_t digits(const unsigned char *b, size_t i, size_t n) {
    while (i < n && (is_digit(b[i]) || b[i] == '_')) i++;
    return i;
}

/* `digits [ "." digits ] [ ("e" | "E") ["+" | "-"] digits ]`; a number against a word is one
 * (bad) token up to the end of the word, except `375x812`, which ends before the `x`. */
static size_t number(const unsigned char *b, size_t i, size_t n) {
    i = digits(b, i, n);
    if (at(b, i, n) == '.' && is_digit(at(b, i + 1, n))) i = digits(b, i + 1, n);
    unsigned char e = at(b, i, n);
    if (e == 'e' || e == 'E') {
        size_t j = i + 1;
        if (at(b, j, n) == '+' || at(b, j, n) == '-') j++;
        if (is_digit(at(b, j, n))) i = digits(b, j, n);
    }
    if (at(b, i, n) == 'x' && !is_ident_start(at(b, i + 1, n))) return i;
    if (is_ident_start(at(b, i, n)) || at(b, i, n) == '.') {
        while (i < n && (is_ident_char(b[i]) || b[i] == '.')) i++;
    }
    return i;
}

/* A string from its opening quote; ends after the closing quote, or at the end of the line. */
static size_t string(const unsigned char *b, size_t i, size_t n) {
    i++;
    while (i < n) {
        unsigned char c = b[i];
        if (c == '"') return i + 1;
        if (c == '\n') return i;
        if (c == '\\') {
            unsigned char d = at(b, i + 1, n);
            if (d == 'u' && at(b, i + 2, n) == '{') {
                i += 3;
                while (i < n && b[i] != '}' && b[i] != '"' && b[i] != '\n') i++;
                if (at(b, i, n) == '}') i++;
            } else if (d == '\n' || d == 0) {
                i++;
            } else {
                i = skip_scalar(b, i + 1, n);
            }
            continue;
        }
        i = c < 0x80 ? i + 1 : skip_scalar(b, i, n);
    }
    return i;
}

size_t wflc_count_tokens(const unsigned char *b, size_t n) {
    size_t i = 0, count = 0;
    if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;
    while (i < n) {
        unsigned char c = b[i];
        switch (c) {
        case ' ': case '\t': case '\r':
            i++;
            break;
        case '\n':
            i++;
            count++;
            break;
        case '"':
            i = string(b, i, n);
            count++;
            break;
        case '/':
            if (at(b, i + 1, n) == '/') {
                i += 2;
                while (i < n && b[i] != '\n') i = b[i] < 0x80 ? i + 1 : skip_scalar(b, i, n);
            } else if (at(b, i + 1, n) == '*') {
                int depth = 1, newline = 0;
                i += 2;
                while (depth > 0 && i < n) {
                    unsigned char d = b[i];
                    if (d == '*' && at(b, i + 1, n) == '/') { depth--; i += 2; }
                    else if (d == '/' && at(b, i + 1, n) == '*') { depth++; i += 2; }
                    else if (d == '\n') { newline = 1; i++; }
                    else i = d < 0x80 ? i + 1 : skip_scalar(b, i, n);
                }
                if (depth > 0) count++; /* unterminated: an error token */
                count += newline;
            } else {
                i++;
                count++;
            }
            break;
        case '{': case '}': case '(': case ')': case '[': case ']': case ',': case ';':
        case '+': case '-': case '*': case '%': case '?': case ':':
            i++;
            count++;
            break;
        case '=': case '!': case '<': case '>':
            i += at(b, i + 1, n) == '=' ? 2 : 1;
            count++;
            break;
        case '&': case '|':
            i += at(b, i + 1, n) == c ? 2 : 1;
            count++;
            break;
        default:
            if (is_ident_start(c)) {
                i++;
                while (i < n && is_ident_char(b[i])) i++;
            } else if (is_digit(c)) {
                i = number(b, i, n);
                /* `375x812`: number, `x`, number. */
                if (at(b, i, n) == 'x' && is_digit(at(b, i + 1, n))) {
                    i++;
                    count++;
                }
            } else {
                i = skip_scalar(b, i, n); /* stray character: an error token */
            }
            count++;
            break;
        }
    }
    return count + 1; /* end of input */
}
