"""Module specs -> the files of a snapshot they name, the way each language's imports name them.

A runtime's own modules (`node:test`, `fs`, Python's `json`, Go's `fmt`, Rust's `std::fmt`, `java.util`) name no
file unless the repository is that module: `require('node:test')` is not the repository's `test/` folder. A
Python absolute import names a module from a source root (`json` is not `pkg/serializers/json.py`), and a bare
JavaScript spec a package the repository declares or a path from a package's root, never any file that
happens to end the same way.
"""
from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Mapping

from gitroute.traits import NODE_CORE, PYTHON_STDLIB, RUNTIME_PACKAGES, RUST_RUNTIME

STEM_EXTENSIONS = (".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".go", ".rs",
                   ".java", ".kt", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift",
                   ".hs", ".lua")
PACKAGE_FILES = ("__init__", "index", "mod", "lib", "main")
# A module spec matching more files than this names none of them (`utils`).
MAX_NAME_TARGETS = 3

_PYTHON_EXTENSIONS = (".py", ".pyi")
_ECMASCRIPT_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts")
# The files that make a folder a JavaScript package root, whose paths bare specs may be written from
# (a `baseUrl`, or a package's own name): there and in its `src/`.
_ECMASCRIPT_ROOT_FILES = frozenset(("package.json", "tsconfig.json", "jsconfig.json"))
# `node:test`, `bun:sqlite`, `npm:zod`, `https://...`: a scheme names something outside the repository.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def module_index(file_node: Mapping[str, int]) -> dict[str, list[int]]:
    """Every trailing part of a file's path without extension (`flask/sessions`, `sessions`) -> file ids.

    Package files (`__init__.py`, `index.js`, `mod.rs`) also answer for their folder (those at the top for
    ".", what `require('..')` names from a top folder).
    """
    index: dict[str, list[int]] = defaultdict(list)
    for path, file_id in file_node.items():
        stem, ext = posixpath.splitext(path)
        if ext not in STEM_EXTENSIONS:
            continue
        keys = [stem]
        folder, base = posixpath.split(stem)
        if base in PACKAGE_FILES:
            keys.append(folder or ".")
        for key in keys:
            parts = key.split("/")
            for start in range(len(parts)):
                index["/".join(parts[start:])].append(file_id)
    return index


def resolve_module(spec: str, importer: str, modules: Mapping[str, list[int]],
                   accept: Callable[[int, str], bool] | None = None) -> list[int]:
    """Files an import names: relative paths against the importer, dotted and `::` names by suffix.
    `accept(file id, key)`: which of the files a key ends are that module (all, without it)."""
    spec = spec.strip().strip("\"'<>")
    if not spec:
        return []
    folder = posixpath.dirname(importer)
    if spec.startswith("./") or spec.startswith("../"):
        key = posixpath.normpath(posixpath.join(folder, spec))
    elif spec.startswith("."):  # Python: `.mod`, `..pkg.mod`
        dots = len(spec) - len(spec.lstrip("."))
        base = folder
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        rest = spec[dots:].replace(".", "/")
        key = posixpath.join(base, rest) if rest else base
    else:
        key = spec.replace("::", "/")
        if "/" not in key:
            key = key.replace(".", "/")
        key = key.removeprefix("crate/").removeprefix("@/")
    key = posixpath.splitext(key)[0] if posixpath.splitext(key)[1] in STEM_EXTENSIONS else key
    if key.strip("/") in ("", "."):  # `require('..')` from a top folder: the top's package file (`index.js`)
        key = "."
    for candidate in (key, key.rsplit("/", 1)[0] if "/" in key else ""):
        # `from pkg.mod import name` may be written as `pkg.mod.name`: try the parent module too.
        candidate = candidate.strip("/")
        hits = modules.get(candidate)
        if hits and accept is not None:
            hits = [h for h in hits if accept(h, candidate)]
        if hits:
            return sorted(hits)[:MAX_NAME_TARGETS] if len(hits) <= MAX_NAME_TARGETS else []
    return []


class ModuleIndex:
    """What the module specs of one snapshot name, by the importer's module style (`gitroute.traits.MODULE_STYLES`).

    `go_modules`: each go.mod's module path -> its folder; `packages`: each package.json's package name -> its
    folder. Everything an answer depends on is a path of the snapshot, or one of those two tables."""

    def __init__(self, file_node: Mapping[str, int], modules: Mapping[str, list[int]],
                 go_modules: Mapping[str, str], packages: Mapping[str, str],
                 mains: Mapping[str, str] | None = None) -> None:
        self.file_node = file_node
        self.paths = {file_id: path for path, file_id in file_node.items()}
        self.modules = modules
        self.go_modules = go_modules
        self.packages = packages
        self.mains = mains or {}  # a package.json's folder -> the file its `main` names
        self._folders: tuple[dict[str, list[str]], dict[str, list[int]]] | None = None
        self._python_packages: frozenset[str] | None = None
        self._roots: tuple[str, ...] | None = None

    def fingerprint(self) -> tuple:
        """What besides the paths of code files the answers depend on (for a memo of them)."""
        return (sorted(self.go_modules.items()), sorted(self.packages.items()), self.ecmascript_roots(),
                sorted(self.mains.items()))

    def scope(self, spec: str, importer: str, style: str) -> tuple[str, str]:
        """(folder, style) of the key `files` answers `spec` from `importer` by: what the answer depends on.

        A relative spec depends on the importer's folder; a Python spec no source root names, on the folders
        above the importer (a script's own folder is on the path: style "python-path"); a bare JavaScript spec
        naming the package the importer is in, on that (a self-reference: style "ecmascript-self")."""
        bare = spec.strip().strip("\"'<>")
        if bare.startswith("."):
            return posixpath.dirname(importer), style
        if style == "python-path":  # the standard library's names none from anywhere
            return ("", style) if bare.split(".", 1)[0] in PYTHON_STDLIB else (posixpath.dirname(importer), style)
        if style == "ecmascript" and self.packages:
            folder = self.packages.get(_package_name(bare))
            if folder is not None and (not folder or importer.startswith(folder + "/")):
                return "", "ecmascript-self"
        return "", style

    def files(self, spec: str, folder: str, style: str) -> list[int] | None:
        """Files `spec` names when imported from a file of `folder` (relative specs, and style "python-path")
        by a language of module style `style` (see `scope`); None when it names none (it is outside the
        repository)."""
        if style == "go":  # a Go import names a package, which is a folder, never a file
            return self._go_package(spec)
        bare = spec.strip().strip("\"'<>")
        if not bare.startswith("."):
            if style == "python":
                return self._python(bare)
            if style == "python-path":
                return self._python_beside(bare, folder)
            if style in ("ecmascript", "ecmascript-self") and not bare.startswith(("/", "@/", "~/", "#")):
                return self._ecmascript(bare, by_name=style == "ecmascript")
            if style == "rust" and "::" in bare and bare.removeprefix("::").split("::", 1)[0] in RUST_RUNTIME:
                return None  # `use std::fmt` (but `mod core;` declares the file's own module `core`)
        # A relative JavaScript spec names a JavaScript file (not the `main.py` beside an `index.js`).
        accept = self._ecmascript_file if style == "ecmascript" else None
        found = resolve_module(spec, posixpath.join(folder, "-"), self.modules, accept) or None
        if found is None and style == "ecmascript" and bare.startswith(".") and self.mains:
            # a folder with no index file: its package.json's `main` (mustache's bin/ requires '..', mustache.js)
            found = self._main_of(posixpath.normpath(posixpath.join(folder, bare)))
        # A folder is a module by its files in Go, Java, Rust; a JavaScript folder without an index is none.
        if found is None and not bare.startswith(".") and style != "ecmascript":
            first = bare.split(".", 1)[0]
            # A runtime's package (`java.util`) is a folder of the repository only by its full path.
            found = self._folder_module(spec, style, full_only=first in RUNTIME_PACKAGES.get(style, ()))
        return found

    def folder_index(self) -> tuple[dict[str, list[str]], dict[str, list[int]]]:
        """Every trailing part of a folder -> folders; a folder -> its code files."""
        if self._folders is None:
            folders: dict[str, list[str]] = defaultdict(list)
            folder_files: dict[str, list[int]] = defaultdict(list)
            for path, file_id in self.file_node.items():
                if posixpath.splitext(path)[1] in STEM_EXTENSIONS:
                    folder_files[posixpath.dirname(path)].append(file_id)
            for folder in folder_files:
                parts = folder.split("/")
                for start in range(len(parts)):
                    folders["/".join(parts[start:])].append(folder)
            self._folders = (folders, folder_files)
        return self._folders

    # ---------------------------------------------------------------- Python

    def python_packages(self) -> frozenset[str]:
        """Folders that are regular Python packages (they hold an `__init__.py`)."""
        if self._python_packages is None:
            self._python_packages = frozenset(
                posixpath.dirname(p) for p in self.file_node
                if posixpath.basename(p) in ("__init__.py", "__init__.pyi"))
        return self._python_packages

    def _python(self, spec: str) -> list[int] | None:
        """`a.b.c` from a source root: a module or package whose top part `a` is in no package itself."""
        packages = self.python_packages()

        def top_level(file_id: int, key: str) -> bool:
            path = self.paths[file_id]
            stem, ext = posixpath.splitext(path)
            if ext not in _PYTHON_EXTENSIONS:
                return False
            if posixpath.basename(stem) == "__init__":
                stem = posixpath.dirname(stem)
            if stem != key and not stem.endswith("/" + key):
                return False  # `pkg/main.py` answers for its folder in other languages, not here
            root = stem[: len(stem) - len(key)].rstrip("/")
            if root in packages:
                return False
            # `email.utils` of the standard library's `email` package, unless `email` here is a package too.
            top, _, rest = key.partition("/")
            return not (rest and top in PYTHON_STDLIB and posixpath.join(root, top) not in packages)

        found = resolve_module(spec, "-", self.modules, top_level)
        if found:
            return found
        if spec.split(".", 1)[0] in PYTHON_STDLIB:
            return None  # a namespace folder loses to the standard library's module of that name
        parts = [p for p in spec.split(".") if p]
        folders, folder_files = self.folder_index()
        key = "/".join(parts)
        candidates = [f for f in folders.get(key, ()) if f[: len(f) - len(key)].rstrip("/") not in packages]
        if len(candidates) != 1:
            return None
        return sorted(i for i in folder_files[candidates[0]] if self.paths[i].endswith(_PYTHON_EXTENSIONS)) or None

    def _python_beside(self, spec: str, folder: str) -> list[int] | None:
        """`a.b` that no source root holds, from the importer's own folder or one above it: a script's folder is
        on the path (and tests put theirs there), so its `import helpers` is the `helpers.py` beside it."""
        if spec.split(".", 1)[0] in PYTHON_STDLIB:
            return None
        above = {folder}
        while folder:
            folder = posixpath.dirname(folder)
            above.add(folder)

        def beside(file_id: int, key: str) -> bool:
            stem, ext = posixpath.splitext(self.paths[file_id])
            if ext not in _PYTHON_EXTENSIONS:
                return False
            if posixpath.basename(stem) == "__init__":
                stem = posixpath.dirname(stem)
            return (stem == key or stem.endswith("/" + key)) and stem[: len(stem) - len(key)].rstrip("/") in above

        return resolve_module(spec, "-", self.modules, beside) or None

    # ---------------------------------------------------------------- JavaScript and TypeScript

    def ecmascript_roots(self) -> tuple[str, ...]:
        """The folders bare specs may be paths from: the top, each package root, and their `src/`."""
        if self._roots is None:
            roots = {""} | {posixpath.dirname(p) for p in self.file_node
                            if posixpath.basename(p) in _ECMASCRIPT_ROOT_FILES}
            self._roots = tuple(sorted(roots | {posixpath.join(r, "src") for r in roots}))
        return self._roots

    def _ecmascript(self, spec: str, by_name: bool) -> list[int] | None:
        """A bare spec: a runtime module (none), another package of the repository by its name (`by_name`),
        else a path from a package root (a `baseUrl` import). A package's own name from inside it is left to
        the build it is published from (`exports` conditions, a test runner's aliases)."""
        if _SCHEME.match(spec):
            return None
        if spec.split("/", 1)[0] in NODE_CORE:
            return None  # `require('fs')` is the runtime's, whatever the repository holds
        package = _package_name(spec)
        if by_name and package in self.packages:
            folder = self.packages[package]
            rest = spec[len(package):].strip("/")
            for base in (posixpath.join(folder, "src"), folder):  # its source before what is built from it
                found = self._ecmascript_paths([posixpath.join(base, rest) if rest else base])
                if found:
                    return found
            if not rest and (main := self._main_of(folder)):
                return main
        return self._ecmascript_paths([posixpath.join(root, spec) for root in self.ecmascript_roots()])

    def _main_of(self, folder: str) -> list[int] | None:
        """The file a folder's package.json names as its `main`, when the snapshot has it."""
        main = self.mains.get("" if folder in (".", "") else folder.strip("/"))
        file_id = self.file_node.get(main) if main is not None else None
        return [file_id] if file_id is not None else None

    def _ecmascript_file(self, file_id: int, key: str) -> bool:
        return self.paths[file_id].endswith(_ECMASCRIPT_EXTENSIONS)

    def _ecmascript_paths(self, keys: list[str]) -> list[int] | None:
        """The files that are exactly one of these paths (extension left out), or their folder's index."""
        found: set[int] = set()
        for key in keys:
            key = key.strip("/")
            stem, ext = posixpath.splitext(key)
            if ext in STEM_EXTENSIONS:
                key = stem
            for file_id in self.modules.get(key or "index", ()):  # the top folder is no key: its index is
                path = self.paths[file_id]
                stem, ext = posixpath.splitext(path)
                if ext in _ECMASCRIPT_EXTENSIONS and (
                        stem == key or (posixpath.basename(stem) == "index" and posixpath.dirname(stem) == key)):
                    found.add(file_id)
        if not found or len(found) > MAX_NAME_TARGETS:
            return None
        return sorted(found)

    # ---------------------------------------------------------------- Go, and packages as folders

    def _go_package(self, spec: str) -> list[int] | None:
        """The .go files of the folder a Go import path names: under the go.mod whose module path prefixes
        it; with no go.mod at all, by the folder's trailing parts (GOPATH layouts)."""
        if not self.go_modules:
            return self._folder_module(spec, "go")
        folders, folder_files = self.folder_index()
        module = max((m for m in self.go_modules if spec == m or spec.startswith(m + "/")), key=len, default=None)
        if module is None:
            vendored = folders.get(spec, ())  # `vendor/<spec>`; anything else is outside the repository
            if len(vendored) != 1:
                return None
            folder = vendored[0]
        else:
            rest = spec[len(module):].strip("/")
            folder = posixpath.join(self.go_modules[module], rest) if rest else self.go_modules[module]
        # A package's _test.go files are not part of what importing it brings in.
        files = sorted(i for i in folder_files.get(folder, ())
                       if self.paths[i].endswith(".go") and not self.paths[i].endswith("_test.go"))
        return files or None

    def _folder_module(self, spec: str, style: str, full_only: bool = False) -> list[int] | None:
        """A spec naming a folder (a Go package, a Java package, a Rust module folder): its code files. By its
        trailing parts (`clap_builder::builder` is a `builder` folder), or with `full_only` by all of them."""
        if style == "go" and "." not in spec.split("/")[0] and "/" not in spec:
            return None  # Go's standard library (`fmt`, `net/http` has a slash but no dot: also below)
        parts = spec.replace("::", "/").replace(".", "/").split("/") if style != "go" else spec.split("/")
        if style == "go" and "." not in parts[0]:
            return None
        parts = [p for p in parts if p and p not in ("crate", "self", "super")]
        folders, folder_files = self.folder_index()
        for start in range(1 if full_only else len(parts)):
            candidates = folders.get("/".join(parts[start:]))
            if candidates:
                return sorted(folder_files[candidates[0]]) if len(candidates) == 1 else None
        return None


def _package_name(spec: str) -> str:
    """The package part of a bare JavaScript spec: `a` of `a/b`, `@s/a` of `@s/a/b`."""
    parts = spec.split("/")
    return "/".join(parts[:2] if spec.startswith("@") else parts[:1])
