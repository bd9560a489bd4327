"""The build reads committed objects only: what it skips and names, odd paths, submodules, replace refs, grafts."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Gitlink, Link, RepoBuilder
from tests.helpers import build_json

BUNDLE_REF = "refs/marola/routing-bundle"
LFS_POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    "size 12345\n"
)
ONE_MIB = 1024 * 1024


def manifest(repo: RepoBuilder) -> dict:
    """The bundle's build.json, read with plain git."""
    return json.loads(repo.git("cat-file", "-p", f"{BUNDLE_REF}:build.json"))


def skipped(repo: RepoBuilder) -> list[list[str]]:
    """The build report's [path, reason] list, from the manifest."""
    return manifest(repo)["skipped"]


build = build_json


def query(route, repo: RepoBuilder, text: str, *args: str) -> dict:
    result = route(["query", "--json", *args, text], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def named(doc: dict, name: str) -> list[str]:
    """Paths of the rows that carry exactly `name`."""
    return [row["path"] for row in doc["rows"] if row.get("name") == name]


# --- what is skipped, and named -------------------------------------------------------------


@pytest.fixture
def repo_with_non_source(make_repo) -> RepoBuilder:
    repo = make_repo()
    repo.commit({
        "src/app.py": "class RealSource:\n    pass\n",
        "src/link.py": Link("app.py"),
        "src/outside.py": Link("../../../../etc/passwd"),
        "assets/model.bin": LFS_POINTER,
        "src/lfs_code.py": LFS_POINTER,
        "assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "src/binary_named.py": b"class HiddenInBinary:\n    pass\n\x00\x01\x02",
        "src/huge.py": "class TooLargeToRead:\n    pass\n" + "#" * ONE_MIB,
        "src/just_fits.py": "class JustFits:\n    pass\n",
    })
    return repo


def test_build_skips_and_names_symlinks_lfs_pointers_binaries_and_oversized_files(repo_with_non_source, route):
    report = build(route, repo_with_non_source)

    assert skipped(repo_with_non_source) == [
        ["assets/logo.png", "binary"],
        ["assets/model.bin", "lfs-pointer"],
        ["src/binary_named.py", "binary"],
        ["src/huge.py", "too-large"],
        ["src/lfs_code.py", "lfs-pointer"],
        ["src/link.py", "symlink"],
        ["src/outside.py", "symlink"],
    ]
    assert report["files"]["skipped"] == {"binary": 2, "lfs-pointer": 2, "symlink": 2, "too-large": 1}
    assert manifest(repo_with_non_source)["counts"]["files"] == 2


def test_status_json_counts_what_the_build_skipped(repo_with_non_source, route):
    build(route, repo_with_non_source)
    status = route(["status", "--json"], repo_with_non_source.path)
    assert status.exit_code == 0, status.stderr
    assert json.loads(status.stdout)["skipped"] == {"binary": 2, "lfs-pointer": 2, "symlink": 2, "too-large": 1}


def test_skipped_files_are_never_read_as_source(repo_with_non_source, route):
    build(route, repo_with_non_source)
    assert named(query(route, repo_with_non_source, "RealSource"), "RealSource") == ["src/app.py"]
    assert named(query(route, repo_with_non_source, "JustFits"), "JustFits") == ["src/just_fits.py"]
    for hidden in ("HiddenInBinary", "TooLargeToRead"):
        assert named(query(route, repo_with_non_source, hidden), hidden) == []
    # a symlink is named, not followed: its file node does not exist either
    assert "src/link.py" not in {row["path"] for row in query(route, repo_with_non_source, "link")["rows"]}


def test_configured_size_limit_skips_files_over_it(make_repo, route):
    repo = make_repo()
    repo.commit({
        ".gitroute.toml": "[build]\nmax_file_bytes = 100\n",
        "exactly_100.py": "class AtTheLimit:\n    pass\n".ljust(99) + "\n",
        "over_100.py": "class OverTheLimit:\n    pass\n".ljust(100) + "\n",
    })
    assert len(repo.repo.revparse_single("HEAD:exactly_100.py").data) == 100

    build(route, repo)

    assert skipped(repo) == [["over_100.py", "too-large"]]
    assert named(query(route, repo, "AtTheLimit"), "AtTheLimit") == ["exactly_100.py"]
    assert named(query(route, repo, "OverTheLimit"), "OverTheLimit") == []


def test_default_size_limit_is_one_mebibyte(make_repo, route):
    repo = make_repo()
    body = "class AtOneMebibyte:\n    pass\n"

    def padded(size: int) -> str:
        # Comment lines of 64 bytes, before the class: one long line would be minified, and comment lines after an
        # indented block cost tree-sitter-python quadratic time (parsing/limits.py)
        pad = size - len(body)
        return ("#" * 63 + "\n") * (pad // 64) + ("#" * (pad % 64 - 1) + "\n" if pad % 64 else "") + body

    repo.commit({"at_limit.py": padded(ONE_MIB), "over_limit.py": padded(ONE_MIB + 1)})
    assert len(repo.repo.revparse_single("HEAD:at_limit.py").data) == ONE_MIB
    build(route, repo)
    assert skipped(repo) == [["over_limit.py", "too-large"]]


# --- committed objects only -----------------------------------------------------------------


def test_work_tree_only_file_is_not_indexed(make_repo, route):
    repo = make_repo()
    repo.commit({"src/app.py": "class CommittedThing:\n    pass\n"})
    (repo.path / "src" / "untracked.py").write_text("class WorkTreeOnlyThing:\n    pass\n")
    (repo.path / "staged.py").write_text("class StagedOnlyThing:\n    pass\n")
    repo.git("add", "staged.py")

    build(route, repo)

    assert named(query(route, repo, "CommittedThing"), "CommittedThing") == ["src/app.py"]
    assert named(query(route, repo, "WorkTreeOnlyThing"), "WorkTreeOnlyThing") == []
    assert named(query(route, repo, "StagedOnlyThing"), "StagedOnlyThing") == []


def test_uncommitted_edit_is_not_indexed(make_repo, route):
    repo = make_repo()
    repo.commit({"src/app.py": "class CommittedName:\n    pass\n"})
    (repo.path / "src" / "app.py").write_text("class EditedName:\n    pass\n")
    repo.git("add", "src/app.py")  # staged counts as uncommitted too

    build(route, repo)

    assert named(query(route, repo, "CommittedName"), "CommittedName") == ["src/app.py"]
    assert named(query(route, repo, "EditedName"), "EditedName") == []


def test_config_is_read_from_the_commit_not_the_work_tree(make_repo, route):
    repo = make_repo()
    repo.commit({"src/app.py": "class StillIndexed:\n    pass\n"})
    build(route, repo)
    before = repo.bundle_tree()
    repo.git("update-ref", "-d", BUNDLE_REF)
    (repo.path / ".gitroute.toml").write_text('[build]\nexclude = ["*", "**"]\nmax_file_bytes = 1\n')

    build(route, repo)

    assert repo.bundle_tree() == before
    assert skipped(repo) == []
    assert named(query(route, repo, "StillIndexed"), "StillIndexed") == ["src/app.py"]


def test_committed_config_excludes_are_applied_and_named(make_repo, route):
    repo = make_repo()
    repo.commit({
        ".gitroute.toml": '[build]\nextra_exclude = ["third/**"]\n',
        "src/app.py": "class KeptClass:\n    pass\n",
        "third/lib.py": "class ExcludedClass:\n    pass\n",
    })
    build(route, repo)
    assert skipped(repo) == [["third/lib.py", "excluded"]]
    assert named(query(route, repo, "ExcludedClass"), "ExcludedClass") == []


# --- odd paths --------------------------------------------------------------------------------


NON_UTF8_FOLDER = b"caf\xe9".decode("utf-8", "surrogateescape")
DEEP_PATH = "/".join(f"d{i}" for i in range(60)) + "/deep_module.py"


@pytest.fixture
def odd_paths_repo(make_repo) -> RepoBuilder:
    repo = make_repo()
    repo.commit({
        "folder with spaces/my module.py": "class SpacedOutClass:\n    pass\n",
        f"{NON_UTF8_FOLDER}/orders.py": "class CafeOrderBook:\n    pass\n",
        "latin1_body.py": b"# caf\xe9 au lait\nclass LatinBodyClass:\n    pass\n",
        DEEP_PATH: "class DeeplyNestedClass:\n    pass\n",
        "naïve/ünïcode_mödule.py": "class NaiveUnicodeClass:\n    pass\n",
        "模块/工具.py": "class 天气客户端:\n    pass\n",
    })
    return repo


def test_odd_paths_build_and_every_symbol_is_queryable(odd_paths_repo, route):
    report = build(route, odd_paths_repo)
    assert report["files"]["read"] == 6
    assert skipped(odd_paths_repo) == []

    expected = {
        "SpacedOutClass": "folder with spaces/my module.py",
        "CafeOrderBook": "caf\\xe9/orders.py",  # the undecodable byte, spelled out
        "LatinBodyClass": "latin1_body.py",
        "DeeplyNestedClass": DEEP_PATH,
        "NaiveUnicodeClass": "naïve/ünïcode_mödule.py",
        "天气客户端": "模块/工具.py",
    }
    for name, path in expected.items():
        assert named(query(route, odd_paths_repo, name), name) == [path], name


def test_files_the_path_cannot_name_are_read_by_their_content(make_repo, route):
    # Found on real code: neofetch is one 400 KB bash script in bin/ with no extension; bash-completion's 450
    # completions carry only an Emacs or vim mode line; iOS and C++ projects keep classes in `.h` headers, which
    # parsed as C lost every @interface and class to parse errors.
    repo = make_repo()
    repo.commit({
        "bin/neofetch": "#!/usr/bin/env bash\n# Print the distro's logo.\nprint_ascii() {\n  echo art\n}\n",
        "completions/ssh": "# ssh(1) completion    -*- shell-script -*-\n_ssh_hosts() {\n  :\n}\n",
        "completions/scp": "_scp_files() {\n  :\n}\n\n# ex: filetype=sh\n",
        "include/Engine.h": "#pragma once\nnamespace game {\nclass Engine {\n public:\n  void run();\n};\n}\n",
        "ios/EXClient.h": "#import <Foundation/Foundation.h>\n@interface EXClient : NSObject\n- (void)go;\n@end\n",
        "src/plain.h": "struct point { int x; };\nint area(struct point p);\n",
        "NOTES": "print_notes() is not code: no interpreter line, no mode line\n",
    })
    report = build(route, repo)
    assert report["warnings"] == 0
    found = {row["name"]: (row["path"], row["kind"]) for name in
             ("print_ascii", "_ssh_hosts", "_scp_files", "Engine", "EXClient", "point", "print_notes")
             for row in query(route, repo, name)["rows"] if row.get("name") == name}
    assert found == {
        "print_ascii": ("bin/neofetch", "function"),
        "_ssh_hosts": ("completions/ssh", "function"),
        "_scp_files": ("completions/scp", "function"),
        "Engine": ("include/Engine.h", "class"),
        "EXClient": ("ios/EXClient.h", "class"),
        "point": ("src/plain.h", "struct"),
    }


def test_odd_paths_answer_in_text_mode_too(odd_paths_repo, route):
    build(route, odd_paths_repo)
    answer = route(["query", "CafeOrderBook"], odd_paths_repo.path)
    assert answer.exit_code == 0, answer.stderr
    # the stored spelling has a backslash, which text output quotes as git would
    assert answer.stdout.splitlines()[1].startswith('"caf\\\\xe9/orders.py":1 ')


# --- submodules -------------------------------------------------------------------------------


def _git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout.strip()


@pytest.fixture
def repo_with_submodule(make_repo) -> tuple[RepoBuilder, str]:
    """A superproject pinning `libs/geo` (store in .git/modules/libs/geo) at the commit defining GeoLocator."""
    lib = make_repo("geo-lib")
    pinned = lib.commit({"locate.py": "class GeoLocator:\n    pass\n", "README.md": "# geo\n"})
    repo = make_repo("super")
    repo.commit({"app.py": "from locate import GeoLocator\n\nclass Application:\n    pass\n"})
    _git(repo.path, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "libs/geo")
    _git(repo.path, "commit", "-q", "-m", "add the geo submodule")
    # A later commit inside the submodule's checkout, never pinned by the superproject.
    checkout = repo.path / "libs" / "geo"
    (checkout / "locate.py").write_text("class UnpinnedLocator:\n    pass\n")
    _git(checkout, "commit", "-q", "-am", "unpinned")
    assert (repo.path / ".git" / "modules" / "libs" / "geo").is_dir()
    return repo, pinned


def test_submodule_with_a_store_is_indexed_at_its_pinned_commit(repo_with_submodule, route):
    repo, pinned = repo_with_submodule
    build(route, repo)

    assert named(query(route, repo, "GeoLocator"), "GeoLocator") == ["libs/geo/locate.py"]
    assert named(query(route, repo, "UnpinnedLocator"), "UnpinnedLocator") == []
    assert manifest(repo)["submodules"] == [{"path": "libs/geo", "commit": pinned, "present": True}]
    assert skipped(repo) == []


def test_status_names_the_pinned_submodule(repo_with_submodule, route):
    repo, pinned = repo_with_submodule
    build(route, repo)
    status = route(["status"], repo.path)
    assert status.exit_code == 0, status.stderr
    assert f"submodule: libs/geo at {pinned[:7]}" in status.stdout.splitlines()


def test_submodule_without_a_store_is_named_missing(make_repo, route):
    repo = make_repo()
    absent = "1234567890abcdef1234567890abcdef12345678"
    repo.commit({
        "app.py": "class Application:\n    pass\n",
        ".gitmodules": '[submodule "ext"]\n\tpath = vendor/ext\n\turl = https://example.invalid/ext.git\n',
        "vendor/ext": Gitlink(absent),
    }, checkout=False)

    build(route, repo)

    assert skipped(repo) == [["vendor/ext", "submodule-missing"]]
    assert manifest(repo)["submodules"] == [{"path": "vendor/ext", "commit": absent, "present": False}]
    status = route(["status", "--json"], repo.path)
    assert json.loads(status.stdout)["skipped"] == {"submodule-missing": 1}


# --- replace refs and grafts ------------------------------------------------------------------


@pytest.fixture
def three_commits(make_repo) -> tuple[RepoBuilder, list[str]]:
    repo = make_repo()
    commits = [
        repo.commit({"src/app.py": "class FirstVersion:\n    pass\n"}, "one"),
        repo.commit({"src/app.py": "class SecondVersion:\n    pass\n"}, "two"),
        repo.commit({"src/app.py": "class ThirdVersion:\n    pass\n", "src/util.py": "def helper():\n    pass\n"},
                    "three"),
    ]
    return repo, commits


def _fresh_build(route, repo: RepoBuilder, *args: str) -> dict:
    """Build with no previous bundle, so nothing is reused and every blob is read again."""
    repo.git("update-ref", "-d", BUNDLE_REF, check=False)
    return build(route, repo, *args)


def _answers(route, repo: RepoBuilder) -> list[str]:
    return [route(["query", "--json", text], repo.path).stdout
            for text in ("ThirdVersion", "FirstVersion", "helper", "ReplacementClass")]


def test_replace_refs_change_neither_the_bundle_nor_the_answers(three_commits, route):
    repo, commits = three_commits
    _fresh_build(route, repo)
    tree, answers = repo.bundle_tree(), _answers(route, repo)

    app_blob = repo.git("rev-parse", "HEAD:src/app.py").strip()
    other_blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo.path, capture_output=True, check=True,
                                input=b"class ReplacementClass:\n    pass\n").stdout.decode().strip()
    repo.git("replace", app_blob, other_blob)
    repo.git("replace", commits[2], commits[0])
    # plain git now sees the replacements
    assert "ReplacementClass" in repo.git("cat-file", "-p", app_blob)
    assert repo.git("log", "-1", "--format=%s").strip() == "one"

    _fresh_build(route, repo)

    assert repo.bundle_tree() == tree
    assert manifest(repo)["source"]["commit"] == commits[2]
    assert _answers(route, repo) == answers


def test_replacing_a_bundle_blob_does_not_change_an_answer(three_commits, route):
    repo, _ = three_commits
    build(route, repo)
    answers = _answers(route, repo)
    postings = repo.git("ls-tree", "-r", BUNDLE_REF, "symbols/postings/").split()
    junk = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repo.path, capture_output=True, check=True,
                          input=b"{}").stdout.decode().strip()
    for oid in postings[2::4]:
        repo.git("replace", "-f", oid, junk)

    assert _answers(route, repo) == answers


def test_grafts_change_neither_the_bundle_nor_the_answers(three_commits, route):
    repo, commits = three_commits
    _fresh_build(route, repo)
    tree, answers = repo.bundle_tree(), _answers(route, repo)
    grafts = repo.path / ".git" / "info" / "grafts"
    grafts.parent.mkdir(exist_ok=True)
    grafts.write_text(f"{commits[2]} {commits[0]}\n")  # HEAD's parent becomes the root

    _fresh_build(route, repo)

    assert repo.bundle_tree() == tree
    assert _answers(route, repo) == answers


def test_parent_revision_resolves_the_raw_parent_under_grafts(three_commits, route):
    repo, commits = three_commits
    grafts = repo.path / ".git" / "info" / "grafts"
    grafts.parent.mkdir(exist_ok=True)
    grafts.write_text(f"{commits[2]} {commits[0]}\n")
    assert repo.git("rev-parse", "HEAD~1").strip() == commits[0]  # what plain git believes

    report = build(route, repo, "HEAD~1")

    assert report["source"]["commit"] == commits[1]
    assert named(query(route, repo, "SecondVersion"), "SecondVersion") == ["src/app.py"]
    assert named(query(route, repo, "FirstVersion"), "FirstVersion") == []


def test_staleness_counts_raw_history_under_grafts(three_commits, route):
    repo, commits = three_commits
    build(route, repo, commits[0])
    grafts = repo.path / ".git" / "info" / "grafts"
    grafts.parent.mkdir(exist_ok=True)
    grafts.write_text(f"{commits[2]} {commits[0]}\n")
    assert query(route, repo, "FirstVersion")["source"]["stale_by"] == 2
