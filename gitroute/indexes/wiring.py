"""The wiring index: what the pinned commit declares about how its parts and its neighbours connect.

Tables: contracts and their copies (from the impact index's output), submodules and their pinned
commits, GitHub Actions workflows (reusable workflows and actions called with `uses:` and the ref
they pin, `repository_dispatch` / `workflow_call` types sent and listened for, container images and
release assets published), and dependency manifests with the internal packages that depend on each
other. Workflows and manifests are parsed (PyYAML, tomllib, json), never matched with patterns,
except the shell text of a `run:` step, which is no structure.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence

from gitroute.bundle.layout import dump_json
from gitroute.model import Answer, Row
from gitroute.text import content_tokens, stem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.bundle.store import IndexView
    from gitroute.indexes import BuildInputs, IndexBuild

NAME = "wiring"
NEEDS: tuple[str, ...] = ("impact",)
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"wiring": {}}
WIRING_BLOB = "wiring.json"
TABLES = ("contracts", "submodules", "workflow_calls", "dispatches", "published", "packages", "dependencies")
MAX_WORKFLOW_BYTES = 512 * 1024
MARKER_BEGIN = "<!-- gitroute:wiring:begin -->"
MARKER_END = "<!-- gitroute:wiring:end -->"

_MANIFESTS = ("pyproject.toml", "package.json", "go.mod", "Cargo.toml")
# Files that say how a repository is built, tested and published, whatever the tool. Their words are kept (distinct
# stems, the first CONFIG_WORDS of each) so that a wiring question in words ("which workflow runs when a tag is
# pushed", "which manifest declares the console script") finds the file that no table above has a row for.
_CI_NAMES = frozenset((".travis.yml", "appveyor.yml", ".appveyor.yml", "azure-pipelines.yml", ".gitlab-ci.yml",
                       "bitbucket-pipelines.yml", ".cirrus.yml", ".drone.yml", "jenkinsfile", "tox.ini", "tox.toml",
                       "noxfile.py", ".pre-commit-config.yaml", "cloudbuild.yaml", "cloudbuild.yml",
                       "cloudbuild.json", "codefresh.yml", ".woodpecker.yml", ".goreleaser.yml", ".goreleaser.yaml",
                       "renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json", "codecov.yml",
                       ".codecov.yml", ".releaserc", ".releaserc.json", "release-please-config.json"))
# The repository's automation that GitHub reads from .github/ by these names: dependency updates, how release notes
# sort merged pull requests (viper's "which file controls how merged pull requests are sorted into sections …"),
# labels by path (renovate's and codecov's files are CI files wherever they are: `_CI_NAMES`). A `release.yml`
# elsewhere may be anything.
_GITHUB_CONFIGS = frozenset(("dependabot.yml", "dependabot.yaml", "release.yml", "release.yaml", "labeler.yml",
                             "labeler.yaml", "release-drafter.yml", "release-drafter.yaml", "mergify.yml", "stale.yml"))
# A tool's own configuration, which CI and the developers' checks run by (logrus's "which config file sets up the
# Go linter"): linters, formatters, type checkers and test runners, by the names the tools look for. Kept as CI
# files (the kinds a bundle holds stay two).
_TOOL_NAMES = frozenset((".golangci.yml", ".golangci.yaml", ".golangci.toml", ".eslintrc", ".eslintrc.js",
                         ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", "eslint.config.js",
                         "eslint.config.mjs", "eslint.config.cjs", ".prettierrc", ".prettierrc.json",
                         ".prettierrc.yml", ".prettierrc.yaml", ".prettierrc.js", "prettier.config.js", ".stylelintrc",
                         ".stylelintrc.json", ".editorconfig", ".flake8", ".pylintrc", "pylintrc", "mypy.ini",
                         ".mypy.ini", "ruff.toml", ".ruff.toml", "pytest.ini", ".coveragerc", ".isort.cfg",
                         ".rubocop.yml", ".clang-format", ".clang-tidy", "phpstan.neon", "phpstan.neon.dist",
                         "phpstan.dist.neon", "psalm.xml", "psalm.xml.dist", "phpunit.xml", "phpunit.xml.dist",
                         ".php-cs-fixer.php", ".php-cs-fixer.dist.php", "jest.config.js", "jest.config.ts",
                         ".mocharc.yml", ".mocharc.json", ".mocharc.js", "rustfmt.toml", ".rustfmt.toml",
                         "clippy.toml", "deny.toml", ".swiftlint.yml", ".scalafmt.conf", ".luacheckrc", ".hlint.yaml",
                         "stylua.toml", ".markdownlint.json", ".markdownlint.yaml", ".yamllint", ".yamllint.yml",
                         ".shellcheckrc", "checkstyle.xml", ".nycrc", ".nycrc.json", ".c8rc", ".c8rc.json",
                         "karma.conf.js", ".credo.exs", ".formatter.exs", "phpcs.xml", "phpcs.xml.dist", ".phpcs.xml",
                         ".phpcs.xml.dist", ".php_cs", ".php_cs.dist", ".jshintrc", "tslint.json", "biome.json",
                         "biome.jsonc", "detekt.yml", ".swiftformat",
                         # API documentation generators (passport's etc/jsdoc.json), commit and size checks
                         "jsdoc.json", ".jsdoc.json", "jsdoc.conf.json", "typedoc.json", ".size-limit.json",
                         "commitlint.config.js", ".commitlintrc.json"))
_MANIFEST_NAMES = frozenset(("pyproject.toml", "setup.cfg", "setup.py", "package.json", "go.mod", "cargo.toml",
                             "composer.json", "gemfile", "pom.xml", "build.gradle", "build.gradle.kts",
                             "settings.gradle", "cmakelists.txt", "meson.build", "makefile", "gnumakefile",
                             "justfile", "rakefile", "configure.ac", "configure.in", "makefile.am", "build.xml",
                             "build.sbt", "package.swift", "manifest.in",  # MANIFEST.in: what a Python sdist ships
                             "mix.exs", "plugin.xml",  # plugin.xml: a Cordova plugin's manifest
                             # a repository's build script by the names build tools give it (not `build.py`: a module)
                             "build.sh", "build.ps1", "build.cmd", "build.bat", "build.cake", "build.fsx",
                             "psakefile.ps1",
                             # task runners' files by the names they look for (EJS' jakefile.js runs its release checks)
                             "gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts", "gruntfile.js",
                             "gruntfile.cjs", "gruntfile.coffee", "jakefile.js", "jakefile.cjs", "jakefile",
                             "taskfile.yml", "taskfile.yaml", "magefile.go",
                             # how JavaScript and TypeScript are compiled and bundled
                             "tsconfig.json", "webpack.config.js", "webpack.config.mjs", "webpack.config.cjs",
                             "webpack.config.ts", "rollup.config.js", "rollup.config.mjs", "rollup.config.ts",
                             "vite.config.js", "vite.config.mjs", "vite.config.ts", "babel.config.js",
                             "babel.config.json", "babel.config.cjs", ".babelrc", ".babelrc.json"))
# .cmake: a build's own modules (CLI11's cmake/CLI11Warnings.cmake sets the compiler's warning flags); .pc.in: the
# pkg-config metadata a C library installs, made from this template (libyaml's yaml-0.1.pc.in)
_MANIFEST_SUFFIXES = (".nuspec", ".csproj", ".fsproj", ".gemspec", ".podspec", ".cabal", ".cmake", ".pc.in",
                      ".rockspec")  # LuaRocks' package spec: the module's sources, defines, dependencies
CONFIG_WORDS = 2000
MAX_CONFIGS = 5000
# A pkg-config template says what it is by its suffix alone: "which file declares the pkg-config metadata" holds
# words its `Name:`/`Libs:` lines never write (xxhash's libxxhash.pc.in came eighth, after the Makefile).
_PKG_CONFIG_SUFFIXES = (".pc.in", ".pc.cmake")
_PKG_CONFIG_APART, _PKG_CONFIG_WORD = ("pkg", "config"), "pkgconfig"  # as a question may spell it
_IMPLIED_WORDS = (*_PKG_CONFIG_APART, _PKG_CONFIG_WORD)
# Words that say a task is run, not which one ("how do I run the test suite"): a file need not hold them to be shown
# for the task it names (package.json's "test" script says neither "run" nor "suite"). Stems, as `asked` holds them.
_TASK_FRAMING = frozenset(("run", "execut", "invok", "kick", "suit", "cmd"))
_ASKS_CI = frozenset(("ci", "workflow", "pipelin"))  # stems: "on CI", "which workflow", "the pipeline"
# Words that name the kind of file asked for ("which workflow file is that?"): every CI file is one, so they raise
# the CI files (`_ASKS_CI`) and do not rank one above another (codeql.yml's comments say "workflow file").
_ASKS_KIND = _ASKS_CI | {"file"}
# Shell text of a run step: the only place a pattern is used (a shell script has no structure to parse).
_RUN_DISPATCH = re.compile(r"""event[_-]type["'\s]*[:=]\s*["']?([\w.:/-]+)""")
_RUN_DOCKER_PUSH = re.compile(r"\bdocker\s+(?:image\s+)?push\s+([^\s;&|]+)")
_RUN_RELEASE = re.compile(r"\bgh\s+release\s+(?:create|upload)\s+[^\n]*")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


# --- build -----------------------------------------------------------------------------------


def build(inputs: BuildInputs) -> IndexBuild:
    from gitroute.indexes import IndexBuild

    warnings: list[tuple[str, str]] = []
    contracts = inputs.outputs.get("impact") or []
    wiring = collect_wiring(inputs.files, inputs.read, inputs.submodules, contracts, warnings)
    counts = {table: len(wiring[table]) for table in TABLES}
    counts["workflows"] = len(wiring["workflows"])
    counts["configs"] = len(wiring["configs"])
    counts["config_words"] = sum(len(c["words"]) for c in wiring["configs"])
    return IndexBuild({WIRING_BLOB: dump_json(wiring)}, {"counts": counts}, warnings, wiring)


def collect_wiring(files: Sequence, read, submodules: Sequence, contracts: Sequence[dict],
                   warnings: list[tuple[str, str]]) -> dict:
    """Every table of the wiring, JSON-able and deterministic."""
    wiring: dict = {table: [] for table in TABLES}
    wiring["workflows"] = []
    wiring["contracts"] = [
        {"canonical": c["canonical"], "copies": list(c["copies"]), "drifted": list(c["drifted"]),
         "drift_on_purpose": list(c["drift_on_purpose"]), "readers": list(c["readers"])}
        for c in contracts
    ]
    wiring["submodules"] = [{"path": s.path, "commit": s.commit, "present": bool(s.present)} for s in submodules]
    manifests = []
    for f in files:
        if _is_workflow(f.path):
            data = read(f.path)
            if len(data) > MAX_WORKFLOW_BYTES:
                warnings.append((f.path, "workflow too large to read"))
                continue
            _read_workflow(f.path, data, wiring, warnings)
        elif f.path.rsplit("/", 1)[-1] in _MANIFESTS:
            package = _read_manifest(f.path, read(f.path), warnings)
            if package is not None:
                manifests.append(package)
    wiring["packages"] = [{k: p[k] for k in ("path", "name", "ecosystem")} for p in manifests]
    internal = {p["name"]: p["path"] for p in manifests if p["name"]}
    for p in manifests:
        for dep in p["depends"]:
            if dep in internal and internal[dep] != p["path"]:
                wiring["dependencies"].append({"package": p["name"], "path": p["path"], "depends_on": dep,
                                               "depends_on_path": internal[dep]})
    go_modules = {p["name"]: p["path"].rpartition("/")[0] for p in manifests if p["ecosystem"] == "go" and p["name"]}
    if go_modules:
        packages, dependencies = _go_packages(files, go_modules)
        wiring["packages"].extend(packages)
        wiring["dependencies"].extend(dependencies)
    for table in TABLES:
        wiring[table].sort(key=lambda r: json.dumps(r, sort_keys=True))
    wiring["workflows"].sort(key=lambda r: r["path"])
    wiring["configs"] = _config_words(files, read, warnings)
    return wiring


# Maven's assembly descriptors: what goes into the release archives (Commons IO's src/assembly/bin.xml)
_ASSEMBLY = re.compile(r"(?:.*/)?src/(?:main/)?assembly/[^/]+\.xml$")
# A bundler's or compiler's configuration for one build of several (bottleneck's rollup.config.light.js, a
# webpack.config.prod.js, a tsconfig.build.json): a manifest as its plain name is
_BUILD_VARIANT = re.compile(r"(?:.*/)?(?:(?:rollup|webpack|vite|vitest|jest|karma|babel|esbuild|tsup|swc)\.config"
                            r"\.[\w.-]+\.(?:js|mjs|cjs|ts|mts|cts|json)|tsconfig\.[\w.-]+\.json)$", re.IGNORECASE)
# pip's requirements and constraints files: `requirements.txt`, `requirements-checks.txt`, `dev-requirements.in`,
# `requirements/test.txt` (the tools a check installs: humanfriendly's flake8 and its docstring plugin)
_REQUIREMENTS = re.compile(r"(?:.*/)?(?:[\w.-]*requirements[\w.-]*\.(?:txt|in)|requirements/[^/]+\.(?:txt|in)"
                           r"|constraints\.txt)$", re.IGNORECASE)
_MANIFEST_PATHS = (_ASSEMBLY, _REQUIREMENTS, _BUILD_VARIANT)
# A static analyser's rules or exclusions (commons-validator's src/conf/spotbugs-exclude-filter.xml; a PMD ruleset)
_ANALYSER_FILES = re.compile(r"(?:.*/)?(?:spotbugs|findbugs|pmd)[\w.-]*\.xml$", re.IGNORECASE)


def config_kind(path: str) -> str | None:
    """"ci" or "manifest" for a file that says how the repository is built, tested, checked or published, else
    None."""
    name = path.rpartition("/")[2].lower()
    if _is_workflow(path) or name in _CI_NAMES or name in _TOOL_NAMES \
            or path.endswith((".circleci/config.yml", ".buildkite/pipeline.yml")) \
            or path.startswith(".github/") and path.count("/") == 1 and name in _GITHUB_CONFIGS \
            or _ANALYSER_FILES.match(path):
        return "ci"
    if name in _MANIFEST_NAMES or name.endswith(_MANIFEST_SUFFIXES) or any(p.match(path) for p in _MANIFEST_PATHS):
        return "manifest"
    return None


def _config_words(files: Sequence, read, warnings: list[tuple[str, str]]) -> list[dict]:
    """Each CI and manifest file's distinct word stems (sorted, for the answer's bisection), in path order."""
    configs: list[dict] = []
    for path, kind in sorted((f.path, k) for f in files if (k := config_kind(f.path)) is not None):
        if len(configs) == MAX_CONFIGS:
            warnings.append((path, f"more than {MAX_CONFIGS} CI and manifest files: the rest's words not kept"))
            break
        data = read(path)
        if data is None or len(data) > MAX_WORKFLOW_BYTES:
            continue
        implied = _IMPLIED_WORDS if path.endswith(_PKG_CONFIG_SUFFIXES) else ()
        found = dict.fromkeys([*implied, *(stem(t) for t in content_tokens(data.decode("utf-8", "replace")))])
        configs.append({"path": path, "kind": kind, "words": sorted(list(found)[:CONFIG_WORDS])})
    return configs


def _go_packages(files: Sequence, go_modules: dict[str, str]) -> tuple[list[dict], list[dict]]:
    """A Go module's internal packages (its folders of .go files, by import path) and which import which.

    A file belongs to the innermost go.mod above it; _test.go files, and the folders the go tool skips
    (`testdata`, `.x`, `_x`), are not part of a package's imports.
    """
    roots = sorted(go_modules.items(), key=lambda item: -len(item[1]))  # innermost module first
    package_of: dict[str, str] = {}  # folder -> import path
    imports: dict[str, set[str]] = {}
    for f in files:
        if f.lang != "go" or f.extract is None or f.path.endswith("_test.go"):
            continue
        folder = f.path.rpartition("/")[0]
        if any(part == "testdata" or part[:1] in "._" for part in folder.split("/") if part):
            continue
        for module, root in roots:
            if not root or folder == root or folder.startswith(root + "/"):
                rest = folder[len(root):].strip("/")
                package_of[folder] = f"{module}/{rest}" if rest else module
                imports.setdefault(folder, set()).update(ref.name for ref in f.extract.imports)
                break
    folder_of = {name: folder for folder, name in package_of.items()}
    packages = [{"path": folder or ".", "name": name, "ecosystem": "go"} for folder, name in package_of.items()]
    dependencies = [
        {"package": package_of[folder], "path": folder or ".", "depends_on": spec,
         "depends_on_path": folder_of[spec] or "."}
        for folder, specs in imports.items() for spec in specs
        if spec in folder_of and folder_of[spec] != folder
    ]
    return packages, dependencies


def _is_workflow(path: str) -> bool:
    parts = path.split("/")
    return (len(parts) >= 3 and parts[-3] == ".github" and parts[-2] == "workflows"
            and parts[-1].endswith((".yml", ".yaml")))


def _read_workflow(path: str, data: bytes, wiring: dict, warnings: list[tuple[str, str]]) -> None:
    import yaml

    # libyaml's loader (PyYAML's wheels carry it) reads a workflow about ten times faster than the pure-Python one,
    # to the same values: a build reads every workflow of the repository
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        doc = yaml.load(data.decode("utf-8", "replace"), Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as err:
        warnings.append((path, f"workflow does not parse: {str(err).splitlines()[0][:200]}"))
        return
    if not isinstance(doc, dict):
        return
    # YAML 1.1 reads a bare `on:` key as the boolean True.
    triggers = doc.get("on", doc.get(True))
    events = _events(triggers)
    wiring["workflows"].append({"path": path, "name": str(doc.get("name", "")), "on": sorted(events)})
    if "repository_dispatch" in events:
        types = _types_of(triggers, "repository_dispatch") or ["*"]
        for t in types:
            wiring["dispatches"].append({"workflow": path, "direction": "listens", "event": "repository_dispatch",
                                         "type": t})
    if "workflow_call" in events:
        wiring["dispatches"].append({"workflow": path, "direction": "callable", "event": "workflow_call",
                                     "type": path.rsplit("/", 1)[-1]})
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict):
        return
    for job_name, job in jobs.items():
        if not isinstance(job, dict):
            continue
        uses = job.get("uses")
        if isinstance(uses, str):
            target, ref = _split_ref(uses)
            wiring["workflow_calls"].append({"workflow": path, "job": str(job_name), "kind": "workflow",
                                             "uses": target, "ref": ref})
        steps = job.get("steps")
        for step in steps if isinstance(steps, list) else ():
            if isinstance(step, dict):
                _read_step(path, str(job_name), step, wiring)


def _events(triggers: object) -> set[str]:
    if isinstance(triggers, str):
        return {triggers}
    if isinstance(triggers, list):
        return {str(t) for t in triggers}
    if isinstance(triggers, dict):
        return {str(t) for t in triggers}
    return set()


def _types_of(triggers: object, event: str) -> list[str]:
    if not isinstance(triggers, dict):
        return []
    body = triggers.get(event)
    types = body.get("types") if isinstance(body, dict) else None
    if isinstance(types, str):
        return [types]
    return [str(t) for t in types] if isinstance(types, list) else []


def _split_ref(uses: str) -> tuple[str, str]:
    target, at, ref = uses.partition("@")
    return target.strip(), ref.strip() if at else ""


def _read_step(path: str, job: str, step: dict, wiring: dict) -> None:
    uses = step.get("uses")
    given = step.get("with")
    with_: dict = given if isinstance(given, dict) else {}
    if isinstance(uses, str):
        target, ref = _split_ref(uses)
        wiring["workflow_calls"].append({"workflow": path, "job": job, "kind": "action", "uses": target, "ref": ref})
        action = target.lower()
        if action.endswith("repository-dispatch"):
            event = with_.get("event-type") or with_.get("event_type")
            repo = with_.get("repository", "")
            wiring["dispatches"].append({"workflow": path, "direction": "sends", "event": "repository_dispatch",
                                         "type": str(event or "*"), "repository": str(repo)})
        elif action.endswith("build-push-action") and _truthy(with_.get("push")):
            for tag in _listed(with_.get("tags")):
                wiring["published"].append({"workflow": path, "kind": "image", "name": tag})
        elif action.endswith("gh-action-pypi-publish"):
            repository = with_.get("repository-url") or with_.get("repository_url") or "pypi"
            wiring["published"].append({"workflow": path, "kind": "python_package", "name": str(repository)})
        elif action.endswith(("action-gh-release", "create-release", "upload-release-asset")):
            for asset in _listed(with_.get("files") or with_.get("asset_path")):
                wiring["published"].append({"workflow": path, "kind": "release_asset", "name": asset})
    run = step.get("run")
    if isinstance(run, str):
        if "dispatches" in run:
            for event in _RUN_DISPATCH.findall(run):
                wiring["dispatches"].append({"workflow": path, "direction": "sends", "event": "repository_dispatch",
                                             "type": event, "repository": ""})
        for image in _RUN_DOCKER_PUSH.findall(run):
            wiring["published"].append({"workflow": path, "kind": "image", "name": image})
        for command in _RUN_RELEASE.findall(run):
            wiring["published"].append({"workflow": path, "kind": "release_asset", "name": command.strip()[:200]})


def _truthy(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in ("true", "${{ true }}")) or (
        isinstance(value, str) and value.startswith("${{"))


def _listed(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    if isinstance(value, str):
        return [v.strip() for v in re.split(r"[\n,]", value) if v.strip()]
    return []


def _read_manifest(path: str, data: bytes, warnings: list[tuple[str, str]]) -> dict | None:
    """A manifest's package name, ecosystem and the names it depends on."""
    base = path.rsplit("/", 1)[-1]
    text = data.decode("utf-8", "replace")
    try:
        if base == "package.json":
            doc = json.loads(text)
            if not isinstance(doc, dict):
                return None
            deps: set[str] = set()
            for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
                if isinstance(doc.get(key), dict):
                    deps.update(doc[key])
            return {"path": path, "name": str(doc.get("name", "")), "ecosystem": "npm", "depends": sorted(deps)}
        if base == "go.mod":
            return _read_go_mod(path, text)
        import tomllib

        doc = tomllib.loads(text)
    except ValueError as err:  # json and tomllib errors are both ValueErrors
        warnings.append((path, f"manifest does not parse: {str(err)[:200]}"))
        return None
    if base == "Cargo.toml":
        package: dict = doc["package"] if isinstance(doc.get("package"), dict) else {}
        deps = set()
        for key in ("dependencies", "dev-dependencies", "build-dependencies"):
            if isinstance(doc.get(key), dict):
                deps.update(doc[key])
        return {"path": path, "name": str(package.get("name", "")), "ecosystem": "cargo", "depends": sorted(deps)}
    project: dict = doc["project"] if isinstance(doc.get("project"), dict) else {}
    tool = doc.get("tool")
    poetry: dict = tool["poetry"] if isinstance(tool, dict) and isinstance(tool.get("poetry"), dict) else {}
    name = str(project.get("name") or (poetry.get("name") if isinstance(poetry, dict) else "") or "")
    deps = set()
    requirements = list(project.get("dependencies") or [])
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        for group in optional.values():
            requirements.extend(group if isinstance(group, list) else [])
    for requirement in requirements:
        match = _REQUIREMENT_NAME.match(str(requirement))
        if match:
            deps.add(match.group(1))
    if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
        deps.update(k for k in poetry["dependencies"] if k != "python")
    if not name and not deps:
        return None
    return {"path": path, "name": name, "ecosystem": "python", "depends": sorted(deps)}


def _read_go_mod(path: str, text: str) -> dict:
    """go.mod is line-oriented: `module x`, `require x v1` and `require ( ... )` blocks."""
    name = ""
    deps: set[str] = set()
    in_block = False
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if line.startswith("module "):
            name = line.split()[1].strip('"')
        elif line.startswith("require ("):
            in_block = True
        elif in_block and line == ")":
            in_block = False
        elif in_block:
            deps.add(line.split()[0])
        elif line.startswith("require "):
            deps.add(line.split()[1])
    return {"path": path, "name": name, "ecosystem": "go", "depends": sorted(deps)}


# --- answer ----------------------------------------------------------------------------------


def read_wiring(view: IndexView) -> dict:
    wiring = view.read_json(WIRING_BLOB)
    if not isinstance(wiring, dict) or not all(isinstance(wiring.get(t), list) for t in TABLES):
        raise view.corrupt(WIRING_BLOB)
    return wiring


def answer(view: IndexView, question: str, *, limit: int = 10, explain: bool = False, config_files: bool = True,
           build_question: bool = False, **_options: object) -> Answer:
    """The wiring's rows; with a question, those that share its words, best first (with `config_files`, raised by
    and joined by the CI and manifest files whose own words the question shares). A `build_question` (how the
    repository is built, tested or published) asks for files: each file's best row once, the contracts' copies after
    every other row (Ajv's twenty `dist/refs` copies; arrow's workflow, four action rows before `tox.ini`)."""
    wiring = read_wiring(view)
    rows = wiring_rows(wiring)
    # Content words, stemmed as the other indexes match them: "depend" finds a row that says "depends".
    # (not a letter alone: the "s" of "the admin's tests")
    asked = {stem(t) for t in content_tokens(question) if len(t) > 1} if question.strip() else set()
    if question.strip() and not asked:
        return Answer("no_match", view.source, (), (f"'{question}' holds no word to narrow the wiring to",),
                      {"wiring": _tables(wiring)})
    if asked:
        scored, overlaps = [], []
        for row in rows:
            text = [row.kind or "", row.name or "", *(str(v) for _k, v in row.extra)]
            words = {stem(t) for t in content_tokens(" ".join(text))}
            by_path = (asked & {stem(t) for t in content_tokens(row.path)}) - words
            overlap = (asked & words) | by_path
            if overlap:
                score = float(len(overlap))
                scored.append(row._replace(score=score, signals=(("overlap", score),) if explain else ()))
                overlaps.append(by_path)  # the words only its path holds, which its file's own may hold too
        if config_files:
            scored = _with_config_words(view, wiring, scored, overlaps, asked, explain)
        # Ties go to the shallower path: the repository's own manifest before an example's.
        rows = sorted(scored, key=lambda r: (build_question and r.kind == "contract", -r.score, r.path.count("/"),
                                             r.path))
        if build_question:  # each file's first row
            first: dict[str, Row] = {}
            for r in rows:
                first.setdefault(r.path, r)
            rows = list(first.values())
        if not rows:
            return Answer("no_match", view.source, (), (f"nothing in the wiring shares a word with '{question}'",),
                          {"wiring": _tables(wiring)})
    counts = ", ".join(f"{len(wiring[t])} {t}" for t in TABLES)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows[:limit] if asked else rows),
                  (f"wiring: {counts}",), {"wiring": _tables(wiring)})


def _tables(wiring: dict) -> dict:
    """The wiring as answers show it: its tables, not the words kept of each CI and manifest file."""
    return {key: value for key, value in wiring.items() if key != "configs"}


def _with_config_words(view: IndexView, wiring: dict, scored: list[Row], by_path: list[set[str]], asked: set[str],
                       explain: bool) -> list[Row]:
    """The rows that share the question's words, each raised by how well its file's own words match the question
    (the rarer a word among the CI and manifest files, the more it counts; a word that only the row's path and
    the file both hold counts once, as the file's), and a row for each such file whose words match two of the
    question's (all of them, when it asks one) and that no row above stands for. A question that says CI ("how
    are the benchmarks run on CI") raises the CI files above the manifests that share its words, one that says
    pkg-config the pkg-config templates above the makefiles that install them."""
    import bisect
    import math

    configs = wiring.get("configs") or []
    if not isinstance(configs, list):
        raise view.corrupt(WIRING_BLOB)
    found: dict[str, tuple[str, list[str]]] = {}
    for c in configs:
        if not (isinstance(c, dict) and isinstance(c.get("path"), str) and c.get("kind") in ("ci", "manifest")
                and isinstance(c.get("words"), list)):
            raise view.corrupt(WIRING_BLOB)
        words = c["words"]
        try:  # a word that is not a string (a forged blob) cannot be compared: damage, found as it is met
            matched = [w for w in sorted(asked) if (i := bisect.bisect_left(words, w)) < len(words) and words[i] == w]
        except TypeError:
            raise view.corrupt(WIRING_BLOB) from None
        if c["kind"] == "ci" and asked & _ASKS_CI:
            matched = [w for w in matched if w not in _ASKS_KIND]
        if matched:
            found[c["path"]] = (c["kind"], matched)
    if not found:
        return scored
    df: dict[str, int] = {}
    for _kind, matched in found.values():
        for w in matched:
            df[w] = df.get(w, 0) + 1
    n = len(configs)
    weight = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}
    on_ci = 1.0 if asked & _ASKS_CI else 0.0
    file_score = {path: sum(weight[w] for w in matched) + (on_ci if kind == "ci" else 0.0)
                  for path, (kind, matched) in found.items()}
    if _says_pkg_config(asked):  # its templates before the makefiles that install them
        top = max(file_score.values())
        file_score.update((path, score + top) for path, score in file_score.items()
                          if path.endswith(_PKG_CONFIG_SUFFIXES))
    raised = []
    for r, path_words in zip(scored, by_path):
        twice = len(path_words.intersection(found[r.path][1])) if r.path in found else 0
        raised.append(r._replace(score=r.score - twice + file_score.get(r.path, 0.0),
                                 signals=r.signals + ((("file words", round(file_score.get(r.path, 0.0), 3)),)
                                                      if explain else ())))
    shown = {r.path for r in raised}
    enough = min(2, len(asked - _TASK_FRAMING) or len(asked))
    for path, (kind, matched) in found.items():
        if path not in shown and len(matched) >= enough:
            score = file_score[path]
            raised.append(Row(path, None, path.rpartition("/")[2], f"{kind} file", score,
                              (("file words", round(score, 3)),) if explain else (),
                              (("table", "configs"), ("matched", " ".join(matched)))))
    return raised


def _says_pkg_config(asked: set[str]) -> bool:
    """Whether a question's words (stems) say pkg-config, as one word or two: the words its templates imply."""
    return _PKG_CONFIG_WORD in asked or set(_PKG_CONFIG_APART) <= asked


def wiring_rows(wiring: dict) -> list[Row]:
    """One row per item of every table, in table order."""
    rows: list[Row] = []
    for c in wiring["contracts"]:
        for copy in c["copies"]:
            rows.append(_row(copy, "contract", c["canonical"], table="contracts",
                             status="canonical" if copy == c["canonical"] else "identical copy",
                             readers=len(c["readers"])))
        for copy in c["drifted"]:
            rows.append(_row(copy, "contract", c["canonical"], table="contracts", status="drifted"))
        for copy in c["drift_on_purpose"]:
            rows.append(_row(copy, "contract", c["canonical"], table="contracts", status="drifts on purpose"))
    for s in wiring["submodules"]:
        rows.append(_row(s["path"], "submodule", s["commit"], table="submodules",
                         status="present" if s["present"] else "objects missing"))
    for w in wiring["workflow_calls"]:
        rows.append(_row(w["workflow"], w["kind"], w["uses"], table="workflow_calls", job=w["job"], ref=w["ref"]))
    for d in wiring["dispatches"]:
        rows.append(_row(d["workflow"], "dispatch", d["type"], table="dispatches", direction=d["direction"],
                         trigger=d["event"]))
    for p in wiring["published"]:
        rows.append(_row(p["workflow"], p["kind"], p["name"], table="published"))
    for p in wiring["packages"]:
        rows.append(_row(p["path"], "package", p["name"], table="packages", ecosystem=p["ecosystem"]))
    for d in wiring["dependencies"]:
        rows.append(_row(d["path"], "depends", d["depends_on"], table="dependencies", package=d["package"],
                         depends_on_path=d["depends_on_path"]))
    return rows


def _row(path: str, kind: str, name: str, **extra: object) -> Row:
    return Row(path, None, name, kind, 0.0, (), tuple(extra.items()))


def render_wiring(wiring: dict) -> str:
    """The wiring as Markdown tables: what `--write FILE` keeps between FILE's marker comments
    (MARKER_BEGIN and MARKER_END, which are not part of it)."""
    out = ["", "## Contracts", ""]
    out += ["| canonical | copies | drifted | drift on purpose | readers |", "|---|---|---|---|---|"]
    for c in wiring["contracts"]:
        others = [p for p in c["copies"] if p != c["canonical"]]
        out.append(f"| `{c['canonical']}` | {_cells(others)} | {_cells(c['drifted'])} | "
                   f"{_cells(c['drift_on_purpose'])} | {_cells(c['readers'])} |")
    out += ["", "## Submodules", "", "| path | commit | objects |", "|---|---|---|"]
    for s in wiring["submodules"]:
        out.append(f"| `{s['path']}` | `{s['commit']}` | {'present' if s['present'] else 'missing'} |")
    out += ["", "## Workflow calls", "", "| workflow | job | kind | uses | ref |", "|---|---|---|---|---|"]
    for w in wiring["workflow_calls"]:
        out.append(f"| `{w['workflow']}` | {w['job']} | {w['kind']} | `{w['uses']}` | `{w['ref']}` |")
    out += ["", "## Dispatches", "", "| workflow | direction | event | type |", "|---|---|---|---|"]
    for d in wiring["dispatches"]:
        out.append(f"| `{d['workflow']}` | {d['direction']} | {d['event']} | `{d['type']}` |")
    out += ["", "## Published", "", "| workflow | kind | name |", "|---|---|---|"]
    for p in wiring["published"]:
        out.append(f"| `{p['workflow']}` | {p['kind']} | `{p['name']}` |")
    out += ["", "## Packages", "", "| manifest | name | ecosystem |", "|---|---|---|"]
    for p in wiring["packages"]:
        out.append(f"| `{p['path']}` | {p['name']} | {p['ecosystem']} |")
    out += ["", "## Internal dependencies", "", "| package | depends on |", "|---|---|"]
    for d in wiring["dependencies"]:
        out.append(f"| {d['package']} (`{d['path']}`) | {d['depends_on']} (`{d['depends_on_path']}`) |")
    out += [""]
    return "\n".join(out)


def _cells(paths: Sequence[str]) -> str:
    return ", ".join(f"`{p}`" for p in paths) if paths else "-"
