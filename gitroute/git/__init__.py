"""The git package: every way gitroute talks to git, and the only importer of pygit2.

- `env`: the one environment policy and `run_git`, for every git process gitroute starts;
- `catfile`: the answering path's reads through one `git cat-file --batch` (no pygit2: a cold
  query is a process start);
- `repository`: pygit2 for the build (pinned snapshots, blob reads, bundle writes, ref swaps).

Importing this package imports nothing else: answers load `catfile`, builds load `repository`.
"""
