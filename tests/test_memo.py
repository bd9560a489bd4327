"""The build memo's files: a table kept in as many buckets as its size asks, read back whole after any save."""
from __future__ import annotations

import os
from pathlib import Path

from gitroute.bundle import memo as memo_module
from gitroute.bundle.memo import BUCKET_BYTES, BUCKETS, HEAD, BuildMemo, bucket_count, fits


def _bucket_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("[0-9]*.marshal"))


def _save(common: Path, entries: dict, *, fresh: bool = False) -> None:
    memo = BuildMemo(str(common), fresh=fresh, salt="s")
    table = memo.table("t")
    for key, value in entries.items():
        table.put(key, value)
    memo.save()


def _entries(n: int, size: int) -> dict:
    return {f"file{i}.py": "x" * size for i in range(n)}


def test_a_small_table_is_one_bucket_and_a_large_one_many(tmp_path: Path) -> None:
    _save(tmp_path, _entries(50, 100))
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    assert _bucket_files(folder) == ["00.marshal"]
    large = _entries(400, 4000)  # 1.6 MB: 16 buckets of about 100 KB
    _save(tmp_path, large)
    assert len(_bucket_files(folder)) == bucket_count(1_600_000) == 16
    table = BuildMemo(str(tmp_path), salt="s").table("t")
    assert table.previous == large and table.buckets == 16


def test_a_table_regrouped_drops_the_other_layouts_files_and_reads_back_whole(tmp_path: Path) -> None:
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    _save(tmp_path, _entries(400, 4000))
    assert len(_bucket_files(folder)) == 16
    small = _entries(10, 10)
    memo = BuildMemo(str(tmp_path), salt="s")
    table = memo.table("t")
    for key in list(small):
        table.get(key)  # kept: the rest of the table is gone from this build
    memo.save()
    assert _bucket_files(folder) == ["00.marshal"]
    assert BuildMemo(str(tmp_path), salt="s").table("t").previous == {k: "x" * 4000 for k in small}
    # --full reads nothing, and writes in the count the last table had, then the one its own size asks
    _save(tmp_path, _entries(400, 4000), fresh=True)
    assert len(_bucket_files(folder)) == 16
    assert BuildMemo(str(tmp_path), salt="s").table("t").previous == _entries(400, 4000)


def test_a_one_entry_change_rewrites_one_bucket_and_the_head(tmp_path: Path) -> None:
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    entries = _entries(400, 4000)
    _save(tmp_path, entries)
    os.utime(folder / HEAD, ns=(0, 0))
    for p in folder.glob("[0-9]*.marshal"):
        os.utime(p, ns=(0, 0))
    memo = BuildMemo(str(tmp_path), salt="s")
    table = memo.table("t")
    for key in entries:
        table.get(key)
    table.put("file7.py", "y" * 4000)
    memo.save()
    touched = sorted(p.name for p in folder.iterdir() if p.stat().st_mtime_ns != 0)
    assert touched == sorted([HEAD, f"{memo_module.bucket_of('file7.py', 16):02d}.marshal"])
    assert BuildMemo(str(tmp_path), salt="s").table("t").peek("file7.py") == "y" * 4000


def test_a_table_near_a_bound_keeps_its_count() -> None:
    assert fits(4, 4 * BUCKET_BYTES) and fits(4, 8 * BUCKET_BYTES) and not fits(4, 9 * BUCKET_BYTES)
    assert fits(4, BUCKET_BYTES) and not fits(4, BUCKET_BYTES // 2) and fits(1, 0)
    assert fits(BUCKETS, 10**12) and bucket_count(10**12) == BUCKETS and bucket_count(0) == 1


def test_a_head_of_the_earlier_layout_or_a_bucket_out_of_range_is_no_memo(tmp_path: Path) -> None:
    _save(tmp_path, _entries(5, 10))
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    head = folder / HEAD
    salt, generations, buckets = memo_module._read(str(head))
    head.write_bytes(memo_module.marshal.dumps((salt, generations)))  # as session 25 wrote it
    assert not BuildMemo(str(tmp_path), salt="s").table("t").previous
    head.write_bytes(memo_module.marshal.dumps((salt, {5: generations[0]}, 4)))
    assert not BuildMemo(str(tmp_path), salt="s").table("t").previous
    head.write_bytes(memo_module.marshal.dumps((salt, generations, 3)))  # no power of two
    assert not BuildMemo(str(tmp_path), salt="s").table("t").previous


def test_a_first_save_encodes_a_large_table_once_in_the_count_its_size_asks(tmp_path: Path, monkeypatch) -> None:
    # No table on disk: the count comes from an eighth of the entries, not from encoding them all in one bucket
    # first; the layout is the one its size asks, and it reads back whole.
    encoded: list[int] = []
    real = memo_module.MemoTable._written

    def counting(self, buckets, dirty, generation, codes):
        encoded.append(buckets)
        return real(self, buckets, dirty, generation, codes)

    monkeypatch.setattr(memo_module.MemoTable, "_written", counting)
    large = _entries(400, 4000)
    _save(tmp_path, large)
    assert encoded == [16]
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    assert len(_bucket_files(folder)) == bucket_count(1_600_000)
    assert BuildMemo(str(tmp_path), salt="s").table("t").previous == large
    # a table of one large entry the eighth misses: encoded again whole, in the count its size asks
    encoded.clear()
    one = {key: "x" * 1_000_000 for key in _entries(8, 0) if memo_module.bucket_of(key, 8) != 0}
    _save(tmp_path / "other", one)
    assert encoded[-1] == bucket_count(len(one) * 1_000_000) and len(encoded) == 2
    assert BuildMemo(str(tmp_path / "other"), salt="s").table("t").previous == one


def test_a_save_holds_one_bucket_s_bytes_at_a_time_and_leaves_no_pending_file(tmp_path: Path, monkeypatch) -> None:
    # Each bucket is encoded and written before the next is: the Linux kernel's graph table, encoded whole, was
    # hundreds of megabytes of one worker's peak. A write that fails leaves neither a pending file nor a head.
    held: list[int] = []
    real = memo_module.MemoTable._write_pending

    def writing(self, bucket, entries, generation):
        held.append(sum(1 for name in os.listdir(self.path) if name.endswith(".tmp")))
        return real(self, bucket, entries, generation)

    monkeypatch.setattr(memo_module.MemoTable, "_write_pending", writing)
    large = _entries(400, 4000)
    _save(tmp_path, large)
    folder = tmp_path / memo_module.MEMO_DIR / "t.table"
    assert len(held) == 16 and held == list(range(16))  # pending, not yet renamed: none held in memory
    assert not list(folder.glob("*.tmp")) and BuildMemo(str(tmp_path), salt="s").table("t").previous == large

    def failing(self, bucket, entries, generation):
        if bucket == 3:
            raise OSError("disk full")
        return real(self, bucket, entries, generation)

    monkeypatch.setattr(memo_module.MemoTable, "_write_pending", failing)
    _save(tmp_path, {**large, "file0.py": "changed"}, fresh=True)
    assert not list(folder.glob("*.tmp")) and not (folder / HEAD).exists()
    assert not BuildMemo(str(tmp_path), salt="s").table("t").previous
