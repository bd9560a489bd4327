"""End to end: build a real repository, then ask it a symbol question."""
from __future__ import annotations

import json


def test_build_then_query_ranks_exact_class_first(sample_repo, route):
    built = route(["build", "-q"], sample_repo.path)
    assert built.exit_code == 0, built.stderr
    answer = route(["query", "--json", "OpenMeteoClient"], sample_repo.path)
    assert answer.exit_code == 0, answer.stderr
    doc = json.loads(answer.stdout)
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == "src/sample/weather.py"
    assert doc["rows"][0]["name"] == "OpenMeteoClient"
    assert doc["rows"][0]["kind"] == "class"
    assert doc["rows"][0]["line"] == 5
