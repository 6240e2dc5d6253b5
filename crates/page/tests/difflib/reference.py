#!/usr/bin/env python3
"""Writes expected.rs: what Python's difflib.SequenceMatcher answers for the cases that
tests/similarity.rs checks the Rust port against.

Run from this folder with Python 3.11: `python3 reference.py > expected.rs`. The tests
never run Python; they embed this output. Generated sequences are described by a recipe
(seed, length, alphabet) and rebuilt in Rust with the same splitmix64 generator, so only
the recipe, a checksum and the answers are embedded.
"""

import difflib
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def uniform(seed, length, alphabet):
    """`length` elements drawn uniformly from 0..alphabet."""
    rng = SplitMix64(seed)
    return [rng.below(alphabet) for _ in range(length)]


def skewed(seed, length, alphabet):
    """Three quarters of the elements from 0..4 (popular once length >= 200), the rest
    from 0..alphabet: the shape of a tag sequence, where div/span/li dominate."""
    rng = SplitMix64(seed)
    out = []
    for _ in range(length):
        e = rng.below(alphabet)
        if rng.below(4) != 0:
            e %= 4
        out.append(e)
    return out


def mutate(seed, base, per_mille, alphabet):
    """Each element of `base` is, with probability per_mille/1000, deleted, replaced, or
    preceded by an inserted element."""
    rng = SplitMix64(seed)
    out = []
    for e in base:
        if rng.below(1000) < per_mille:
            op = rng.below(3)
            if op == 0:
                continue
            if op == 1:
                out.append(rng.below(alphabet))
                continue
            out.append(rng.below(alphabet))
        out.append(e)
    return out


def build(recipe):
    kind = recipe[0]
    if kind == "uniform":
        return uniform(*recipe[1:])
    if kind == "skewed":
        return skewed(*recipe[1:])
    if kind == "mutate":
        _, seed, base, per_mille, alphabet = recipe
        return mutate(seed, build(base), per_mille, alphabet)
    if kind == "lit":
        return list(recipe[1])
    raise ValueError(kind)


def rust_recipe(recipe):
    kind = recipe[0]
    if kind == "uniform":
        return "Gen::Uniform {{ seed: {}, len: {}, alphabet: {} }}".format(*recipe[1:])
    if kind == "skewed":
        return "Gen::Skewed {{ seed: {}, len: {}, alphabet: {} }}".format(*recipe[1:])
    if kind == "mutate":
        _, seed, base, per_mille, alphabet = recipe
        return "Gen::Mutate {{ seed: {}, base: &{}, per_mille: {}, alphabet: {} }}".format(
            seed, rust_recipe(base), per_mille, alphabet
        )
    if kind == "lit":
        return "Gen::Lit(&[{}])".format(", ".join(str(x) for x in recipe[1]))
    raise ValueError(kind)


def text(s):
    return ("lit", [ord(c) for c in s])


def checksum(seq):
    h = 0
    for x in seq:
        h = (h * 31 + x + 1) & MASK
    return h


CASES = [
    # name, a, b, junk elements (isjunk = membership), autojunk
    ("doc_abxcd", text("abxcd"), text("abcd"), None, True),
    ("doc_qabxcdef", text("qabxcd"), text("abycdf"), None, True),
    ("doc_blank_junk", text(" abcd"), text("abcd abcd"), [ord(" ")], True),
    ("doc_no_junk", text(" abcd"), text("abcd abcd"), None, True),
    ("doc_thread", text("private Thread currentThread;"),
     text("private volatile Thread currentThread;"), [ord(" ")], True),
    ("short_swap", text("abcd"), text("bcda"), None, True),
    ("short_repeat", text("aaaa"), text("aa"), None, True),
    ("short_interleave", text("abababab"), text("baba"), None, True),
    ("single_same", text("x"), text("x"), None, True),
    ("single_diff", text("x"), text("y"), None, True),
    ("empty_both", ("lit", []), ("lit", []), None, True),
    ("empty_a", ("lit", []), text("abc"), None, True),
    ("empty_b", text("abc"), ("lit", []), None, True),
    ("disjoint", text("abcdef"), text("uvwxyz"), None, True),
    ("identical_short", text("the quick brown fox"), text("the quick brown fox"), None, True),
    ("identical_long", ("skewed", 7, 600, 30), ("skewed", 7, 600, 30), None, True),
    ("b_all_one_popular_element", ("uniform", 8, 300, 10),
     ("mutate", 1, ("uniform", 9, 300, 1), 0, 1), None, True),
    # b of 199 elements: autojunk off; 200: on (ntest = 3).
    ("autojunk_199", ("skewed", 11, 199, 12), ("skewed", 12, 199, 12), None, True),
    ("autojunk_200", ("skewed", 11, 200, 12), ("skewed", 12, 200, 12), None, True),
    ("autojunk_off_200", ("skewed", 11, 200, 12), ("skewed", 12, 200, 12), None, False),
    # junk-heavy: almost everything popular; matches extend over popular elements.
    ("junk_heavy_250", ("skewed", 21, 250, 6), ("mutate", 22, ("skewed", 21, 250, 6), 50, 6), None, True),
    ("junk_heavy_1000", ("skewed", 23, 1000, 8), ("mutate", 24, ("skewed", 23, 1000, 8), 100, 8), None, True),
    ("all_popular_300", ("uniform", 25, 300, 3), ("uniform", 26, 300, 3), None, True),
    ("all_popular_same_300", ("uniform", 25, 300, 3), ("mutate", 27, ("uniform", 25, 300, 3), 20, 3), None, True),
    ("popular_in_b_only", ("uniform", 28, 50, 40), ("skewed", 29, 400, 40), None, True),
    ("junk_and_autojunk", ("skewed", 31, 300, 20), ("mutate", 32, ("skewed", 31, 300, 20), 80, 20), [0, 5], True),
    ("junk_no_autojunk", ("skewed", 31, 300, 20), ("mutate", 32, ("skewed", 31, 300, 20), 80, 20), [0, 5], False),
    ("random_small_alphabet", ("uniform", 41, 120, 4), ("uniform", 42, 130, 4), None, True),
    ("random_large_alphabet", ("uniform", 43, 150, 200), ("uniform", 44, 140, 200), None, True),
]
# A few hundred-element tag-like sequences and their mutations, both directions.
for k in range(8):
    length = 150 + 60 * k
    alphabet = 12 + 5 * k
    base = ("skewed", 100 + k, length, alphabet)
    other = ("mutate", 200 + k, base, 30 + 40 * k, alphabet)
    CASES.append((f"tags_{k}_forward", base, other, None, True))
    CASES.append((f"tags_{k}_backward", other, base, None, True))
for k in range(4):
    length = 400 + 100 * k
    base = ("uniform", 300 + k, length, 50)
    other = ("mutate", 400 + k, base, 150, 50)
    CASES.append((f"uniform_{k}", base, other, None, True))


def main():
    out = sys.stdout
    out.write("// @generated by reference.py with Python {}. Do not edit.\n\n".format(sys.version.split()[0]))
    out.write("use super::{Case, Gen, Lmatch};\n\n")
    out.write("pub const CASES: &[Case] = &[\n")
    for name, ra, rb, junk, autojunk in CASES:
        a = build(ra)
        b = build(rb)
        isjunk = (lambda x, j=frozenset(junk): x in j) if junk is not None else None
        sm = difflib.SequenceMatcher(isjunk, a, b, autojunk=autojunk)
        blocks = sm.get_matching_blocks()
        # find_longest_match on the whole range and on a middle window.
        whole = sm.find_longest_match(0, len(a), 0, len(b))
        alo, ahi = len(a) // 4, len(a) - len(a) // 5
        blo, bhi = len(b) // 3, len(b) - len(b) // 6
        window = sm.find_longest_match(alo, ahi, blo, bhi)
        out.write("    Case {\n")
        out.write(f"        name: {name!r},\n".replace("'", '"'))
        out.write(f"        a: {rust_recipe(ra)},\n")
        out.write(f"        b: {rust_recipe(rb)},\n")
        out.write(f"        a_check: ({len(a)}, {checksum(a)}),\n")
        out.write(f"        b_check: ({len(b)}, {checksum(b)}),\n")
        junk_list = ", ".join(str(x) for x in (junk or []))
        out.write(f"        junk: {'Some(&[' + junk_list + '])' if junk is not None else 'None'},\n")
        out.write(f"        autojunk: {'true' if autojunk else 'false'},\n")
        out.write(f"        ratio: {sm.ratio()!r},\n")
        out.write(f"        quick_ratio: {sm.quick_ratio()!r},\n")
        out.write(f"        real_quick_ratio: {sm.real_quick_ratio()!r},\n")
        out.write("        blocks: &[{}],\n".format(
            ", ".join(f"({m.a}, {m.b}, {m.size})" for m in blocks)))
        out.write(f"        longest: ({whole.a}, {whole.b}, {whole.size}),\n")
        out.write(f"        window: Lmatch {{ alo: {alo}, ahi: {ahi}, blo: {blo}, bhi: {bhi}, "
                  f"found: ({window.a}, {window.b}, {window.size}) }},\n")
        out.write("    },\n")
    out.write("];\n")


if __name__ == "__main__":
    main()
