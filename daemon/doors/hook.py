"""`metaeng-daemon hook RUNTIME`: hand the agent what was learned, at the moment it needs it.

Claude Code and Codex run a hook command on `UserPromptSubmit` (before the model sees a
prompt) and on `SessionStart`, with one JSON object on stdin (`hook_event_name`,
`session_id`, `cwd`, `prompt` …); what the command prints as
`hookSpecificOutput.additionalContext` goes in front of the model. Hermes runs a shell
hook on `pre_llm_call` (the message in `extra.user_message`) and takes `{"context": …}`
(docs/explanation/delivery-in-runtimes.md). Here:

- `UserPromptSubmit`: the current facts and the skills most relevant to the prompt —
  lexical ranking (FTS5's BM25) of the prompt's terms over each fact's entity, key and
  value (weighted twice) and its quote, and over skill names and descriptions — within a
  budget of characters (default 1,500);
- `SessionStart`: the newest current facts, as the facts view begins, within the budget.

It reads only the delivery index the daemon keeps (`daemon.wiring.delivery`) and answers
only in the folders of that agent's sessions (its home, `transcripts.projects`): a hook
wired for every project by mistake hands nothing to the others.

It fails open: whatever goes wrong (no index yet, a damaged file, bad stdin), it prints
nothing, exits 0 and appends one line to `hook.log` in the agent's state folder, the
index's (stderr when that folder holds neither the index nor the agent's store, as for a
mistyped `--index`, or when the log cannot be written) — a prompt is never blocked by the
daemon. It is fast: the standard library only (json, sqlite3), no config, no pydantic,
no OpenAI SDK; `daemon.launch` reaches it before the command line parser is imported.
Measured in benchmarks/bench_hook.py.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Sequence

from daemon.kernel import bounded_log
from daemon.kernel.runtime_files import PROMPT_HOOKS
from daemon.text.search_terms import paired as _paired
from daemon.text.search_terms import query_terms, stems

# `typing` and `dataclasses` cost a prompt ~15 ms to import: annotations only, and a plain class
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

RUNTIMES = PROMPT_HOOKS
# Claude Code and Codex share the hook contract; Hermes's shell hook runs before each
# model call and takes {"context": …} back (docs/explanation/delivery-in-runtimes.md).
EVENTS = ("UserPromptSubmit", "SessionStart", "pre_llm_call")
MARK = "[metaeng-daemon]"  # first on every context: how a transcript shows what was delivered
DEFAULT_BUDGET = 1500
MAX_STDIN = 4 * 1024 * 1024
MAX_FACTS = 8
MAX_SKILLS = 3
VALUE_CHARS = 200
SAID_CHARS = 160
MIN_LINE = 40  # characters: a fact cut shorter than this says nothing
LOG_MAX_BYTES = 256 * 1024
STORE = "store.git"  # daemon.kernel.paths.AgentState.git_dir (not imported: dataclasses cost a prompt)
BUSY_MS = 500  # a run refreshing the index holds it this long at most before we give up
# A term found in more facts than COMMON_SHARE of them (and more than COMMON_FLOOR) tells
# nothing about which facts matter ("user", the entity of most): left out of the query.
# Statistics of the agent's own facts; the languages' stopwords are left out before.
COMMON_SHARE = 0.05
COMMON_FLOOR = 5
PREFIX_MIN = 4  # letters: "deploy" finds "deployment"; "use" must not find "user"
FACTS_HEADER = f"{MARK} What metaeng-daemon learned in earlier sessions that may bear on this prompt (notes, not instructions):"
START_HEADER = f"{MARK} What metaeng-daemon learned in earlier sessions (current facts, newest first; notes, not instructions):"
SKILLS_HEADER = "Skills that may help (open the SKILL.md when one applies):"
USAGE = "usage: metaeng-daemon hook {claude-code,codex,hermes} --index PATH [--budget CHARS]"


class HookError(Exception):
    """Why the hook gave nothing (logged, never raised to the runtime)."""


class Options:
    __slots__ = ("budget", "index", "runtime")

    def __init__(self, runtime: str, index: str, budget: int) -> None:
        self.runtime, self.index, self.budget = runtime, index, budget


def parse(argv: Sequence[str]) -> Options:
    """The hook's arguments, read without argparse (its import alone costs a prompt ~10 ms)."""
    words = list(argv)
    if not words or words[0] not in RUNTIMES:
        raise HookError(f"expected a runtime ({', '.join(RUNTIMES)}) — {USAGE}")
    runtime, rest = words[0], words[1:]
    values: dict[str, str] = {}
    while rest:
        word = rest.pop(0)
        name, eq, given = word.partition("=")
        if name not in ("--index", "--budget"):
            raise HookError(f"unknown argument {word!r} — {USAGE}")
        if not eq:
            if not rest:
                raise HookError(f"{name} needs a value — {USAGE}")
            given = rest.pop(0)
        values[name] = given
    if "--index" not in values:
        raise HookError(f"--index is required — {USAGE}")
    try:
        budget = int(values.get("--budget", DEFAULT_BUDGET))
    except ValueError:
        raise HookError(f"--budget must be a whole number of characters, got {values['--budget']!r}") from None
    if budget < 100:
        raise HookError(f"--budget must be at least 100 characters, got {budget}")
    return Options(runtime, values["--index"], budget)


def _line(text: str, limit: int) -> str:
    """One line, control characters out, at most `limit` characters."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _connect(path: str) -> sqlite3.Connection:
    if not os.path.isfile(path):
        raise HookError(f"no delivery index at {path} yet (the daemon builds it after the agent's next run)")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_MS / 1000)
    return db


def _meta(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute("SELECT key, value FROM meta WHERE key IN ('facts', 'roots', 'stemmers')").fetchall())


def _answers_here(meta: dict[str, str], cwd: str) -> bool:
    """Whether `cwd` is one of the agent's folders (its home, `transcripts.projects`)."""
    if not cwd:
        return False
    here = os.path.realpath(cwd)
    roots = json.loads(meta.get("roots", "[]"))
    return any(here == root or here.startswith(root.rstrip("/") + "/") for root in roots)


def _match(db: sqlite3.Connection, vocab: str, total: int, terms: list[str], algorithms: list[str]) -> str | None:
    """An FTS5 query over the telling ones of `terms` and their stems, or None if none tells anything."""
    if not terms or total == 0:
        return None
    marks = ",".join("?" * len(terms))
    counts = dict(db.execute(f"SELECT term, doc FROM {vocab} WHERE term IN ({marks})", terms).fetchall())
    common = max(COMMON_FLOOR, total * COMMON_SHARE)
    kept = [t for t in terms if counts.get(t, 0) <= common]
    if not kept:
        return None
    # a longer word also finds its longer forms ("deploy" → "deployment"), its stem the
    # word inflected ("deployment" → "deploy"); a pair of a script without spaces is as it is
    words = [f'"{t}"*' if len(t) >= PREFIX_MIN and t.isalpha() and not _paired(t) else f'"{t}"' for t in kept]
    words += [f'"{t}"' for t in stems(kept, algorithms) if t not in kept]
    return " OR ".join(words)


def _fact_line(entity: str, key: str, value: str, valid_from: str, quote: str) -> str:
    said = f'; said: "{_line(quote, SAID_CHARS)}"' if quote else ""
    return f"- {_line(entity, 80)}.{_line(key, 80)} = {_line(value, VALUE_CHARS)} (since {valid_from}{said})"


def _fill(header: str, lines: list[str], budget: int) -> tuple[str, int]:
    """The header and as many whole lines as fit in `budget` characters ("" if none fits)."""
    kept: list[str] = []
    used = len(header) + 1
    for line in lines:
        room = budget - used - 1
        if len(line) > room:
            if not kept and room >= MIN_LINE:  # the most relevant one, cut, rather than none
                kept.append(line[: room - 1] + "…")
                used += room + 1
            break
        kept.append(line)
        used += len(line) + 1
    return ("\n".join([header, *kept]), used) if kept else ("", 0)


def _telling(db: sqlite3.Connection, prompt: str) -> list[str]:
    """The prompt's terms but the stopwords of every language with a data file (the index
    holds them: `daemon.wiring.delivery`)."""
    terms = query_terms(prompt)
    if not terms:
        return terms
    marks = ",".join("?" * len(terms))
    stop = {t for (t,) in db.execute(f"SELECT term FROM stopwords WHERE term IN ({marks})", terms)}
    return [t for t in terms if t not in stop]


def _prompt_context(db: sqlite3.Connection, meta: dict[str, str], prompt: str, today: str, budget: int) -> str:
    terms = _telling(db, prompt)
    algorithms = json.loads(meta.get("stemmers", "[]"))
    fact_lines: list[str] = []
    match = _match(db, "facts_vocab", int(meta.get("facts", "0")), terms, algorithms)
    if match is not None:
        rows = db.execute(
            "SELECT f.entity, f.key, f.value, f.valid_from, f.quote FROM facts_fts JOIN facts f ON f.rowid = facts_fts.rowid"
            " WHERE facts_fts MATCH ? AND f.valid_from <= ? AND (f.valid_to IS NULL OR f.valid_to > ?)"
            " ORDER BY bm25(facts_fts, 2.0, 1.0) LIMIT ?",
            (match, today, today, MAX_FACTS),
        ).fetchall()
        fact_lines = [_fact_line(*row) for row in rows]
    skill_lines: list[str] = []
    skills_total = int(db.execute("SELECT count(*) FROM skills").fetchone()[0])
    match = _match(db, "skills_vocab", skills_total, terms, algorithms)
    if match is not None:
        rows = db.execute(
            "SELECT s.name, s.description, s.path FROM skills_fts JOIN skills s ON s.rowid = skills_fts.rowid"
            " WHERE skills_fts MATCH ? ORDER BY bm25(skills_fts) LIMIT ?",
            (match, MAX_SKILLS),
        ).fetchall()
        skill_lines = [f"- {_line(name, 80)}: {_line(description, 240)} ({_line(path, 200)}/SKILL.md)" for name, description, path in rows]
    facts, used = _fill(FACTS_HEADER, fact_lines, budget)
    skills, _used = _fill(f"{MARK} {SKILLS_HEADER}" if not facts else SKILLS_HEADER, skill_lines, budget - used - (1 if facts else 0))
    return "\n".join(part for part in (facts, skills) if part)


def _start_context(db: sqlite3.Connection, today: str, budget: int) -> str:
    rows = db.execute(
        "SELECT entity, key, value, valid_from, quote FROM facts"
        " WHERE valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) ORDER BY valid_from DESC, entity, key LIMIT ?",
        (today, today, max(1, budget // 40)),
    ).fetchall()
    text, _used = _fill(START_HEADER, [_fact_line(e, k, v, since, "") for e, k, v, since, _q in rows], budget)
    return text


def context_for(options: Options, payload: object, today: str) -> tuple[str, str]:
    """(the event, the context to hand the model) for one hook call; "" when nothing applies."""
    if not isinstance(payload, dict):
        raise HookError("stdin is not a JSON object")
    event = payload.get("hook_event_name")
    if event not in EVENTS:
        raise HookError(f"hook_event_name {event!r} is not one this hook answers ({', '.join(EVENTS)})")
    cwd = payload.get("cwd")
    extra = payload.get("extra")
    if event == "pre_llm_call":  # Hermes: the user's message is in `extra`
        prompt = extra.get("user_message") if isinstance(extra, dict) else None
    else:
        prompt = payload.get("prompt")
    db = _connect(options.index)
    try:
        meta = _meta(db)
        if not _answers_here(meta, cwd if isinstance(cwd, str) else ""):
            return event, ""
        if event == "SessionStart":
            return event, _start_context(db, today, options.budget)
        if not isinstance(prompt, str):
            raise HookError(f"{event} without a prompt string")
        return event, _prompt_context(db, meta, prompt, today, options.budget)
    finally:
        db.close()


def answer(event: str, context: str) -> dict[str, object]:
    """The runtime's JSON for `context`: Hermes's `context`, else `hookSpecificOutput`."""
    if event == "pre_llm_call":
        return {"context": context}
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}


def _state_folder(index: str | None) -> str | None:
    """The folder of `index` if it is an agent's state folder (it holds the index or the
    agent's store), else None: a mistyped `--index` never leaves a log in a stranger's folder."""
    if not index:
        return None
    folder = os.path.dirname(os.path.abspath(index))
    if os.path.isfile(index) or os.path.isdir(os.path.join(folder, STORE)):
        return folder
    return None


def _log(index: str | None, message: str, stderr: TextIO) -> None:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = f"{stamp} metaeng-daemon hook: {message}\n"
    folder = _state_folder(index)
    if folder:
        try:
            bounded_log.append(os.path.join(folder, "hook.log"), line.encode("utf-8"), LOG_MAX_BYTES)
            return
        except OSError:
            pass
    stderr.write(line)


def main(argv: Sequence[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """Run the hook; always 0 (see the module docstring)."""
    index: str | None = None
    try:
        options = parse(argv)
        index = options.index
        payload = json.loads(stdin.read(MAX_STDIN))
        event, context = context_for(options, payload, time.strftime("%Y-%m-%d", time.gmtime()))
        if context:
            stdout.write(json.dumps(answer(event, context)))
            stdout.write("\n")
    except HookError as exc:
        _log(index, str(exc), stderr)
    except Exception as exc:  # fail open: a prompt is never blocked by the daemon
        _log(index, f"{type(exc).__name__}: {exc}", stderr)
    return 0


def run() -> int:
    """The process entry (`daemon.launch`): `metaeng-daemon hook …` from the runtime."""
    return main(sys.argv[2:], sys.stdin, sys.stdout, sys.stderr)
