"""Generated files a repository commits (DOC-CODE.md, DECISIONS.md, a document's wiring block): each rendered
from the bundle by the index that owns it, then shown, checked against the commit, or written behind the shrink
guard (`gitroute.committed`).
"""
from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from gitroute.bundle.store import BundleView
    from gitroute.committed import CommittedResult, Rendering
    from gitroute.config import Config


# Generated files a repository commits: name -> (the Config field holding its default path, or None
# when the command line must name the file; the function that renders it from the bundle).
def _render_doc_code(view: BundleView, config: Config) -> Rendering:
    """DOC-CODE.md: the doc_links index's file-level map, its rows counted the index's way."""
    from gitroute.committed import Rendering
    from gitroute.indexes.doc_links import NAME, map_rows, read_links, render_doc_code_map

    return Rendering(render_doc_code_map(read_links(view.index(NAME))), count_rows=map_rows)


def _render_decisions(view: BundleView, config: Config) -> Rendering:
    """DECISIONS.md: the decisions index's rows as a table."""
    from gitroute.committed import Rendering
    from gitroute.indexes.decisions import NAME
    from gitroute.indexes.decisions.lint import read_rows, render_decisions

    return Rendering(render_decisions(read_rows(view.index(NAME))))


def _render_wiring(view: BundleView, config: Config) -> Rendering:
    """The wiring block of a document (between <!-- gitroute:wiring:begin/end --> lines)."""
    from gitroute.committed import Rendering
    from gitroute.indexes.wiring import NAME, read_wiring, render_wiring

    return Rendering(render_wiring(read_wiring(view.index(NAME))), block="wiring")


COMMITTED_FILES: dict[str, tuple[str | None, Callable[[BundleView, Config], Rendering]]] = {
    "doc-code": ("doc_code_map", _render_doc_code),
    "decisions": ("decisions_map", _render_decisions),
    "wiring": (None, _render_wiring),
}


def render_committed(
    name: str,
    *,
    repo: str = ".",
    path: str | None = None,
    action: str = "check",
    force: bool = False,
) -> CommittedResult:
    """Render a committed generated file from the bundle, then show it, check it or write it.

    action "show" returns the rendering; "check" compares it with the file as the bundle's commit
    holds it; "write" writes it into the work tree behind the shrink guard (`force` overrides).
    `path` is relative to the top of the work tree; None takes the configured default.
    """
    from gitroute import committed
    from gitroute.bundle.store import BundleView
    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.errors import GitrouteError, ShrinkGuardRefused
    from gitroute.git.catfile import work_tree_top

    config_field, render = COMMITTED_FILES[name]
    top = work_tree_top(repo)
    with BundleView(repo) as view:
        source = view.source
        config = parse_config(committed.read_blob(top, source.commit, CONFIG_PATH))
        if path is None:
            if config_field is None:
                raise GitrouteError(f"'{name}' needs the file to write or check")
            path = getattr(config, config_field)
        path = committed.check_path(path)
        rendering = render(view, config)
        missing = tuple(sub["path"] for sub in view.manifest.get("submodules", []) if not sub["present"])
    report: committed.CheckReport | committed.WriteReport | None = None
    if action == "check":
        report = committed.check(top, source.commit, path, rendering)
    elif action == "write":
        try:
            report = committed.write(top, source.commit, path, rendering, force=force)
        except ShrinkGuardRefused as err:
            if missing:  # the likeliest reason, and not a generator bug
                err.hint = committed.missing_submodules_hint(missing)
            raise
    return committed.CommittedResult(name, path, source, rendering, report, missing)
