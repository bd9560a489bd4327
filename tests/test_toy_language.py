"""Adding a language is a few rows (README, "Adding a language"): a grammar of the pack that gitroute does not map
yet (Salesforce's Apex, `.cls`) becomes a language with its extension in `parsing/languages.py` and its row in
`traits.LANGUAGES`; the generic walk finds its definitions, and the row decides how its calls resolve."""
from __future__ import annotations

import pytest

from gitroute import api, traits
from gitroute.build import run_build
from gitroute.parsing import languages
from tests.conftest import RepoBuilder

APEX = traits.Traits("jvm", imports="implied", implicit_receiver=True)  # a bare `m()` in a class may be its own
FILES = {
    "force-app/AccountService.cls": (
        "public class AccountService {\n"
        "    // Opens an account for a customer.\n"
        "    public Account openAccount(String name) {\n"
        "        validate(name);\n"
        "        return new Account(name);\n"
        "    }\n"
        "    private void validate(String name) {\n"
        "        if (name == null) { throw new AccountException('no name'); }\n"
        "    }\n"
        "}\n"),
    "force-app/OrderService.cls": (
        "public class OrderService {\n"
        "    public void placeOrder(String item) {\n"
        "        validate(item);\n"
        "    }\n"
        "    private void validate(String item) {\n"
        "    }\n"
        "}\n"),
}


def _built(tmp_path, monkeypatch, row: traits.Traits | None) -> str:
    """A repository of two Apex classes, built in this process (jobs=1) with the language added."""
    monkeypatch.setitem(languages._BY_EXTENSION, "cls", "apex")
    if row is not None:
        monkeypatch.setitem(traits.LANGUAGES, "apex", row)
    repo = RepoBuilder(tmp_path / "repo")
    repo.commit(FILES, "apex")
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    return str(repo.path)


def _callers(repo: str, target: str) -> list[str]:
    return [row.name or "" for row in api.answer("impact", target, repo=repo).rows]


def test_a_language_added_by_its_extension_and_its_traits_row_is_indexed_and_resolved(tmp_path, monkeypatch):
    repo = _built(tmp_path, monkeypatch, APEX)
    found = api.query("AccountService", repo=repo)
    assert (found.rows[0].path, found.rows[0].kind, found.rows[0].line) == ("force-app/AccountService.cls", "class", 1)
    asked = api.query("open an account for a customer", repo=repo)  # its `//` comment is the method's doc
    assert asked.rows[0].name == "AccountService.openAccount"
    # `validate(item)` in OrderService is its own method (the row's implicit receiver), not AccountService's: each
    # `validate` is called by its own class only (its own file's users, the only ones: docs/decisions/0041)
    assert _callers(repo, "AccountService.validate") == ["AccountService.openAccount"]
    assert _callers(repo, "OrderService.validate") == ["OrderService.placeOrder"]


@pytest.mark.parametrize("row", [None, traits.Traits()])
def test_without_its_row_a_bare_call_is_taken_for_any_method_of_that_name(tmp_path, monkeypatch, row):
    repo = _built(tmp_path, monkeypatch, row)
    assert _callers(repo, "AccountService.validate") == ["OrderService.placeOrder"]
