"""Adversarial repositories for the code graph's resolution: each built at size N and 2N, beside its floor.

    python bench/adversarial.py [--size N] [--cases NAME,...] [--keep DIR] [--checkout DIR] [--timeout S]
                                [--json]

Every language family whose imports the resolver follows gets repositories shaped to make re-exports fan
out: the 390-file JavaScript repository that never finished building (tests that `require('node:test')`
beside a `test/` folder), barrels re-exporting barrels, `export *` cycles, a thousand tests requiring the
package root, deep `__init__` chains and star-import cycles, Go packages importing each other (dot imports
too), Rust `pub use` chains, Java and Kotlin wildcard imports. Each is committed into a fresh repository at
size N and 2N and built with `git route build -q --full --json`; its floor is read + parse as
`bench/perf.py` measures it (floor, in the bench's process) and as a process of its own, which starts Python and
imports pygit2 and the grammars as a build does (flp, `bench/floor_process.py`). Prints per case and size: files
parsed, floor, build / floor, flp, build / flp, build, the graph
(`build_graph`, in process), the doubling ratios build(2N) / build(N) and graph(2N) / graph(N), and the
resolution's work (lookups, files they scanned, bindings followed: steps, not seconds). Targets: doubling
<= 2.3x; build <= 3x floor. Times are CPU seconds (the build and its workers, the floor and its workers),
which a shared machine disturbs much less than wall time; `--json` has the wall times too. Not a test:
tests/test_adversarial.py checks the resolution's work at N and 2N with the same generators,
deterministically.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

Files = dict[str, str]
DOUBLING_TARGET = 2.3
FLOOR_TARGET = 3.0


# ------------------------------------------------------------------------------------------ JavaScript

def js_node_test(n: int) -> Files:
    """n test files that bind `test` from `node:test` (and `import test from 'node:test'`), beside a `test/`
    folder whose helper binds it too, each requiring the package root, which re-exports its lib by require."""
    files = {"package.json": '{"name": "pkg", "main": "index.js"}\n',
             "index.js": "'use strict'\nmodule.exports = require('./lib')\n"}
    names = [f"op{k}" for k in range(8)]
    lines = ["'use strict'"]
    for k, name in enumerate(names):
        files[f"lib/{name}.js"] = (
            "'use strict'\nconst { check } = require('./util')\n\n"
            f"function {name} (value) {{\n  check(value)\n  return value + {k}\n}}\n\nmodule.exports = {{ {name} }}\n")
        lines.append(f"const {{ {name} }} = require('./{name}')")
    files["lib/util.js"] = ("'use strict'\nconst assert = require('node:assert')\nconst path = require('path')\n\n"
                            "function check (value) {\n  assert.ok(value !== undefined, path.sep)\n}\n\n"
                            "module.exports = { check }\n")
    files["lib/index.js"] = "\n".join(lines) + f"\n\nmodule.exports = {{ {', '.join(names)} }}\n"
    files["test/helper.js"] = ("'use strict'\nconst { test, beforeEach } = require('node:test')\n"
                               "const pkg = require('..')\n\nfunction setup () {\n  return pkg.op0(1)\n}\n\n"
                               "module.exports = { setup, test, beforeEach }\n")
    for i in range(n):
        name = names[i % len(names)]
        if i % 3 == 0:
            head = "import test, { describe } from 'node:test'\nimport assert from 'node:assert/strict'\n"
            head += "import pkg from '../index.js'\nimport { setup } from './helper.js'\n"
        else:
            head = ("'use strict'\nconst { test, describe } = require('node:test')\n"
                    "const assert = require('node:assert')\nconst pkg = require('..')\n"
                    "const { setup } = require('./helper')\n")
        files[f"test/case{i}.test.js"] = head + (
            f"\ndescribe('case {i}', () => {{\n  test('{name} adds', () => {{\n    setup()\n"
            f"    assert.strictEqual(pkg.{name}(1), pkg.{name}(0) + 1)\n  }})\n\n"
            f"  test('{name} checks', () => {{\n    assert.throws(() => pkg.{name}())\n  }})\n}})\n")
    return files


def js_require_root(n: int) -> Files:
    """n tests that require the package root, which re-exports a chain of modules each requiring the next
    and re-exporting what it got (`const { a } = require('./next'); module.exports = { a, b }`)."""
    files = {"package.json": '{"name": "root", "main": "index.js"}\n',
             "index.js": "'use strict'\nconst { run0, run1, run2, run3 } = require('./lib/chain0')\n\n"
                         "module.exports = { run0, run1, run2, run3 }\n"}
    depth = 8
    for level in range(depth):
        own = f"run{level}"
        if level + 1 < depth:
            later = [f"run{k}" for k in range(level + 1, depth)]
            head = f"const {{ {', '.join(later)} }} = require('./chain{level + 1}')\n"
        else:
            later, head = [], ""
        files[f"lib/chain{level}.js"] = (
            f"'use strict'\n{head}\nfunction {own} (x) {{\n  return {later[0] + '(x) + ' if later else ''}x\n}}\n\n"
            f"module.exports = {{ {', '.join([own, *later])} }}\n")
    for i in range(n):
        files[f"test/t{i}.test.js"] = (
            "'use strict'\nconst test = require('node:test')\nconst assert = require('assert')\n"
            f"const {{ run{i % 4} }} = require('..')\nconst root = require('../')\n\n"
            f"test('t{i}', () => {{\n  assert.equal(run{i % 4}(1), root.run{(i + 1) % 4}(1))\n}})\n")
    return files


def ts_barrels(n: int) -> Files:
    """Barrel files re-exporting barrels (`export *`, and names imported then exported) in a tree, an
    `export *` cycle between two barrels, and n consumers importing from the top barrel."""
    files: Files = {"package.json": '{"name": "barrels"}\n', "tsconfig.json": '{"compilerOptions": {}}\n'}
    leaves = max(8, n // 4)
    names = [f"make{k}" for k in range(leaves)]
    for k, name in enumerate(names):
        files[f"src/leaf/part{k}.ts"] = (
            f"import {{ log }} from '../util/log'\n\nexport function {name}(x: number): number {{\n"
            f"  log('{name}')\n  return x * {k + 1}\n}}\n\nexport class Thing{k} {{\n"
            f"  run(): number {{\n    return {name}(2)\n  }}\n}}\n")
    files["src/util/log.ts"] = "export function log(message: string): void {\n  console.log(message)\n}\n"
    # Level 1 barrels: each re-exports a slice of leaves, by `export *` and by name.
    groups = [names[g:g + 8] for g in range(0, leaves, 8)]
    for g, group in enumerate(groups):
        stars = "".join(f"export * from '../leaf/part{names.index(name)}'\n" for name in group)
        imports = "".join(f"import {{ {name} }} from '../leaf/part{names.index(name)}'\n" for name in group)
        files[f"src/group{g}/index.ts"] = stars + imports + f"export {{ {', '.join(group)} }}\n"
    # Level 2: one barrel per four groups, then the top; `a` and `b` re-export each other.
    tops = []
    for h in range(0, len(groups), 4):
        members = range(h, min(h + 4, len(groups)))
        text = "".join(f"export * from '../group{g}'\n" for g in members)
        text += "".join(f"import {{ {', '.join(groups[g])} }} from '../group{g}'\n" for g in members)
        text += f"export {{ {', '.join(name for g in members for name in groups[g])} }}\n"
        files[f"src/hub{h // 4}/index.ts"] = text
        tops.append(h // 4)
    top = "".join(f"export * from './hub{t}'\n" for t in tops) + "export * from './cycle/a'\n"
    for t in tops:
        hub = [name for g in range(t * 4, min(t * 4 + 4, len(groups))) for name in groups[g]]
        top += f"import {{ {', '.join(hub)} }} from './hub{t}'\n"
    files["src/index.ts"] = top + f"export {{ {', '.join(names)} }}\n"
    files["src/cycle/a.ts"] = "export * from './b'\nimport { fromB } from './b'\nexport { fromB }\n" \
                              "export function fromA(): number {\n  return fromB()\n}\n"
    files["src/cycle/b.ts"] = "export * from './a'\nimport { fromA } from './a'\nexport { fromA }\n" \
                              "export function fromB(): number {\n  return 1\n}\n"
    for i in range(n):
        name = names[i % leaves]
        files[f"test/use{i}.test.ts"] = (
            f"import {{ {name}, fromA }} from '../src'\nimport * as all from '../src/index'\n"
            f"import {{ test }} from 'node:test'\n\ntest('use {i}', () => {{\n  {name}(1)\n  fromA()\n"
            f"  all.{names[(i + 1) % leaves]}(2)\n}})\n")
    return files


def ts_star_cycle(n: int) -> Files:
    """n modules in one `export *` ring, each importing (and re-exporting) its two successors' functions."""
    files: Files = {"package.json": '{"name": "ring"}\n'}
    for i in range(n):
        a, b = (i + 1) % n, (i + 2) % n
        files[f"src/ring/m{i}.ts"] = (
            f"export * from './m{a}'\nimport {{ f{a} }} from './m{a}'\nimport {{ f{b} }} from './m{b}'\n"
            f"export {{ f{a}, f{b} }}\n\nexport function f{i}(x: number): number {{\n"
            f"  return x > 0 ? f{a}(x - 1) + f{b}(x - 2) : 0\n}}\n")
    for i in range(0, n, 4):
        files[f"src/use{i}.ts"] = (f"import {{ f{(i + 3) % n} }} from './ring/m{i}'\n\n"
                                   f"export function use{i}(): number {{\n  return f{(i + 3) % n}(3)\n}}\n")
    return files


# ------------------------------------------------------------------------------------------ Python

def py_init_chain(n: int) -> Files:
    """A package whose `__init__` files re-export six levels deep (`from .sub import *` and by name), leaves
    defining functions, a star-import cycle, and n test modules importing from the top, with stdlib names
    (`json`, `typing`, `email`) beside same-named folders of the repository."""
    files: Files = {"pkg/json/__init__.py": "def dumps(value):\n    return str(value)\n",
                    "tests/email/helpers.py": "def send(message):\n    return message\n",
                    "pkg/typing.py": "Alias = int\n"}
    depth = 6
    width = max(4, n // 8)
    path = "pkg"
    for level in range(depth):
        sub = f"level{level}"
        text = f"from .{sub} import *\nfrom .{sub} import deep{level}\n" if level + 1 < depth else ""
        files[f"{path}/__init__.py"] = text + f"from .mod{level} import *\n"
        files[f"{path}/mod{level}.py"] = "".join(
            f"def leaf{level}_{k}(x):\n    return helper{level}(x) + {k}\n\n\n" for k in range(width)
        ) + f"def helper{level}(x):\n    return x\n\n\ndef deep{level}():\n    return leaf{level}_0(1)\n"
        path = f"{path}/{sub}"
    cycle = 8
    for c in range(cycle):
        files[f"pkg/ring/r{c}.py"] = (f"from pkg.ring.r{(c + 1) % cycle} import *\n\n\n"
                                      f"def ring{c}():\n    return ring{(c + 1) % cycle}()\n")
    files["pkg/ring/__init__.py"] = "from .r0 import *\n"
    for i in range(n):
        level, k = i % depth, i % width
        files[f"tests/test_case{i}.py"] = (
            "import json\nimport typing\nfrom email.message import Message\n\nimport pkg\n"
            f"from pkg import leaf{level}_{k}, deep{min(level, depth - 2)}\nfrom pkg.ring import ring{i % cycle}\n\n\n"
            f"def test_case{i}() -> typing.Any:\n    json.dumps(Message())\n"
            f"    assert leaf{level}_{k}(1) == pkg.leaf0_{k}(1)\n    deep{min(level, depth - 2)}()\n"
            f"    return ring{i % cycle}()\n")
    return files


def py_star_cycle(n: int) -> Files:
    """n modules of one package in a star-import ring, each also importing by name from the next two and
    star-importing the package, whose `__init__` star-imports every module (a fan-out of n at each level)."""
    files: Files = {"ring/__init__.py": "".join(f"from .m{i} import *\n" for i in range(n))}
    for i in range(n):
        nxt = [(i + d) % n for d in (1, 2, 3)]
        files[f"ring/m{i}.py"] = (
            f"from ring import *\nfrom .m{nxt[0]} import *\nfrom .m{nxt[1]} import f{nxt[1]}\n"
            f"from ring.m{nxt[2]} import f{nxt[2]}\n\n\n"
            f"def f{i}(x):\n    if x <= 0:\n        return missing(x)\n"
            f"    return f{nxt[0]}(x - 1) + f{nxt[1]}(x - 2) + f{nxt[2]}(x - 3)\n")
    return files


# ------------------------------------------------------------------------------------------ Go, Rust, JVM

def go_packages(n: int) -> Files:
    """Four packages of n/4 files each, every file dot-importing the next package and importing the one after
    by name, calling Go's builtins (which no file defines: every dot import is searched for them)."""
    files: Files = {"go.mod": "module example.com/m\n\ngo 1.21\n"}
    packages, per = 4, max(1, n // 4)
    for p in range(packages):
        a, b = (p + 1) % packages, (p + 2) % packages
        for f in range(per):
            files[f"p{p}/f{f}.go"] = (
                f"package p{p}\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n\tq \"example.com/m/p{b}\"\n"
                f"\t. \"example.com/m/p{a}\"\n)\n\n"
                f"// F{f} calls its neighbours.\nfunc F{f}(s string) string {{\n\txs := make([]string, 0, len(s))\n"
                f"\txs = append(xs, strings.ToUpper(s), q.G{(f + 1) % per}(), G{f}())\n\treturn fmt.Sprint(xs)\n}}\n\n"
                f"// G{f} is called by dot import.\nfunc G{f}() string {{\n\treturn \"p{p}\"\n}}\n")
    return files


def rust_pub_use(n: int) -> Files:
    """A crate root that re-exports n modules by glob (`pub use crate::m1::*;`), each module taking the crate
    root by glob (`use crate::*;`) and re-exporting two neighbours' functions by path."""
    files: Files = {"Cargo.toml": '[package]\nname = "chain"\nversion = "0.1.0"\n'}
    lib = []
    for i in range(n):
        a, b = (i + 1) % n, (i + 2) % n
        lib.append(f"pub mod m{i};\npub use crate::m{i}::*;")
        files[f"src/m{i}.rs"] = (
            f"use crate::*;\npub use super::m{b}::f{b};\nuse std::fmt;\nuse core::cmp::max;\n\n"
            f"pub fn f{i}(x: u32) -> u32 {{\n    if x == 0 {{ return missing(x); }}\n"
            f"    max(crate::m{a}::f{a}(x - 1), f{b}(x - 1))\n}}\n\n"
            f"pub struct S{i};\n\nimpl fmt::Display for S{i} {{\n"
            f"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {{\n"
            f"        write!(f, \"{{}}\", f{i}(1))\n    }}\n}}\n")
    files["src/lib.rs"] = "\n".join(lib) + "\n"
    return files


def jvm_wildcards(n: int) -> Files:
    """Four Java and four Kotlin packages of n/8 classes each, every package importing the other three by
    wildcard (`import com.ex.p1.*;`), beside `java.util.*` and a `util` folder of the repository; the classes
    call methods no class defines (every wildcard is searched for them)."""
    files: Files = {}
    packages, per = 4, max(1, n // 8)
    for p in range(packages):
        others = [(p + d) % packages for d in (1, 2, 3)]
        imports = "".join(f"import com.ex.p{q}.*;\n" for q in others)
        for c in range(per):
            files[f"src/main/java/com/ex/p{p}/C{p}x{c}.java"] = (
                f"package com.ex.p{p};\n\nimport java.util.*;\n{imports}\npublic class C{p}x{c} {{\n"
                f"    public static int run(int x) {{\n        List<Integer> xs = new ArrayList<>();\n"
                f"        xs.add(C{others[0]}x{c}.run(x - 1));\n        inherited(x);\n"
                f"        return x > 0 ? xs.size() + C{others[1]}x{(c + 1) % per}.run(x - 2) : 0;\n"
                f"    }}\n}}\n")
            files[f"src/main/kotlin/com/kx/p{p}/K{p}x{c}.kt"] = (
                f"package com.kx.p{p}\n\nimport kotlin.math.max\n"
                + "".join(f"import com.kx.p{q}.*\n" for q in others)
                + f"\nobject K{p}x{c} {{\n    fun run(x: Int): Int =\n"
                f"        if (x > 0) max(K{others[0]}x{c}.run(x - 1), helper(x)) else 0\n}}\n")
    files["src/main/java/com/ex/util/List.java"] = (
        "package com.ex.util;\n\npublic class List {\n    public int size() { return 0; }\n}\n")
    return files


CASES: dict[str, Callable[[int], Files]] = {
    "js-node-test": js_node_test,
    "js-require-root": js_require_root,
    "ts-barrels": ts_barrels,
    "ts-star-cycle": ts_star_cycle,
    "py-init-chain": py_init_chain,
    "py-star-cycle": py_star_cycle,
    "go-packages": go_packages,
    "rust-pub-use": rust_pub_use,
    "jvm-wildcards": jvm_wildcards,
}


# ------------------------------------------------------------------------------------------ measuring

def write_repository(files: Files, repo: Path) -> None:
    """The files as one commit of a fresh repository, with a fixed author and date."""
    from perf import _env

    repo.mkdir(parents=True)
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "adversarial"]):
        subprocess.run(cmd, cwd=repo, env=_env(), check=True, capture_output=True)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(repo: Path, jobs: int, checkout: Path, timeout: float) -> dict:
    """Floor and build of one repository with `checkout`'s gitroute (CPU and wall seconds), the CPU seconds of
    its graph built in process, and the resolution's work. A build that runs past `timeout` seconds is
    stopped: its figures are infinite."""
    from floor_process import floor_process
    from perf import _env, floor_seconds

    cpu = _cpu()
    floor_wall, files, _bytes = floor_seconds(repo, jobs)
    floor_cpu = _cpu() - cpu
    env = _env()
    env["PYTHONPATH"] = str(checkout)
    figures = {"files": files, "floor_cpu": floor_cpu, "floor_wall": floor_wall,
               "floor_process_cpu": floor_process(repo, jobs, env)["cpu"], "build_cpu": float("inf"),
               "build_wall": float("inf"), "graph_cpu": float("inf"), "work": {}}
    cpu = _cpu()
    start = time.perf_counter()
    try:
        result = subprocess.run([sys.executable, "-m", "gitroute", "build", "-q", "--full", "--json"], cwd=repo,
                                env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return figures
    figures["build_wall"] = time.perf_counter() - start
    figures["build_cpu"] = _cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"fatal: build of '{repo}' failed: {result.stderr.decode(errors='replace').strip()}")
    try:
        work = subprocess.run([sys.executable, str(HERE / "graph_edges.py"), "--work", str(repo)], env=env,
                              capture_output=True, check=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return figures
    figures.update(json.loads(work.stdout))
    return figures


def fixed_cost(base: Path, jobs: int, checkout: Path) -> float:
    """CPU seconds of a build of a one-file repository: what any build costs before its files (the
    interpreter, imports, writing the bundle)."""
    repo = base / "one-file"
    write_repository({"a.py": "def f():\n    return 1\n"}, repo)
    return measure(repo, jobs, checkout, 600)["build_cpu"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000, help="N: the case's scale (test files, modules)")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated, of: " + ", ".join(CASES))
    parser.add_argument("--keep", help="write the repositories under this folder (default: a temporary one)")
    parser.add_argument("--checkout", default=str(HERE.parent), help="the gitroute checkout to build with")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a build may run before it is stopped")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sys.path[:0] = [str(HERE), str(HERE.parent)]  # perf.py beside this file, and the gitroute it measures
    jobs = os.cpu_count() or 1
    checkout = Path(args.checkout)
    rows = []
    with tempfile.TemporaryDirectory(prefix="gitroute-adversarial-") as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        fixed = fixed_cost(base, jobs, checkout)
        if not args.json:
            print(f"CPU seconds; a build of a one-file repository costs {fixed:.2f} s (interpreter, imports, writing)")
            print(_HEADER)
        for name in args.cases.split(","):
            figures = {}
            for size in (args.size, 2 * args.size):
                repo = base / f"{name}-{size}"
                write_repository(CASES[name](size), repo)
                figures[size] = measure(repo, jobs, checkout, args.timeout)
            rows.append((name, figures[args.size], figures[2 * args.size]))
            if not args.json:
                print(_row(*rows[-1]), flush=True)
    if args.json:
        print(json.dumps({"fixed_cpu": fixed, "cases": [{"case": name, "n": small, "2n": large}
                                                          for name, small, large in rows]}, indent=2))
        return 0
    unfinished = [f"{name}@{f['files']}" for name, small, large in rows for f in (small, large)
                  if math.isinf(f["build_cpu"])]
    missed = [name for name, small, large in rows
              if math.isinf(large["build_cpu"]) or large["build_cpu"] > DOUBLING_TARGET * small["build_cpu"]]
    over = {floor: [f"{name}@{f['files']}" for name, small, large in rows for f in (small, large)
                    if f["build_cpu"] > FLOOR_TARGET * f[floor]] for floor in ("floor_cpu", "floor_process_cpu")}
    resolving = [f"{name}@{f['files']}" for name, small, large in rows for f in (small, large)
                 if f["graph_cpu"] > f["floor_cpu"]]
    print(f"did not finish in {args.timeout:.0f} s: {', '.join(unfinished) or 'none'}")
    print(f"doubling > {DOUBLING_TARGET}x: {', '.join(missed) or 'none'}")
    print(f"build > {FLOOR_TARGET}x floor in process: {', '.join(over['floor_cpu']) or 'none'}")
    print(f"build > {FLOOR_TARGET}x floor as a process: {', '.join(over['floor_process_cpu']) or 'none'}")
    print(f"graph > floor (resolution the reason): {', '.join(resolving) or 'none'}")
    return 0


_CELLS = f"{'files':>6}{'floor':>7}{'b/fl':>6}{'flp':>6}{'b/flp':>6}{'build':>7}{'graph':>7}"
_HEADER = (f"{'case':<16}{_CELLS}  |{_CELLS}  |{'doubling':>9}{'graph':>7}"
           "  work N -> 2N: lookups, files scanned, bindings")


def _row(name: str, small: dict, large: dict) -> str:
    cells = [f"{f['files']:>6}{f['floor_cpu']:>7.2f}{f['build_cpu'] / f['floor_cpu']:>5.1f}x"
             f"{f['floor_process_cpu']:>6.2f}{f['build_cpu'] / f['floor_process_cpu']:>5.1f}x"
             f"{f['build_cpu']:>7.2f}{f['graph_cpu']:>7.2f}" for f in (small, large)]
    work = ", ".join(f"{small['work'].get(k, 0)} -> {large['work'].get(k, 0)}"
                     for k in ("lookups", "lookup_files", "bindings"))
    return (f"{name:<16}{cells[0]}  |{cells[1]}  |{large['build_cpu'] / small['build_cpu']:>8.2f}x"
            f"{large['graph_cpu'] / max(small['graph_cpu'], 1e-3):>6.2f}x  {work}")


if __name__ == "__main__":
    raise SystemExit(main())
