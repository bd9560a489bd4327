"""gitroute: a routing index for code repositories that lives inside git."""
from __future__ import annotations

__version__ = "0.1.0"


def extra_install_command(extra: str) -> str:
    """The pip command that adds an optional extra to this gitroute, from the source it was installed from.

    gitroute is on no package registry (installing it by name would install whoever registers the name);
    pip records where it came from (direct_url.json, PEP 610): a git URL at a commit, or a checkout's folder.
    """
    import json
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        origin = json.loads(distribution("gitroute").read_text("direct_url.json") or "{}")
    except (PackageNotFoundError, ValueError):
        origin = {}
    return install_command(origin if isinstance(origin, dict) else {}, extra)


def install_command(origin: dict, extra: str) -> str:
    """`pip install` of gitroute with `extra` from `origin` (a direct_url.json document)."""
    from urllib.parse import unquote, urlparse

    url = str(origin.get("url", ""))
    vcs, folder = origin.get("vcs_info"), origin.get("dir_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return f"pip install 'gitroute[{extra}] @ git+{url}@{vcs['commit_id']}'"
    if url.startswith("file://") and isinstance(folder, dict):
        editable = "-e " if folder.get("editable") else ""
        return f"pip install {editable}'{unquote(urlparse(url).path)}[{extra}]'"
    return f"pip install '/path/to/gitroute-checkout[{extra}]'"
