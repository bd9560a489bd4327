"""Golden `--json` answers: `query` and `status` on the sample repository, compared byte for byte.

The sample repository is built with fixed identities and dates, so its commit and bundle ids are the
same on every machine. After an intended change of output, rerun with `--update-golden` and read the
diff of tests/golden/ in review.
"""
from __future__ import annotations

from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "query-class.json": ["query", "--json", "OpenMeteoClient"],
    "query-explain.json": ["query", "--json", "--explain", "-n", "3", "where is the entry point"],
    "query-no-match.json": ["query", "--json", "subaquatic origami choreography"],
    "status.json": ["status", "--json"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_output_matches_its_golden_file(sample_repo, route, update_golden, name):
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    result = route(CASES[name], sample_repo.path)
    assert result.exit_code == 0, result.stderr
    # The last build's duration lives beside the bundle and varies: it is the one field not compared.
    text = "\n".join(line for line in result.stdout.splitlines() if '"last_build_seconds"' not in line) + "\n"
    golden = GOLDEN / name
    if update_golden:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden.name}: run pytest --update-golden"
    assert text == golden.read_text(encoding="utf-8")
