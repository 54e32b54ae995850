"""inserted_tokens / deleted_tokens: upstream's tokenizer cases and token-count tests
(reference section 3.1, `MET/patch_metrics.rs` and `MET/tokenize.rs`), and hand-made ones."""

from __future__ import annotations

import random

import pytest

from evaltools.score.metrics.tokens import (
    _ASCII_PARTS,
    TokenChanges,
    _split_identifier,
    changed_tokens,
    count_patch_token_changes,
    tokenize,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("hello world", ["hello", " ", "world"]),
        ("foo_bar123 + baz", ["foo", "_", "bar123", " ", "+", " ", "baz"]),
        ('print("hello")', ["print", "(", '"', "hello", '"', ")"]),
        ("fn();", ["fn", "(", ")", ";"]),
        (
            "camelCase PascalCase snake_case",
            ["camel", "Case", " ", "Pascal", "Case", " ", "snake", "_", "case"],
        ),
        (
            "myHTTPServer __private_value foo__bar",
            ["my", "HTTP", "Server", " ", "__", "private", "_", "value", " ", "foo", "__", "bar"],
        ),
        ("XMLHttpRequest Version2Update", ["XML", "Http", "Request", " ", "Version2", "Update"]),
        (
            "a::b -> c != d ..= e",
            ["a", "::", "b", " ", "->", " ", "c", " ", "!=", " ", "d", " ", "..=", " ", "e"],
        ),
        ("foo?.bar ?? baz", ["foo", "?.", "bar", " ", "??", " ", "baz"]),
        ("  ", ["  "]),
        ("  \n   foo", ["  ", "\n", "   ", "foo"]),
        ("\r\n\nfoo", ["\r\n\n", "foo"]),
        # Hand-made: >>>= before >>=, a lone char, non-ASCII identifiers and spaces.
        ("x >>>= 1;", ["x", " ", ">>>=", " ", "1", ";"]),
        ("é\u00a0ÀbC", ["é", "\u00a0", "Àb", "C"]),
        ("a\tb", ["a", "\t", "b"]),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_upstream_token_counts() -> None:
    # patch_metrics.rs: simple replacement, two hunks, one-line rename, expansion, empty.
    replacement = (
        '@@ -1,3 +1,3 @@\n fn main() {\n-    println!("hello");\n+    println!("world");\n }\n'
    )
    assert count_patch_token_changes(replacement) == TokenChanges(1, 1)
    hunks = (
        "@@ -1,3 +1,3 @@\n fn main() {\n-    let x = 1;\n+    let x = 2;\n }\n"
        "@@ -10,3 +10,3 @@\n fn other() {\n-    let y = 3;\n+    let y = 4;\n }\n"
    )
    assert count_patch_token_changes(hunks) == TokenChanges(2, 2)
    rename = "--- a/x\\README.md\n+++ b/x\\README.md\n@@ -1,1 +1,1 @@\n-# \n+# SIP Call\n"
    assert count_patch_token_changes(rename) == TokenChanges(3, 0)  # "SIP", " ", "Call"
    expansion = (
        "--- a/app.html\n+++ b/app.html\n@@ -1,7 +1,9 @@\n <style>\n-  m\n+  main {\n+    \n"
        "+  }\n </style>\n \n <main>\n   \n </main>\n"
    )
    counts = count_patch_token_changes(expansion)
    assert counts.inserted > 0 and counts.deleted > 0
    assert count_patch_token_changes("") == TokenChanges(0, 0)
    words = "@@ -1,1 +1,1 @@\n-hello world foo\n+hello bar baz\n"
    assert count_patch_token_changes(words) == TokenChanges(2, 2)


def test_runs_and_headers() -> None:
    # The two runs are diffed apart: "a" deleted in one, inserted in the other.
    two_runs = "@@ -1,3 +1,3 @@\n-a\n x\n+a\n"
    assert count_patch_token_changes(two_runs) == TokenChanges(1, 1)
    # Within one run, lines join with "\n": moving "b" above "a" is one delete, one insert.
    assert count_patch_token_changes("@@\n-a\n-b\n+b\n+a\n") == TokenChanges(2, 2)
    # A removed line that reads as a header is not counted, as upstream skips it.
    assert count_patch_token_changes("@@\n--- x\n+y\n") == TokenChanges(1, 0)
    # CRLF lines: Rust's lines() drops the \r.
    assert count_patch_token_changes("@@\r\n-a b\r\n+a c\r\n") == TokenChanges(1, 1)


def test_changed_tokens_is_a_minimal_diff() -> None:
    assert changed_tokens(list("abcabba"), list("cbabac")) == TokenChanges(2, 3)  # LCS 4
    assert changed_tokens([], list("ab")) == TokenChanges(2, 0)
    assert changed_tokens(list("ab"), []) == TokenChanges(0, 2)
    assert changed_tokens(list("abc"), list("abc")) == TokenChanges(0, 0)
    assert changed_tokens(list("xaby"), list("xbay")) == TokenChanges(1, 1)


def _lcs(a: list[str], b: list[str]) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


def test_changed_tokens_agrees_with_the_textbook_lcs() -> None:
    draw = random.Random(18)
    for _ in range(500):
        a = [draw.choice("abcd") for _ in range(draw.randint(0, 40))]
        b = [draw.choice("abcd") for _ in range(draw.randint(0, 40))]
        common = _lcs(a, b)
        assert changed_tokens(a, b) == TokenChanges(len(b) - common, len(a) - common)


def test_ascii_words_split_as_the_general_rule_does() -> None:
    draw = random.Random(18)
    for _ in range(5000):
        word = "".join(draw.choice("aAbB1_zZ9") for _ in range(draw.randint(1, 9)))
        general: list[str] = []
        _split_identifier(word, general)
        assert _ASCII_PARTS.findall(word) == general, word


def test_ascii_text_tokenizes_as_the_general_path_does() -> None:
    draw = random.Random(18)
    alphabet = "aAbZ9_ \t\n\r\x0b\x1c:.=<>-+*/?!&|%^(){}\"'"
    for _ in range(3000):
        text = "".join(draw.choice(alphabet) for _ in range(draw.randint(0, 30)))
        # A non-ASCII word at the end sends the text down the general path; `@` is in no
        # operator, so it stays a token of its own and nothing before it changes.
        general = tokenize(text + "@\u00e9")
        assert general[-2:] == ["@", "\u00e9"]
        assert tokenize(text) == general[:-2], text
