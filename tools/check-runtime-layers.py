#!/usr/bin/env python3
"""Checks that nnue-runtime's modules import in one direction.

    tools/check-runtime-layers.py [SRC] [--deps] [--cycles-only]

SRC is nnue-runtime/src (the default). The layers are read from the crate
documentation in SRC/lib.rs: the numbered list after the line "Layers,
lowest first", each item naming its modules in backticks before a colon,
for example

    //! 1. `interval`, `aligned`: ...

Every module belongs to the layer naming it or its closest ancestor.

A module depends on another when its code names it: a `crate::`,
`$crate::`, `super::` or `self::` path, a `use` of one, or a path through
a child module, resolved through `use` re-exports to the module that
defines the item (`crate::Isa` is `platform::isa`'s), and when it invokes a
`macro_rules!` macro defined in another module. Not counted: comments,
string literals (doc attributes), items under `#[cfg(test)]` (tests compare
a layer with the reference above it), and a parent declaring a child
module or re-exporting its items (`mod x; pub use x::Y;`: the module tree,
not a use of the child's code). The crate root (lib.rs) only declares and
re-exports: it is above every layer, and nothing may import from it.

Fails (exit status 1) when
  - two modules depend on each other, or any cycle of dependencies exists;
  - a module depends on a module of a higher layer (the crate root, which
    declares every module, is above them all);
  - a module belongs to no layer;
  - a module names a path through a `#[doc(hidden)]` re-export (the old
    paths kept for code outside the crate).
With --deps, also prints each module's dependencies. With --cycles-only,
only modules importing each other and cycles fail (for the workspace's
other crates, which have no layers and whose crate roots hold code).
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(src):
    """`src` without comments, string and char literals (kept as empty
    strings), so that only code is left."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if src[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', src[i:i + 10]) and not re.match(r"[A-Za-z0-9_]", src[i - 1:i] or " "):
            hashes = re.match(r'r(#*)"', src[i:]).group(1)
            end = src.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == "b" and src.startswith('b"', i) and not re.match(r"[A-Za-z0-9_]", src[i - 1:i] or " "):
            i += 1
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:  # a lifetime or a loop label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_item(code, i):
    """The index just past the item starting at `i` (its attributes, then up
    to a `;` or a balanced `{...}` at depth 0)."""
    n, depth = len(code), 0
    while i < n:
        c = code[i]
        if c == "#" and depth == 0 and code[i:i + 2] in ("#[", "#!"):
            j = code.index("[", i)
            d = 0
            while j < n:
                d += {"[": 1, "]": -1}.get(code[j], 0)
                j += 1
                if d == 0:
                    break
            i = j
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        elif c == "{" and depth == 0:
            d = 0
            while i < n:
                d += {"{": 1, "}": -1}.get(code[i], 0)
                i += 1
                if d == 0:
                    return i
        i += 1
    return n


TEST_CFG = re.compile(r"#\[cfg\((?:all\((?:[^()]|\([^()]*\))*?\b)?test\b")


def strip_tests(code):
    """`code` without the items under `#[cfg(test)]` or `#[cfg(all(test,
    ...))]`."""
    while True:
        m = TEST_CFG.search(code)
        if not m:
            return code
        end = skip_item(code, m.start())
        code = code[:m.start()] + "\n" * code[m.start():end].count("\n") + code[end:]


def parse_tree(code, i):
    """Parses a use tree at `i`: returns (list of (segments, alias)), end)."""
    segs = []
    n = len(code)
    while True:
        while i < n and code[i].isspace():
            i += 1
        if code.startswith("$crate", i):
            segs.append("crate")
            i += 6
        elif i < n and code[i] == "{":
            i += 1
            results = []
            while True:
                while i < n and (code[i].isspace() or code[i] == ","):
                    i += 1
                if i >= n or code[i] == "}":
                    return [(segs + s, a) for s, a in results], i + 1
                sub, i = parse_tree(code, i)
                results += sub
        elif i < n and code[i] == "*":
            return [(segs + ["*"], None)], i + 1
        else:
            m = re.compile(IDENT).match(code, i)
            if not m:
                return [(segs, None)], i
            segs.append(m.group(0))
            i = m.end()
        m = re.compile(r"\s*::\s*").match(code, i)
        if m and not code.startswith("<", m.end()):
            i = m.end()
            continue
        m = re.compile(r"\s+as\s+(" + IDENT + ")").match(code, i)
        if m:
            return [(segs, m.group(1))], m.end()
        return [(segs, None)], i


class Module:
    def __init__(self, name, path):
        self.name = name
        self.path = path
        raw = open(path).read()
        self.code = strip_tests(strip(raw))
        self.children = set(re.findall(r"\bmod\s+(" + IDENT + r")\s*;", self.code))
        self.macros = set(re.findall(r"macro_rules!\s*(" + IDENT + ")", self.code))
        # `use` declarations: (segments, alias, public re-export?)
        self.uses = []
        for m in re.finditer(r"(\bpub(?:\s*\([^)]*\))?\s+)?\buse\s+", self.code):
            # A `use` item, not a word inside an expression.
            before = self.code[:m.start()].rstrip()
            if before and before[-1] not in ";{}]" and not before.endswith("*/"):
                continue
            trees, _ = parse_tree(self.code, m.end())
            attrs = re.search(r"((?:#\[[^\]]*\]\s*)*)$", before).group(1)
            hidden = "doc(hidden)" in attrs.replace(" ", "")
            for segs, alias in trees:
                if segs and segs[-1] == "self":
                    segs = segs[:-1]
                self.uses.append((segs, alias, bool(m.group(1)), hidden))

    def parent(self):
        return self.name.rsplit("::", 1)[0] if "::" in self.name else ""


def load(root):
    mods = {}
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.endswith(".rs"):
                rel = os.path.relpath(os.path.join(d, f), root)[:-3]
                parts = rel.split(os.sep)
                if parts[-1] in ("mod", "lib"):
                    parts = parts[:-1]
                mods["::".join(parts)] = Module("::".join(parts), os.path.join(d, f))
    # Keep only the modules declared by their parents (and the root).
    return {k: m for k, m in mods.items() if k == "" or (m.parent() in mods and k.rsplit("::", 1)[-1] in mods[m.parent()].children)}


def join(a, b):
    return b if not a else a + "::" + b


def absolute(mod, segs):
    """`segs`, relative to module `mod`, from the crate root; None for
    paths into other crates."""
    if not segs:
        return None
    if segs[0] == "crate":
        return segs[1:]
    base = mod.split("::") if mod else []
    if segs[0] in ("self", "super"):
        while segs and segs[0] in ("self", "super"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
        return base + segs
    return None


class Resolver:
    def __init__(self, mods):
        self.mods = mods
        # name -> absolute target segments, per module
        self.imports = {}
        self.hidden = set()  # (module, name) of the hidden re-exports
        for name, m in mods.items():
            table = {}
            for segs, alias, _, hidden in m.uses:
                if not segs or segs[-1] == "*":
                    continue
                target = absolute(name, segs)
                if target is None and segs[0] in m.children:
                    target = (name.split("::") if name else []) + segs
                own = name.split("::") if name else []
                if target is not None and target != own + [alias or segs[-1]]:  # (a module's path to itself, in a function)
                    table[alias or segs[-1]] = target
                    if hidden:
                        self.hidden.add((name, alias or segs[-1]))
            self.imports[name] = table

    def resolve(self, segs, depth=0, via=None):
        """The module defining the item at absolute path `segs`; the hidden
        re-exports the path goes through are added to `via`."""
        cur = ""
        i = 0
        while i < len(segs) and depth < 20:
            s = segs[i]
            child = join(cur, s)
            if child in self.mods:
                cur, i = child, i + 1
                continue
            target = self.imports.get(cur, {}).get(s)
            if target is not None:
                if via is not None and (cur, s) in self.hidden:
                    via.add("::".join(["crate"] + segs[:i + 1]))
                return self.resolve(target + segs[i + 1:], depth + 1, via)
            return cur
        return cur


def dependencies(mods):
    r = Resolver(mods)
    macro_home = {}
    for name, m in mods.items():
        for mac in m.macros:
            macro_home.setdefault(mac, set()).add(name)
    deps = {}
    old_paths = {}
    for name, m in mods.items():
        found = set()
        via = set()
        own = name.split("::") if name else []
        # `use` declarations
        for segs, alias, public, _ in m.uses:
            target = absolute(name, segs)
            is_child = target is None and segs and segs[0] in m.children
            if is_child:
                if public:
                    continue  # a parent re-exporting its child's items
                target = own + segs
            if target is None:
                continue
            if segs[-1] == "*":
                target = target[:-1]
            found.add(r.resolve(target, via=via))
        # paths in the code
        for mm in re.finditer(r"(?<![A-Za-z0-9_:])(\$crate|crate|super|self|" + IDENT + r")\s*::", m.code):
            head = mm.group(1)
            if head not in ("$crate", "crate", "super", "self") and head not in m.children:
                continue
            line_start = m.code.rfind("\n", 0, mm.start()) + 1
            stmt = m.code[line_start:mm.start()]
            if re.search(r"\buse\b", stmt):
                continue  # counted with the `use` declarations above
            trees, _ = parse_tree(m.code, mm.start())
            for segs, _ in trees:
                target = absolute(name, segs) if head in ("$crate", "crate", "super", "self") else own + segs
                if target is not None:
                    found.add(r.resolve(target, via=via))
        # macros defined in other modules
        for mac, homes in macro_home.items():
            if mac in m.macros:
                continue
            if re.search(r"\b" + mac + r"\s*!|simd_isas!\s*\(\s*(?:[\w:]+::)?" + mac + r"\b", m.code):
                found |= homes
        found.discard(name)
        if name == "":
            found = set()  # the root: the crate's facade, above every layer
        deps[name] = found
        if via:
            old_paths[name] = via
    return deps, old_paths


def layers(root):
    """[(number, [module, ...])] from lib.rs's "Layers, lowest first" list."""
    doc = [l[3:].strip() if l.startswith("//!") else None for l in open(os.path.join(root, "lib.rs")).read().split("\n")]
    out, on = [], False
    for line in doc:
        if line is None:
            continue
        if "Layers, lowest first" in line:
            on = True
            continue
        if on:
            m = re.match(r"(\d+)\.\s+(.*?):", line)
            if m:
                names = re.findall(r"`([a-z_0-9:]+)`", m.group(2))
                out.append((int(m.group(1)), list(dict.fromkeys(names))))
            elif not line and out:
                break
    return out


def cycles(deps):
    """The strongly connected components with more than one module."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in deps.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nnue-runtime", "src")
    mods = load(root)
    deps, old_paths = dependencies(mods)
    show = lambda m: m or "(crate root)"
    failures = []

    pairs = sorted((a, b) for a in deps for b in deps[a] if a < b and a in deps.get(b, ()))
    print("pairs:", len(pairs))
    for a, b in pairs:
        print(f"  {show(a)} <-> {show(b)}")
        failures.append(f"{show(a)} and {show(b)} import each other")
    comps = cycles(deps)
    print("cycles:", len(comps))
    for c in comps:
        print("  " + " -> ".join(map(show, c)))
        if len(c) > 2:
            failures.append("cycle: " + ", ".join(map(show, c)))

    if "--cycles-only" in sys.argv:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1 if failures else 0)

    for mod in sorted(deps):
        if "" in deps[mod]:
            failures.append(f"{show(mod)} imports an item of the crate root (lib.rs), which is above every layer")

    order = layers(root)
    level = {}
    for number, names in order:
        for n in names:
            level[n] = number

    def layer_of(mod):
        if mod == "":
            return None
        parts = mod.split("::")
        for k in range(len(parts), 0, -1):
            if "::".join(parts[:k]) in level:
                return level["::".join(parts[:k])]
        return -1

    if order:
        print("layers:", ", ".join(f"{n}. {' '.join(ms)}" for n, ms in order))
        for mod in sorted(deps):
            if mod and layer_of(mod) == -1:
                failures.append(f"{mod} is in no layer")
            for d in sorted(deps[mod]):
                lm, ld = layer_of(mod), layer_of(d)
                if d and mod and lm != -1 and ld != -1 and ld > lm:
                    failures.append(f"{mod} (layer {lm}) imports {d} (layer {ld})")
    else:
        print("layers: none found in lib.rs (no \"Layers, lowest first\" list)")

    for mod in sorted(old_paths):
        for path in sorted(old_paths[mod]):
            failures.append(f"{show(mod)} uses {path}, a hidden re-export of the crate root (a short path for generated code)")

    if "--deps" in sys.argv:
        for m in sorted(deps):
            lm = layer_of(m)
            print(f"{show(m)} [{lm if lm not in (None, -1) else '-'}]: {sorted(map(show, deps[m]))}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
