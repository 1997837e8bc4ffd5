#!/usr/bin/env python3
"""Validate the impact corpus (benchmarks/impact_corpus/corpus.yaml describes the format).

Standalone: needs only the standard library and PyYAML.

    python benchmarks/impact_corpus/check_corpus.py [CORPUS_DIR]

Checks that every file parses and carries its fields; that every label points at an existing
session and turn of the right role and quotes that turn verbatim; that ids are unique; that
recurrences come in later sessions than the first statement and compliance after it; that each
fate has the evidence it claims; and the corpus-wide minimums (built in, or a `minimums:` mapping
in the validated corpus.yaml, which replaces them). Look-alike categories are those the validated
corpus.yaml declares. Prints the counts as tables.
Exits 1 naming file and line on any error.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import yaml

ROLES = {"user", "assistant"}
SHAPES = {"plain", "claude-code", "codex"}
KINDS = {"correction", "preference", "standing_instruction"}
FATES = {"learned_respected", "learned_repeated", "never_learned"}
SUBJECT_RE = re.compile(r"^(fact:[a-z0-9_]+(\.[a-z0-9_]+)+|skill:[a-z0-9][a-z0-9-]*|instruction:[a-z0-9][a-z0-9-]*)$")
SESSION_RE = re.compile(r"^(\d{2})-[a-z0-9][a-z0-9-]*\.yaml$")
MINIMUMS = {  # corpus-wide, from the brief of issue 34, item 6
    "agents": 6,
    "items": 60,
    "learned_respected": 15,
    "learned_repeated": 15,
    "never_learned": 15,
    "recurrences": 40,
    "lookalikes": 60,
}


class Line(int):
    """A line number (1-based) attached to a mapping under the key '__line__'."""


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    mapping["__line__"] = Line(node.start_mark.line + 1)
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class Checker:
    def __init__(self, root: Path):
        self.root = root
        self.errors: list[str] = []

    def err(self, path: Path, line, msg: str) -> None:
        try:
            rel = path.resolve().relative_to(Path.cwd())
        except ValueError:
            rel = path
        self.errors.append(f"{rel}:{int(line) if line else 1}: {msg}")

    def load(self, path: Path):
        try:
            with path.open(encoding="utf-8") as fh:
                return yaml.load(fh, Loader=_Loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            self.err(path, mark.line + 1 if mark else 1, f"does not parse: {exc}")
        except OSError as exc:
            self.err(path, 1, f"cannot read: {exc}")
        return None

    def need(self, path: Path, obj, key: str, types, line=None):
        if not isinstance(obj, dict) or key not in obj:
            self.err(path, line or (obj.get("__line__") if isinstance(obj, dict) else 1), f"missing field '{key}'")
            return None
        val = obj[key]
        if not isinstance(val, types):
            self.err(path, obj.get("__line__"), f"field '{key}' has the wrong type ({type(val).__name__})")
            return None
        return val


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent
    c = Checker(root)

    # --- corpus.yaml -------------------------------------------------------------------------
    meta_path = root / "corpus.yaml"
    meta = c.load(meta_path) or {}
    for key, typ in (("version", int), ("name", str), ("description", str), ("categories", dict),
                     ("languages", dict), ("label_schema", dict)):
        c.need(meta_path, meta, key, typ)
    categories = {k for k in (meta.get("categories") or {}) if k != "__line__"}
    languages = {k for k in (meta.get("languages") or {}) if k != "__line__"}

    agents_dir = root / "agents"
    agent_dirs = sorted(p for p in agents_dir.iterdir() if p.is_dir()) if agents_dir.is_dir() else []
    if not agent_dirs:
        c.err(agents_dir, 1, "no agent directories")

    seen_ids: dict[str, str] = {}
    # tables
    per_agent: dict[str, Counter] = {}
    fate_kind = Counter()
    cat_count = Counter()
    lang_count: dict[str, Counter] = defaultdict(Counter)
    shape_count = Counter()

    for adir in agent_dirs:
        agent = adir.name
        row = Counter()
        per_agent[agent] = row
        # --- sessions --------------------------------------------------------------------------
        sessions: dict[int, dict] = {}
        sdir = adir / "sessions"
        files = sorted(sdir.glob("*.yaml")) if sdir.is_dir() else []
        if not files:
            c.err(sdir, 1, "no sessions")
        for f in files:
            m = SESSION_RE.match(f.name)
            if not m:
                c.err(f, 1, "file name must be NN-slug.yaml")
                continue
            num = int(m.group(1))
            doc = c.load(f)
            if not isinstance(doc, dict):
                if doc is not None:
                    c.err(f, 1, "session is not a mapping")
                continue
            date = c.need(f, doc, "date", dt.date)
            lang = c.need(f, doc, "language", str)
            shape = c.need(f, doc, "runtime_shape", str)
            turns = c.need(f, doc, "transcript", list)
            if lang is not None and lang not in languages:
                c.err(f, doc["__line__"], f"language '{lang}' is not declared in corpus.yaml")
            if shape is not None and shape not in SHAPES:
                c.err(f, doc["__line__"], f"runtime_shape '{shape}' is not one of {sorted(SHAPES)}")
            clean_turns = []
            for t in turns or []:
                if not isinstance(t, dict):
                    c.err(f, doc["__line__"], "a transcript entry is not a mapping")
                    continue
                role = c.need(f, t, "role", str)
                content = c.need(f, t, "content", str)
                if role is not None and role not in ROLES:
                    c.err(f, t["__line__"], f"role '{role}' is not user or assistant")
                if not (content or "").strip():
                    c.err(f, t["__line__"], "empty content")
                clean_turns.append((role, content or ""))
            if turns is not None and not 4 <= len(clean_turns) <= 14:
                c.err(f, doc["__line__"], f"{len(clean_turns)} turns; a session has 4 to 14")
            if num in sessions:
                c.err(f, 1, f"two sessions numbered {num:02d}")
            sessions[num] = {"file": f, "date": date, "lang": lang, "turns": clean_turns}
            row["sessions"] += 1
            row["turns"] += len(clean_turns)
            if shape:
                shape_count[shape] += 1
        nums = sorted(sessions)
        if nums and nums != list(range(1, len(nums) + 1)):
            c.err(sdir, 1, f"sessions must be numbered 01..{len(nums):02d} without gaps, found {nums}")
        if files and not 8 <= len(nums) <= 14:
            c.err(sdir, 1, f"{len(nums)} sessions; an agent has 8 to 14")
        dates = [(n, sessions[n]["date"]) for n in nums if isinstance(sessions[n]["date"], dt.date)]
        for (n1, d1), (n2, d2) in itertools.pairwise(dates):
            if d2 < d1:
                c.err(sessions[n2]["file"], 1, f"date {d2} is before session {n1:02d}'s {d1}")
        if len(dates) >= 2:
            span = (dates[-1][1] - dates[0][1]).days
            if not 28 <= span <= 56:
                c.err(sdir, 1, f"sessions span {span} days; an agent's span 4 to 8 weeks (28-56 days)")

        def locate(path: Path, label: dict, role_wanted: str, sessions: dict = sessions, agent: str = agent):
            """Check one {session, turn, quote}; return (session number, span) or None."""
            line = label.get("__line__")
            s, t, q = label.get("session"), label.get("turn"), label.get("quote")
            if not isinstance(s, int) or not isinstance(t, int) or not isinstance(q, str) or not q.strip():
                c.err(path, line, "a label needs session (int), turn (int) and a non-empty quote")
                return None
            if s not in sessions:
                c.err(path, line, f"session {s:02d} does not exist for agent {agent}")
                return None
            turns_ = sessions[s]["turns"]
            if not 1 <= t <= len(turns_):
                c.err(path, line, f"turn {t} does not exist in session {s:02d} ({len(turns_)} turns)")
                return None
            role, content = turns_[t - 1]
            if role != role_wanted:
                c.err(path, line, f"session {s:02d} turn {t} is spoken by the {role}; this label needs a {role_wanted} turn")
            pos = content.find(q)
            if pos < 0:
                c.err(path, line, f"quote is not a verbatim substring of session {s:02d} turn {t}: {q!r}")
                return None
            lab_lang = label.get("language", sessions[s]["lang"])
            if lab_lang not in languages:
                c.err(path, line, f"language '{lab_lang}' is not declared in corpus.yaml")
            return s, t, (pos, pos + len(q)), lab_lang

        spans: dict[tuple[int, int], list[tuple[tuple[int, int], str, Path, int]]] = defaultdict(list)

        # --- items -----------------------------------------------------------------------------
        ipath = adir / "items.yaml"
        idoc = c.load(ipath) or {}
        items = c.need(ipath, idoc, "items", list) or []
        if idoc and idoc.get("agent") != agent:
            c.err(ipath, idoc.get("__line__"), f"agent field should be '{agent}'")
        for it in items:
            if not isinstance(it, dict):
                c.err(ipath, 1, "an item is not a mapping")
                continue
            line = it["__line__"]
            iid = c.need(ipath, it, "id", str)
            kind = c.need(ipath, it, "kind", str)
            subject = c.need(ipath, it, "subject", str)
            fate = c.need(ipath, it, "fate", str)
            occ = c.need(ipath, it, "occurrences", list) or []
            if iid is not None:
                if iid in seen_ids:
                    c.err(ipath, line, f"id '{iid}' already used in {seen_ids[iid]}")
                seen_ids[iid] = str(ipath.relative_to(root))
            if kind is not None and kind not in KINDS:
                c.err(ipath, line, f"kind '{kind}' is not one of {sorted(KINDS)}")
            if subject is not None and not SUBJECT_RE.match(subject):
                c.err(ipath, line, f"subject '{subject}' is not fact:<entity>.<key>, skill:<name> or instruction:<slug>")
            if fate is not None and fate not in FATES:
                c.err(ipath, line, f"fate '{fate}' is not one of {sorted(FATES)}")
            located = []
            for o in occ:
                if not isinstance(o, dict):
                    c.err(ipath, line, "an occurrence is not a mapping")
                    continue
                r = locate(ipath, o, "user")
                if r:
                    located.append((r, o["__line__"]))
                    spans[(r[0], r[1])].append((r[2], f"item {iid}", ipath, o["__line__"]))
            if not occ:
                c.err(ipath, line, "an item needs at least one occurrence")
            if located:
                first_s = located[0][0][0]
                for (s, _t, _, _lang), oline in located[1:]:
                    if s <= first_s:
                        c.err(ipath, oline, f"recurrence in session {s:02d} is not later than the first statement (session {first_s:02d})")
                for (_s, _t, _, lang), _l in located:
                    lang_count[lang]["item occurrences"] += 1
            complied = it.get("complied", [])
            if not isinstance(complied, list):
                c.err(ipath, line, "complied must be a list")
                complied = []
            first_s = located[0][0][0] if located else None
            for cp in complied:
                if not isinstance(cp, dict):
                    c.err(ipath, line, "a complied entry is not a mapping")
                    continue
                r = locate(ipath, cp, "assistant")
                if r and first_s is not None and r[0] <= first_s:
                    c.err(ipath, cp["__line__"], f"compliance in session {r[0]:02d} is not later than the first statement (session {first_s:02d})")
            n_occ = len(occ)
            if fate == "learned_respected":
                if n_occ != 1:
                    c.err(ipath, line, "learned_respected: stated once, so exactly one occurrence")
                if not complied:
                    c.err(ipath, line, "learned_respected needs at least one 'complied' entry in a later session")
            elif fate == "learned_repeated":
                if n_occ < 2:
                    c.err(ipath, line, "learned_repeated needs at least one recurrence")
            elif fate == "never_learned" and complied:
                c.err(ipath, line, "never_learned cannot have 'complied' entries")
            row["items"] += 1
            row["recurrences"] += max(0, n_occ - 1)
            row["complied"] += len(complied)
            if fate in FATES:
                row[fate] += 1
            if kind in KINDS:
                row[kind] += 1
            if fate in FATES and kind in KINDS:
                fate_kind[(kind, fate)] += 1

        # --- lookalikes ------------------------------------------------------------------------
        lpath = adir / "lookalikes.yaml"
        ldoc = c.load(lpath) or {}
        looks = c.need(lpath, ldoc, "lookalikes", list) or []
        if ldoc and ldoc.get("agent") != agent:
            c.err(lpath, ldoc.get("__line__"), f"agent field should be '{agent}'")
        for lk in looks:
            if not isinstance(lk, dict):
                c.err(lpath, 1, "a look-alike is not a mapping")
                continue
            cat = c.need(lpath, lk, "category", str)
            if cat is not None and cat not in categories:
                c.err(lpath, lk["__line__"], f"category '{cat}' is not declared in corpus.yaml")
            role_wanted = "assistant" if cat == "assistant_self_correction" else "user"
            r = locate(lpath, lk, role_wanted)
            if r:
                spans[(r[0], r[1])].append((r[2], f"look-alike {cat}", lpath, lk["__line__"]))
                lang_count[r[3]]["look-alikes"] += 1
            row["lookalikes"] += 1
            if cat:
                cat_count[cat] += 1

        # a look-alike must not overlap a planted item's quote in the same turn
        for (s, t), lst in spans.items():
            for i, (a, la, pa, lna) in enumerate(lst):
                for b, lb, pb, lnb in lst[i + 1:]:
                    if a[0] < b[1] and b[0] < a[1] and ("look-alike" in la) != ("look-alike" in lb):
                        c.err(pb, lnb, f"{lb} overlaps {la} ({pa.name} line {lna}) in session {s:02d} turn {t}")

    # --- corpus-wide minimums ----------------------------------------------------------------------
    total = Counter()
    for row in per_agent.values():
        total.update(row)
    got = {"agents": len(per_agent), "items": total["items"], "recurrences": total["recurrences"],
           "lookalikes": total["lookalikes"], **{f: total[f] for f in FATES}}
    # a corpus may carry its own `minimums:` mapping (a smaller held-out corpus); else the built-in ones
    minimums = MINIMUMS
    if isinstance(meta.get("minimums"), dict):
        minimums = {k: v for k, v in meta["minimums"].items() if k != "__line__"}
        for key, minimum in minimums.items():
            if key not in got or not isinstance(minimum, int):
                c.err(meta_path, meta["minimums"]["__line__"], f"minimums: '{key}' must be one of {sorted(got)} with an int")
        minimums = {k: v for k, v in minimums.items() if k in got and isinstance(v, int)}
    for key, minimum in minimums.items():
        if got[key] < minimum:
            c.err(meta_path, 1, f"corpus has {got[key]} {key}; at least {minimum} required")

    # --- tables ------------------------------------------------------------------------------------
    def table(title, header, rows):
        widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
        print(f"\n{title}")
        print("  ".join(str(h).ljust(w) for h, w in zip(header, widths, strict=False)))
        print("  ".join("-" * w for w in widths))
        for r in rows:
            print("  ".join(str(x).rjust(w) if isinstance(x, int) else str(x).ljust(w) for x, w in zip(r, widths, strict=False)))

    cols = ["sessions", "turns", "items", "learned_respected", "learned_repeated", "never_learned",
            "recurrences", "complied", "lookalikes"]
    rows = [[a] + [per_agent[a][k] for k in cols] for a in per_agent]
    rows.append(["TOTAL"] + [total[k] for k in cols])
    table("Per agent", ["agent", *cols], rows)
    fates = sorted(FATES)
    rows = [[k] + [fate_kind[(k, f)] for f in fates] + [sum(fate_kind[(k, f)] for f in fates)] for k in sorted(KINDS)]
    rows.append(["TOTAL"] + [sum(fate_kind[(k, f)] for k in KINDS) for f in fates] + [sum(fate_kind.values())])
    table("Items by kind and fate", ["kind", *fates, "total"], rows)
    rows = [[k, cat_count[k]] for k in sorted(categories)] + [["TOTAL", sum(cat_count.values())]]
    table("Look-alikes by category", ["category", "count"], rows)
    rows = [[lang, lang_count[lang]["item occurrences"], lang_count[lang]["look-alikes"]] for lang in sorted(lang_count)]
    table("Labels by language (of the labelled text)", ["language", "item occurrences", "look-alikes"], rows)
    table("Sessions by runtime shape", ["runtime_shape", "sessions"], [[k, v] for k, v in sorted(shape_count.items())])

    if c.errors:
        print(f"\n{len(c.errors)} error(s):", file=sys.stderr)
        for e in c.errors:
            print(e, file=sys.stderr)
        return 1
    print("\nOK: corpus is valid.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
