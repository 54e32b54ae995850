"""`gold check` across real release pairs of public projects, in five languages, against a
ground truth from each language's own front end (issue 29).

    python benchmarks/bench_refactor_langs.py [--mirrors DIR] [--only NAME] [--sample 300]
        [--notes FILE]

Runs the `evaltools` it imports (run it with `PYTHONPATH=<other checkout>` to measure
another checkout's code; the `gold check` child inherits it). `--mirrors` holds full git
clones as `<owner>+<name>/repo` (bare is fine); nothing is downloaded and no project code
is kept.

PROJECTS below: none of them is used by the tests. They come in groups of five (one per
language), each measured unseen, before anyone reads its misses, and read after: measure a
change on them, do not tune on them. The commit that adds a group says when it was measured
and what it found; a new claim needs a new group.

For each project, a local clone is checked out at the old tag, then at the new one, so
`gold check` sees the real history between the releases and git's rename detection applies
as in users' CI; a copy of the new work tree without `.git` is the plain run. The old
release's definitions are found by the language's own front end (refactor_truth/extract.py:
Python `ast`, Go `go/parser`, Rust `syn`, TypeScript's compiler API, javac's tree API),
written as the chunk IDs evaltools produces; those whose span or name evaltools' own parser
gives otherwise are counted and left out, as are truths whose target it would not name. Up
to `--sample` IDs are drawn (seeded), each record carrying the old commit as `revision`;
refactor_truth/truth.py says where each went, and `gold check --format json` at the new
release is scored against it, with git history and as a plain tree. The truth follows a
definition to another name in another scope only on a name or a distinctive body
(truth.py): a short body alike one elsewhere is `unclear`, neither a miss nor a credit,
whatever `gold check` says of it. With --show, the summary is followed by every repair of
all projects by its evidence (`truth.rule_of`), right and false in each mode: what each rule
earns and costs. Targets (issue 29): >= 97% of re-anchorable IDs re-anchored and 0 false
with history, >= 90% and 0 false without."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from refactor_truth.extract import definitions, source_files
from refactor_truth.truth import (
    Answer,
    Table,
    Tree,
    Truth,
    by_evidence,
    render,
    score,
    totals,
)
from refactor_truth.truth import truth as where


@dataclass(frozen=True)
class Project:
    name: str
    mirror: str  # <owner>+<name>
    language: str
    old: str
    new: str


PROJECTS = (
    Project("jinja", "pallets+jinja", "python", "2.10.3", "2.11.0"),
    Project("jinja-3", "pallets+jinja", "python", "2.11.3", "3.0.0"),  # Python 2 dropped, typed
    Project("requests", "psf+requests", "python", "v2.31.0", "v2.32.0"),
    Project("urfave-cli", "urfave+cli", "go", "v3.0.0-alpha4", "v3.0.0-alpha5"),
    Project("cobra", "spf13+cobra", "go", "v1.1.0", "v1.2.0"),
    Project("ripgrep", "BurntSushi+ripgrep", "rust", "13.0.0", "14.0.0"),
    Project("serde-json", "serde-rs+json", "rust", "v1.0.50", "v1.0.60"),
    Project("express", "expressjs+express", "ts", "4.17.1", "4.18.0"),
    Project("zod", "colinhacks+zod", "ts", "v3.24.4", "v3.25.9"),
    Project("gson", "google+gson", "java", "gson-parent-2.11.0", "gson-parent-2.12.0"),
    Project("jsoup", "jhy+jsoup", "java", "jsoup-1.16.1", "jsoup-1.17.1"),
    # Held out: added after the rules above were tuned, to measure them on unseen projects
    Project("httpx", "encode+httpx", "python", "0.17.1", "0.18.0"),
    Project("chi", "go-chi+chi", "go", "v1.5.4", "v2.0.0"),
    Project("aho-corasick", "BurntSushi+aho-corasick", "rust", "0.7.20", "1.0.0"),
    Project("got", "sindresorhus+got", "ts", "v11.8.6", "v12.0.0"),
    Project("junit4", "junit-team+junit4", "java", "r4.11", "r4.12"),
    # Held out (second group, added 2026-12-05): measured before anyone tuned on them
    Project("websockets", "python-websockets+websockets", "python", "8.1", "9.0"),
    Project("viper", "spf13+viper", "go", "v1.19.0", "v1.20.0"),
    Project("indexmap", "indexmap-rs+indexmap", "rust", "1.9.0", "2.0.0"),
    Project("commander", "tj+commander.js", "ts", "v7.2.0", "v8.0.0"),
    Project("commons-cli", "apache+commons-cli", "java", "cli-1.2", "cli-1.3"),
    # Held out (third group, added 2026-12-05): for the final measurement only; not tuned on
    Project("pluggy", "pytest-dev+pluggy", "python", "0.13.1", "1.0.0"),
    Project("toml", "BurntSushi+toml", "go", "v0.4.1", "v1.0.0"),
    Project("bstr", "BurntSushi+bstr", "rust", "0.1.4", "0.2.0"),
    Project("immer", "immerjs+immer", "ts", "v5.3.6", "v6.0.0"),
    Project("hamcrest", "hamcrest+JavaHamcrest", "java", "hamcrest-java-1.3", "v2.1"),
    # Held out (fourth group, added 2026-12-05 evening): measured once unseen, then tuned on
    Project("marshmallow", "marshmallow-code+marshmallow", "python", "3.0.0rc1", "3.0.0"),
    Project("echo", "labstack+echo", "go", "v4.15.0", "v5.0.0"),
    Project("memchr", "BurntSushi+memchr", "rust", "2.3.0", "2.4.0"),
    Project("yargs", "yargs+yargs", "ts", "v15.4.0", "v16.0.0"),
    Project("auto", "google+auto", "java", "auto-value-1.6", "auto-value-1.7"),
    # Fifth group, added 2026-12-05 21:40: measured once unseen, then read
    Project("werkzeug", "pallets+werkzeug", "python", "2.2.3", "2.3.0"),
    Project("go-redis", "redis+go-redis", "go", "v8.11.5", "v9.0.0"),
    Project("env-logger", "rust-cli+env_logger", "rust", "v0.10.2", "v0.11.0"),
    Project("axios", "axios+axios", "ts", "v0.27.2", "v1.0.0"),
    Project(
        "commons-io", "apache+commons-io", "java", "rel/commons-io-2.11.0", "rel/commons-io-2.12.0"
    ),
    # Sixth group, added 2026-12-05 23:42: measured once unseen (at 4301020), then read
    Project("packaging", "pypa+packaging", "python", "21.3", "22.0"),
    Project("testify", "stretchr+testify", "go", "v1.7.0", "v1.8.0"),
    Project("bytes", "tokio-rs+bytes", "rust", "v0.5.6", "v0.6.0"),
    Project("pino", "pinojs+pino", "ts", "v7.11.0", "v8.0.0"),
    Project(
        "commons-lang",
        "apache+commons-lang",
        "java",
        "rel/commons-lang-3.11",
        "rel/commons-lang-3.12.0",
    ),
    # Seventh group, added 2026-12-06 00:08: measured once unseen, on the final code
    Project("attrs", "python-attrs+attrs", "python", "21.4.0", "22.1.0"),
    Project("validator", "go-playground+validator", "go", "v10.10.0", "v10.11.0"),
    Project("thiserror", "dtolnay+thiserror", "rust", "1.0.68", "2.0.0"),
    Project("ky", "sindresorhus+ky", "ts", "v0.33.3", "v1.0.0"),
    Project(
        "commons-text",
        "apache+commons-text",
        "java",
        "rel/commons-text-1.9",
        "rel/commons-text-1.10.0",
    ),
    # Eighth group, added 2026-12-06 01:25, chosen for the size of their refactors:
    # measured once unseen, on ce4b2e7's rules
    Project("pytest", "pytest-dev+pytest", "python", "6.2.0.dev0", "7.0.0"),
    Project("gin", "gin-gonic+gin", "go", "v1.7.1", "v1.8.0"),
    Project("rand", "rust-random+rand", "rust", "0.7.3", "0.8.0"),
    Project("fastify", "fastify+fastify", "ts", "v3.27.2", "v4.0.0"),
    Project("mockito", "mockito+mockito", "java", "v3.12.4", "v4.0.0"),
    # Ninth group, added 2026-12-06 02:50, chosen for moves across files (Rust modules split,
    # JS rewritten as TS, Go validation moved out of the parser): measured once unseen, on 0c71c6a
    Project("jsonschema", "python-jsonschema+jsonschema", "python", "v3.2.0", "v4.0.0"),
    Project("jwt", "golang-jwt+jwt", "go", "v4.5.0", "v5.0.0"),
    Project("chrono", "chronotope+chrono", "rust", "v0.4.19", "v0.4.20"),
    Project("socket-io", "socketio+socket.io", "ts", "2.3.0", "3.0.0"),
    Project(
        "jackson-core",
        "FasterXML+jackson-core",
        "java",
        "jackson-core-2.12.0",
        "jackson-core-2.13.0",
    ),
    # Tenth group, added 2026-12-06 03:15 (a Python tool's reorganisation, Go packages moved
    # out to their own modules, a JS library split into modules): measured once unseen, on
    # the rules made for the ninth
    Project("pipx", "pypa+pipx", "python", "1.2.0", "1.3.0"),
    Project("go-kit", "go-kit+kit", "go", "v0.10.0", "v0.11.0"),
    Project("regex", "rust-lang+regex", "rust", "1.7.3", "1.8.0"),
    Project("underscore", "jashkenas+underscore", "ts", "1.10.2", "1.11.0"),
    Project("mybatis", "mybatis+mybatis-3", "java", "mybatis-3.5.6", "mybatis-3.5.7"),
    # Eleventh group, added 2026-12-06 05:19 (a Go library's files moved and split, a date
    # library's functions renamed by the hundred, Java converters moved): measured once
    # unseen, on 5f94890
    Project("starlette", "encode+starlette", "python", "0.13.8", "0.14.0"),
    Project("client-golang", "prometheus+client_golang", "go", "v1.12.0", "v1.13.0"),
    Project("itertools", "rust-itertools+itertools", "rust", "v0.12.1", "v0.13.0"),
    Project("date-fns", "date-fns+date-fns", "ts", "v2.28.0", "v2.29.0"),
    Project("retrofit", "square+retrofit", "java", "parent-2.8.1", "2.9.0"),
    # Twelfth group, added 2026-12-06 05:55 (a terminal library's 10.0, a Go logger, an HTTP
    # client moved to hyper 1, a JS library turned ESM, a Java codec library): measured once
    # unseen, on 3715d8f
    Project("rich", "Textualize+rich", "python", "v9.13.0", "v10.0.0"),
    Project("zerolog", "rs+zerolog", "go", "v1.26.1", "v1.27.0"),
    Project("reqwest", "seanmonstar+reqwest", "rust", "v0.11.27", "v0.12.0"),
    Project("execa", "sindresorhus+execa", "ts", "v5.1.1", "v6.0.0"),
    Project(
        "commons-codec",
        "apache+commons-codec",
        "java",
        "rel/commons-codec-1.15",
        "rel/commons-codec-1.16.0",
    ),
    # Thirteenth group, added 2026-12-06 08:15 (a Python logger's 0.6, a Go router's 1.7, a
    # Rust HTTP types crate's 1.0, a JS framework's 3.0 with its tests moved, a Java
    # collections library's 4.5): measured once unseen, on 6ed53bc
    Project("loguru", "Delgan+loguru", "python", "0.5.3", "0.6.0"),
    Project("mux", "gorilla+mux", "go", "v1.5.0", "v1.7.0"),
    Project("http", "hyperium+http", "rust", "v0.2.8", "v1.0.0"),
    Project("koa", "koajs+koa", "ts", "3.0.0-alpha.0", "v3.0.0"),
    Project(
        "commons-collections",
        "apache+commons-collections",
        "java",
        "commons-commons-collections-4.4",
        "rel/commons-collections-4.5.0-M1",
    ),
    # Fourteenth group, added 2026-12-06 08:25 (a signing library typed for 2.0, a Go
    # websocket library's files merged, a Rust macro crate split into modules, a YAML
    # library's 4.0, a Java CSV library): measured once unseen, on the thirteenth's fix
    Project("itsdangerous", "pallets+itsdangerous", "python", "1.1.0", "2.0.0"),
    Project("websocket", "gorilla+websocket", "go", "v1.4.2", "v1.5.0"),
    Project("bitflags", "bitflags+bitflags", "rust", "1.3.2", "2.0.0"),
    Project("js-yaml", "nodeca+js-yaml", "ts", "3.14.0", "4.0.0"),
    Project(
        "commons-csv",
        "apache+commons-csv",
        "java",
        "rel/commons-csv-1.9.0",
        "rel/commons-csv-1.10.0",
    ),
    # Fifteenth group, added 2026-12-06 11:55 (a CLI library's 8.0, a Go logger over four
    # releases, Rust's log facade, a Markdown parser moved to ES modules, a Java validation
    # library): measured once unseen, on the fourteenth's rules
    Project("click", "pallets+click", "python", "7.1.2", "8.0.0"),
    Project("logrus", "sirupsen+logrus", "go", "v1.4.2", "v1.8.1"),
    Project("log", "rust-lang+log", "rust", "0.4.14", "0.4.21"),
    Project("markdown-it", "markdown-it+markdown-it", "ts", "13.0.2", "14.0.0"),
    Project(
        "commons-validator",
        "apache+commons-validator",
        "java",
        "VALIDATOR_1_7",
        "rel/commons-validator-1.8.0",
    ),
    # Sixteenth group, added 2026-12-06 13:40 (a build backend moved to a src layout with
    # its vendored libraries, a Go logger, a parser-combinator crate's 7.0, a UUID library
    # rewritten in TypeScript, Java's archive library): measured once unseen, on the rules of
    # 49184de (bundle copies)
    Project("poetry-core", "python-poetry+poetry-core", "python", "1.0.8", "1.1.0"),
    Project("zap", "uber-go+zap", "go", "v1.24.0", "v1.26.0"),
    Project("nom", "rust-bakery+nom", "rust", "6.2.1", "7.0.0"),
    Project("uuid", "uuidjs+uuid", "ts", "v10.0.0", "v11.0.0"),
    Project(
        "commons-compress",
        "apache+commons-compress",
        "java",
        "rel/commons-compress-1.25.0",
        "rel/commons-compress-1.26.0",
    ),
    Project("structlog", "hynek+structlog", "python", "21.5.0", "22.1.0"),
    Project("go-toml", "pelletier+go-toml", "go", "v1.9.5", "v2.0.0"),
    Project("rayon", "rayon-rs+rayon", "rust", "v1.5.3", "v1.6.0"),
    Project("moment", "moment+moment", "ts", "2.9.0", "2.10.2"),  # moment.js split into src/lib
    Project("guice", "google+guice", "java", "4.2.3", "5.0.0"),
    # pyparsing.py split into a package
    Project("pyparsing", "pyparsing+pyparsing", "python", "pyparsing_2.4.7", "pyparsing_3.0.0"),
    Project("resty", "go-resty+resty", "go", "v2.16.2", "v3.0.0-alpha.1"),
    Project("hashbrown", "rust-lang+hashbrown", "rust", "v0.13.2", "v0.14.0"),
    Project("marked", "markedjs+marked", "ts", "v5.1.2", "v6.0.0"),
    Project(
        "commons-pool",
        "apache+commons-pool",
        "java",
        "rel/commons-pool-2.11.1",
        "rel/commons-pool-2.12.0",
    ),
    Project("tqdm", "tqdm+tqdm", "python", "v4.35.0", "v4.36.0"),  # _tqdm.py became std.py
    Project("yaml", "go-yaml+yaml", "go", "v2.4.0", "v3.0.0"),
    Project("crossbeam", "crossbeam-rs+crossbeam", "rust", "crossbeam-0.7.3", "crossbeam-0.8.0"),
    Project("node-semver", "npm+node-semver", "ts", "v6.3.0", "v7.0.0"),  # one file split up
    Project(
        "commons-net",
        "apache+commons-net",
        "java",
        "rel/commons-net-3.8.0",
        "rel/commons-net-3.9.0",
    ),
    # Twentieth group, added 2026-12-07 03:20 (an async library's 4.0, a Go filesystem's
    # 6.0 alpha, a Rust I/O crate's 0.8, chalk rewritten as ES modules, a Java library
    # moved to a new package): measured once unseen on the rules of 4657d72 (git right %
    # and false, plain right % and false: anyio 99.6 0, 94.6 0; go-billy 88.4 1, 85.6 0;
    # mio 99.2 0, 99.2 0; chalk 100 0, 93.8 0; commons-beanutils 89.7 1, 50.9 6), then
    # read: go-billy's and commons-beanutils' falses were tuned on
    Project("anyio", "agronholm+anyio", "python", "3.7.1", "4.0.0"),
    Project("go-billy", "go-git+go-billy", "go", "v5.6.2", "v6.0.0-alpha.1"),
    Project("mio", "tokio-rs+mio", "rust", "v0.7.14", "v0.8.0"),
    Project("chalk", "chalk+chalk", "ts", "v4.1.2", "v5.0.0"),
    Project(
        "commons-beanutils",
        "apache+commons-beanutils",
        "java",
        "rel/commons-beanutils-1.11.0",
        "rel/commons-beanutils-2.0.0-M1",
    ),
    # Twenty-first group, added 2026-12-07 05:40 (isort 6, afero 1.12, rust-url 2.4, mocha
    # 10, commons-dbcp 2.10), measured once unseen on the rules of 552830c (git right % and
    # false, plain right % and false: isort 100 0, 100 0; afero 100 0, 100 0; rust-url 100
    # 0, 99.7 0; mocha 100 0, 100 0; commons-dbcp 98.7 0, 93.3 0); nothing tuned on it
    Project("isort", "PyCQA+isort", "python", "5.13.2", "6.0.0"),
    Project("afero", "spf13+afero", "go", "v1.11.0", "v1.12.0"),
    Project("rust-url", "servo+rust-url", "rust", "v2.3.1", "v2.4.0"),
    Project("mocha", "mochajs+mocha", "ts", "v9.2.2", "v10.0.0"),
    Project(
        "commons-dbcp",
        "apache+commons-dbcp",
        "java",
        "rel/commons-dbcp-2.9.0",
        "rel/commons-dbcp-2.10.0",
    ),
    # Twenty-second group, added 2026-12-07 05:50: major releases of the same five projects
    # (a rewrite into a package, a crate split, a test-suite move, a Java package rename),
    # measured once unseen on the rules of 552830c (isort 99.1 0, 96.1 0; rust-url 98.8 0,
    # 95.6 0; mocha 100 0, 98.9 0; commons-dbcp 99.3 3, 73.5 2; afero 100 0, 100 0); then
    # read: commons-dbcp's constructor was tuned on (two of its git falses are the judge's:
    # `getPerUserMaxWait` -> `getPerUserMaxWaitMillis` in its own class)
    Project("isort-5", "PyCQA+isort", "python", "4.3.21", "5.0.0"),
    Project("rust-url-2", "servo+rust-url", "rust", "v1.7.2", "v2.0.0"),
    Project("mocha-8", "mochajs+mocha", "ts", "v7.2.0", "v8.0.0"),
    Project("commons-dbcp-2", "apache+commons-dbcp", "java", "DBCP_1_4", "DBCP_2_0"),
    Project("afero-1.3", "spf13+afero", "go", "v1.2.2", "v1.3.0"),
    # Twenty-third group, added 2026-12-07 05:55, measured once unseen on the rules of
    # e3b0902 before its review's fixes, the same after (more-itertools 100 0, 100 0;
    # tablewriter 85.7 0, 71.4 0, of 28: a rewrite; parking_lot 100 0, 98.7 0; meow 95.2 0,
    # 81.0 0, of 21; commons-configuration 92.1 0, 77.3 0); nothing tuned on it
    Project("more-itertools", "more-itertools+more-itertools", "python", "v9.1.0", "v10.0.0"),
    Project("tablewriter", "olekukonko+tablewriter", "go", "v0.0.5", "v1.0.0"),
    Project("parking-lot", "Amanieu+parking_lot", "rust", "0.11.2", "0.12.0"),
    Project("meow", "sindresorhus+meow", "ts", "v11.0.0", "v12.0.0"),
    Project(
        "commons-configuration",
        "apache+commons-configuration",
        "java",
        "CONFIGURATION_1_10",
        "CONFIGURATION_2_0",
    ),
    # Twenty-fourth group, added 2026-12-07 09:50 (flake8 5.0, cast 1.6, semver 1.0 rewritten,
    # glob 10, jexl 2 -> 3 moved to a new package), measured once unseen on the rules of
    # acf01b9 and its hamcrest guard (flake8 100 0, 98.6 0; cast 100 0, 100 0; semver 55.9
    # 1, 47.1 1, of 34: a rewrite; glob 100 0, 99.3 0; commons-jexl 80.9 6, 69.8 3: the
    # template engine split into an interface and its implementation); then read: its
    # commons-jexl false rewrites taught the rules the next group measures
    Project("flake8", "PyCQA+flake8", "python", "4.0.1", "5.0.0"),
    Project("cast", "spf13+cast", "go", "v1.5.1", "v1.6.0"),
    Project("semver", "dtolnay+semver", "rust", "0.11.0", "1.0.0"),
    Project("glob", "isaacs+node-glob", "ts", "v9.3.5", "v10.0.0"),
    Project(
        "commons-jexl", "apache+commons-jexl", "java", "commons-jexl-2.1", "rel/commons-jexl-3.2"
    ),
    # Twenty-fifth group, added 2026-12-07 11:50 (tenacity 9, backoff 4, toml 0.7 rebuilt on
    # toml_edit, fs-extra 11; commons-text 1.1 -> 1.10, a new pair of a project seen in its
    # 1.9 -> 1.10 pair), measured once unseen on the rules that commons-jexl's false
    # rewrites taught (a bare declaration, a name standing elsewhere, a file of its name git
    # did not pair): tenacity 100 0, 97.0 0; backoff 100 0, 100 0; toml-rs 89.5 4, 86.0 0
    # (3 bodies identical in their own file, `Serializer` renamed `ValueSerializer` there,
    # that the truth calls merged elsewhere); fs-extra 100 0, 98.6 0; commons-text-1.1 99.7
    # 0, 88.6 2 (plain overloads). jexl is no longer unseen; this group was.
    Project("tenacity", "jd+tenacity", "python", "8.2.3", "9.0.0"),
    Project("backoff", "cenkalti+backoff", "go", "v3.2.2", "v4.3.0"),
    Project("toml-rs", "toml-rs+toml", "rust", "toml-v0.5.11", "toml-v0.7.0"),
    Project("fs-extra", "jprichardson+node-fs-extra", "ts", "9.1.0", "11.1.0"),
    Project(
        "commons-text-1.1",
        "apache+commons-text",
        "java",
        "commons-text-1.1",
        "rel/commons-text-1.10.0",
    ),
    # Twenty-sixth group, added 2026-12-07 14:05 (humanize moved to src/, golang-lru 2 made
    # generic with its packages split, dashmap 5, path-to-regexp 8 rewritten, commons-
    # fileupload 2 split into modules), measured once unseen at ddf870a: humanize 72.5 0,
    # 75.0 0; golang-lru 100 0, 100 0; dashmap 100 0, 97.6 0; path-to-regexp 94.1 0, 76.5 0;
    # commons-fileupload 92.9 6, 67.0 2 (two test classes followed through their renames to
    # thin subclasses, their tests gone to new abstract bases; four IDs git's chains of
    # renames follow to `AbstractFileUpload` and `JavaxMockHttpServletRequest`, which the
    # truth calls gone). The rules it taught came after.
    Project("humanize", "python-humanize+humanize", "python", "1.0.0", "3.0.0"),
    Project("golang-lru", "hashicorp+golang-lru", "go", "v0.5.4", "v2.0.7"),
    Project("dashmap", "xacrimon+dashmap", "rust", "v3.11.10", "v5.0.0"),
    Project("path-to-regexp", "pillarjs+path-to-regexp", "ts", "v6.2.2", "v8.0.0"),
    Project(
        "commons-fileupload",
        "apache+commons-fileupload",
        "java",
        "commons-fileupload-1.5",
        "rel/commons-fileupload-2.0.0-M1",
    ),
    # Twenty-seventh group, added 2026-12-07 17:05 (pytest-xdist 3, go-cmp 0.5, arrayvec 0.7
    # on const generics, debug 4 split into common and platform files, commons-email 2 split
    # into modules), measured once unseen at 8b73074: pytest-xdist 100 0, 100 0; go-cmp 98.5
    # 3, 92.2 2 (types whose methods went to new exported wrappers, `sliceIndex` ->
    # `SliceIndex struct{ *sliceIndex }`, where the truth sent the old type to the wrapper);
    # arrayvec 94.6 6, 92.2 4 (two methods, now one-line wrappers of a new trait's default
    # methods, followed to the trait; four the truth sent through `NoDrop`, read as renamed
    # to `ArrayVec` by their common names); debug 100 0, 100 0 (21 IDs); commons-email 100
    # 6, 89.4 0 (classes git renamed into the new modules, rewritten past the truth's half).
    Project("pytest-xdist", "pytest-dev+pytest-xdist", "python", "v1.34.0", "v3.0.0"),
    Project("go-cmp", "google+go-cmp", "go", "v0.2.0", "v0.5.0"),
    Project("arrayvec", "bluss+arrayvec", "rust", "0.4.12", "0.7.0"),
    Project("debug", "debug-js+debug", "ts", "2.6.9", "4.0.0"),
    Project(
        "commons-email",
        "apache+commons-email",
        "java",
        "EMAIL_1_5",
        "rel/commons-email-2.0.0-M1",
    ),
    # Twenty-eighth group, added 2026-12-07 19:35 (Masterminds/semver 3, indicatif 0.17,
    # sqlparse 0.4, node-fetch 3 on ES modules, commons-exec 1.5), measured once unseen at
    # 290197d: masterminds-semver 100 0, 98.1 0; indicatif 95.1 0, 84.7 0 (`mod
    # rayon_support`'s types taken out to `rayon.rs`, their short methods left; files split);
    # sqlparse 100 0, 100 0; node-fetch 94.0 0, 86.0 0 (error classes rewritten as their
    # files moved to `src/errors/`); commons-exec 98.3 0, 86.6 1 (overloads reordered; in a
    # plain tree a deprecated overload grew a line and a new one took its length).
    Project("masterminds-semver", "Masterminds+semver", "go", "v1.5.0", "v3.0.0"),
    Project("indicatif", "console-rs+indicatif", "rust", "0.15.0", "0.17.0"),
    Project("sqlparse", "andialbrecht+sqlparse", "python", "0.3.1", "0.4.4"),
    Project("node-fetch", "node-fetch+node-fetch", "ts", "v2.6.1", "v3.0.0"),
    Project("commons-exec", "apache+commons-exec", "java", "1.3", "rel/commons-exec-1.5.0"),
)


def git(repo: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", "-c", "advice.detachedHead=false", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def evaltools_ids(root: Path, language: str) -> set[str]:
    """The chunk ID of every definition evaltools' parser finds in the tree."""
    from evaltools.retrieval.code.symbols import find_definitions

    ids = set()
    for path in source_files(root, language):
        for d in find_definitions(path, (root / path).read_bytes()):
            ids.add(f"{path}:{d.start}-{d.end}:{d.name}")
    return ids


@dataclass
class Prepared:
    truth_of: dict[str, Truth]
    notes: list[str]  # what was left out, and why


def prepare(project: Project, repo: Path, sample: int, seed: int) -> tuple[Prepared, str]:
    """Checks the clone out at the old tag, then the new; returns the truths and the old
    commit."""
    git(repo, "checkout", "-q", "--detach", project.old)
    old_commit = git(repo, "rev-parse", "HEAD")
    old_defs, old_refused = definitions(repo, project.language)
    old_ids = evaltools_ids(repo, project.language)
    git(repo, "checkout", "-q", "--detach", project.new)
    new_defs, new_refused = definitions(repo, project.language)
    new_ids = evaltools_ids(repo, project.language)
    new_paths = set(source_files(repo, project.language))
    seen = Counter(d.chunk_id for d in old_defs)  # one ID for two definitions names neither
    agreed = [d for d in old_defs if d.chunk_id in old_ids and seen[d.chunk_id] == 1]
    chosen = random.Random(seed).sample(agreed, min(sample, len(agreed)))
    tree = Tree(new_defs, new_paths, old_defs)
    truth_of: dict[str, Truth] = {}
    left = Counter[str]()
    details = []
    for d in sorted(chosen, key=lambda d: d.chunk_id):
        want = where(d, tree)
        if want.category == "unclear":
            left[f"unclear ({want.why})"] += 1
            details.append(f"unclear: `{d.chunk_id}` ({want.why}) best {list(want.targets)}")
        elif not set(want.targets) <= new_ids:
            left["evaltools names a truth target otherwise"] += 1
            details.append(f"not scored: `{d.chunk_id}` truth {list(want.targets)}")
        else:
            truth_of[d.chunk_id] = want
    notes = [
        f"old definitions {len(old_defs)} ({len(old_refused)} files refused), new"
        f" {len(new_defs)} ({len(new_refused)} refused); evaltools agrees on"
        f" {len(agreed)} old IDs ({len(agreed) / max(len(old_defs), 1):.1%});"
        f" sampled {len(chosen)}, scored {len(truth_of)}",
        *(f"left out: {n} {why}" for why, n in sorted(left.items())),
        *details,
    ]
    return Prepared(truth_of, notes), old_commit


def write_set(path: Path, ids: list[str], revision: str) -> None:
    lines = [
        json.dumps({"qid": f"q{i}", "query": "q", "gold": {cid: 3}, "revision": revision})
        for i, cid in enumerate(ids)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def gold_check(root: Path, eval_set: Path, cache: Path) -> tuple[dict[str, Answer], float]:
    """`gold check --format json` as a user runs it, in a child process (its own cache)."""
    env = {**os.environ, "EVALTOOLS_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "evaltools", "gold", "check", str(eval_set)]
    command += ["--root", str(root), "--format", "json", "--jobs", "1"]
    start = time.monotonic()
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, cwd=cache.parent
    )
    seconds = time.monotonic() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"gold check failed ({done.returncode}): {done.stderr[-2000:]}")
    answers = {}
    for item in json.loads(done.stdout):
        if item.get("status") is None:
            continue
        answers[item["chunk_id"]] = Answer(
            item["status"],
            item.get("kind") or item["status"],
            item.get("new_chunk_id"),
            tuple(item.get("candidates") or ()),
            item.get("evidence"),
        )
    return answers, seconds


@dataclass
class Run:
    project: Project
    mode: str
    table: Table
    misses: list[str]
    seconds: float
    evidence: Counter[tuple[str, str]]


def bench(project: Project, args: argparse.Namespace, work: Path) -> tuple[list[Run], list[str]]:
    mirror = Path(args.mirrors) / project.mirror / "repo"
    repo = work / project.name
    subprocess.run(
        ["git", "clone", "-q", "--no-checkout", str(mirror), str(repo)],
        check=True,
        capture_output=True,
    )
    prepared, old_commit = prepare(project, repo, args.sample, args.seed)
    eval_set = work / f"{project.name}.jsonl"
    write_set(eval_set, list(prepared.truth_of), old_commit)
    plain = work / f"{project.name}-plain"
    shutil.copytree(repo, plain, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    runs = []
    for mode, root in (("git", repo), ("plain", plain)):
        answers, seconds = gold_check(root, eval_set, work / f"cache-{project.name}-{mode}")
        table, misses = score(prepared.truth_of, answers)
        tally = by_evidence(prepared.truth_of, answers)
        runs.append(Run(project, mode, table, misses, seconds, tally))
    return runs, prepared.notes


def heading(project: Project) -> str:
    return f"{project.name} ({project.language}) {project.old} -> {project.new}"


def report(runs: list[Run], notes: list[str], show: bool) -> list[str]:
    lines = [f"### {heading(runs[0].project)}", "", *(f"- {n}" for n in notes), ""]
    for run in runs:
        lines += [f"{run.mode} ({run.seconds:.1f} s):", "```", *render(run.table), "```"]
        shown = run.misses if show else [m for m in run.misses if not m.startswith("right")]
        lines += [f"- {m}" for m in shown]
        lines.append("")
    return lines


def summary(all_runs: list[Run]) -> list[str]:
    lines = ["| project | with git: right / re-anchorable, false | plain: right, false |"]
    lines.append("| --- | --- | --- |")
    by_project: dict[str, dict[str, Run]] = {}
    for run in all_runs:
        by_project.setdefault(heading(run.project), {})[run.mode] = run
    for name, modes in by_project.items():
        cells = []
        for mode in ("git", "plain"):
            able, right, false = totals(modes[mode].table)
            cells.append(f"{right}/{able} ({right / max(able, 1):.1%}), {false} false")
        lines.append(f"| {name} | {' | '.join(cells)} |")
    return lines


def evidence_table(all_runs: list[Run]) -> list[str]:
    """The repairs of all projects by their evidence, each mode's right and false: what
    each rule earns and costs."""
    counts: dict[str, Counter[str]] = {}
    for run in all_runs:
        for (rule, result), n in run.evidence.items():
            counts.setdefault(rule, Counter())[f"{run.mode} {result}"] += n
    lines = ["| evidence | git: right, false | plain: right, false |", "| --- | --- | --- |"]
    for rule, c in sorted(counts.items(), key=lambda item: -sum(item[1].values())):
        cells = [f"{c[f'{mode} right']}, {c[f'{mode} false']}" for mode in ("git", "plain")]
        lines.append(f"| {rule} | {' | '.join(cells)} |")
    return lines


def code_version() -> str:
    import evaltools

    folder = Path(evaltools.__file__).resolve().parent.parent
    try:
        commit = git(folder, "rev-parse", "--short", "HEAD")
        dirty = (
            " (uncommitted changes)" if git(folder, "status", "--porcelain", "evaltools") else ""
        )
    except (subprocess.CalledProcessError, FileNotFoundError):
        commit, dirty = "?", ""
    return f"{folder} at {commit}{dirty}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mirrors", default="/work/.mirror", help="<owner>+<name>/repo clones")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="comma-separated project names or languages")
    parser.add_argument("--tags", help="OLD..NEW instead of the listed pair (with one --only)")
    parser.add_argument("--notes", help="append the figures and misses to this Markdown file")
    parser.add_argument("--show", action="store_true", help="print the misses")
    args = parser.parse_args()
    wanted = set(args.only.split(",")) if args.only else None
    chosen = [p for p in PROJECTS if wanted is None or p.name in wanted or p.language in wanted]
    if args.tags:
        old, _, new = args.tags.partition("..")
        chosen = [dataclasses.replace(p, old=old, new=new) for p in chosen]
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    header = [f"## {stamp}: `bench_refactor_langs.py`, evaltools {code_version()}", ""]
    print("\n".join(header))
    all_runs: list[Run] = []
    for project in chosen:
        with tempfile.TemporaryDirectory(prefix=f"bench-langs-{project.name}-") as tmp:
            runs, notes = bench(project, args, Path(tmp))
        all_runs += runs
        lines = report(runs, notes, args.show)
        for line in lines:
            if args.show or not line.startswith("- ") or line.startswith(("- left", "- old")):
                print(line)
        if args.notes:
            with Path(args.notes).open("a", encoding="utf-8") as notes_file:
                if project is chosen[0]:
                    notes_file.write("\n" + "\n".join(header) + "\n")
                notes_file.write("\n".join(lines) + "\n")
    table = summary(all_runs)
    print("\n".join(table))
    if args.show:
        print("\n".join(["", "Repairs by evidence:", "", *evidence_table(all_runs)]))
    if args.notes:
        with Path(args.notes).open("a", encoding="utf-8") as notes_file:
            notes_file.write("\n".join(["Summary:", "", *table, ""]) + "\n")


if __name__ == "__main__":
    main()
