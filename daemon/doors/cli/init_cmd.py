"""`init`: attach the daemon to the agent runtimes on this machine in one step.

Finds the runtimes' sessions (daemon.transcripts.discovery), lets the person pick projects
(numbers at a terminal; `--project`, `--runtime`, `--all` for scripts), writes the config
with each runtime's preset (daemon.doors.init_config), checks it as `config check` does,
then makes one `init` run per agent: the store imports the agent's files (the baseline
every later run is undone against), the delivery index is built, and the prompt hook is
proposed in the runtime's settings file through the review queue (daemon.wiring.hook_wiring).
It prints the next steps. `init --hooks` does the last part alone for an existing config.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from daemon.config import Deployment
from daemon.doors.cli import config_cmd
from daemon.doors.cli.common import CliContext, add_json
from daemon.doors.documents import AttachedAgent, ConfigChecked, FoundProject, InitDocument, InitListDocument
from daemon.doors.init_config import Model, agent_name, config_text
from daemon.kernel import atomic
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.review_queue import proposal_write
from daemon.kernel.view import AgentView
from daemon.run.manual import run_manual
from daemon.run.session import AgentSession
from daemon.transcripts.discovery import Found, discover
from daemon.wiring import delivery, hook_wiring

RUNTIMES = ("claude-code", "codex", "openclaw", "hermes")
LOCAL_PORTS = {8080: "llama.cpp", 8000: "vllm", 11434: "ollama"}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "init",
        help="find the agent runtimes on this machine, write a config for the projects you pick",
        description=(
            "Find Claude Code projects (~/.claude/projects), Codex sessions grouped by project "
            "(~/.codex/sessions), OpenClaw agents (~/.openclaw/agents) and Hermes profiles (~/.hermes); "
            "write a config (--config, default for a user ~/.config/metaeng-daemon/config.yaml) with one "
            "agent per chosen project on its runtime's preset (instruction file, skills folder, facts view, "
            "coding keys); check it; then, per agent, import its files into its store, build the delivery "
            "index and propose the prompt hook (.claude/settings.local.json, .codex/hooks.json) for review. "
            "At a terminal it asks which projects; scripts pass --project, --runtime or --all."
        ),
    )
    parser.add_argument("--list", action="store_true", help="only list what was found; write nothing")
    parser.add_argument(
        "--runtime", action="append", choices=RUNTIMES, default=[], help="only this runtime's projects (repeatable)"
    )
    parser.add_argument(
        "--project", action="append", default=[], metavar="DIR",
        help="attach the sessions that ran in DIR (or the OpenClaw agent / Hermes profile of that name); repeatable",
    )
    parser.add_argument("--all", action="store_true", help="attach every project found")
    parser.add_argument("--state-dir", metavar="DIR", help="where the stores and indexes go (default: $XDG_STATE_HOME/metaeng-daemon)")
    parser.add_argument("--model-url", metavar="URL", help="an OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1)")
    parser.add_argument("--model", metavar="NAME", help="the model name to ask for (with --model-url)")
    parser.add_argument(
        "--api-key-env", metavar="VAR",
        help="the environment variable holding the API key (default: none for a loopback URL, else OPENAI_API_KEY)",
    )
    parser.add_argument("--dialect", choices=("openai", "llama.cpp", "vllm", "ollama"), help="the server's dialect")
    for side in ("input", "output"):
        parser.add_argument(
            f"--price-{side}", type=float, metavar="USD",
            help=f"USD per million {side} tokens, for the budget (default 0 for a loopback URL; required otherwise)",
        )
    parser.add_argument("--force", action="store_true", help="replace an existing config (kept as <config>.bak)")
    parser.add_argument(
        "--hooks", action="store_true",
        help="write no config: for the agents of the existing one, build the delivery index and propose the hook",
    )
    add_json(parser)
    parser.set_defaults(handler=handle)


def _model(args: argparse.Namespace) -> Model | None:
    if args.model_url is None and args.model is None:
        return None
    if not args.model_url or not args.model:
        raise DaemonError("--model-url and --model go together: give both, or neither (and set the model later)")
    local = (urlsplit(args.model_url).hostname or "") in ("127.0.0.1", "localhost", "::1")
    key = args.api_key_env
    if key is None and not local:
        key = "OPENAI_API_KEY"
    prices = (args.price_input, args.price_output)
    if not local and None in prices:
        raise DaemonError("a model that is not on this machine costs money: give --price-input and --price-output (USD per million tokens) so the budget can hold")
    dialect = args.dialect
    if dialect is None and local:  # each local server's default port (docs/how-to/local-model.md)
        dialect = LOCAL_PORTS.get(urlsplit(args.model_url).port or 0)
    return Model(args.model_url, args.model, key, dialect, prices[0] or 0.0, prices[1] or 0.0)


def _state_dir(args: argparse.Namespace, env: Mapping[str, str]) -> Path:
    if args.state_dir:
        return Path(args.state_dir).expanduser().resolve()
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    return Path(env.get("XDG_STATE_HOME") or home / ".local" / "state") / "metaeng-daemon"


def _row(index: int, found: Found) -> dict[str, Any]:
    return {
        "number": index,
        "runtime": found.runtime,
        "project": found.project,
        "home": str(found.home),
        "root": str(found.root),
        "glob": found.glob,
        "sessions": found.sessions,
        "last": found.last.isoformat() if found.last else None,
        "unreadable": found.unreadable,
    }


def _print_found(found: Sequence[Found], context: CliContext) -> None:
    if not found:
        context.out.line("no agent runtime sessions found (looked in ~/.claude/projects, ~/.codex/sessions, ~/.openclaw/agents, ~/.hermes)")
        return
    context.out.line("found:")
    for index, entry in enumerate(found, start=1):
        when = entry.last.strftime("%Y-%m-%d") if entry.last else "-"
        context.out.line(f"  {index:>3}  {entry.runtime:<12} {entry.project}  ({entry.sessions} session(s), newest {when})")


def _matches(entry: Found, wanted: str) -> bool:
    if entry.runtime in ("claude-code", "codex"):
        return os.path.realpath(os.path.expanduser(wanted)) == os.path.realpath(entry.project)
    return wanted == entry.project


def _one_per_home(chosen: list[Found]) -> list[Found]:
    """`chosen`, refused if two of them would share one agent home: sessions of two runtimes
    in one folder (`--runtime` picks one), or OpenClaw agents in one workspace (`--project`
    picks one; OpenClaw gives each its own in its config)."""
    homes: dict[str, list[Found]] = {}
    for entry in chosen:
        homes.setdefault(os.path.realpath(entry.home), []).append(entry)
    problems = []
    for home, entries in sorted(homes.items()):
        if len(entries) < 2:
            continue
        if {e.runtime for e in entries} == {"openclaw"}:
            entries = sorted(entries, key=lambda e: e.project)
            names = ", ".join(e.project for e in entries)
            state = Path(entries[0].root).parent.parent  # <state folder>/agents/<id>
            problems.append(
                f"the OpenClaw agents {names} all work in {home}: OpenClaw gives an agent its own workspace when its "
                f"entry in {state / 'openclaw.json'} names one (agents.list[].workspace) or a folder "
                f"{state}/workspace-<id> exists (`openclaw agents add`); or attach one of them alone, as with "
                f"--project {entries[0].project}"
            )
        else:
            runtimes = ", ".join(e.runtime for e in entries)
            problems.append(f"{home} has sessions of several runtimes ({runtimes}): pick one with --runtime")
    if problems:
        raise DaemonError(f"two agents cannot share one home: {'; '.join(problems)} (nothing written)")
    return chosen


def _choose(args: argparse.Namespace, found: list[Found], context: CliContext) -> list[Found]:
    return _one_per_home(_picked(args, found, context))


def _picked(args: argparse.Namespace, found: list[Found], context: CliContext) -> list[Found]:
    if args.all:
        return found
    if args.project:
        chosen = [f for f in found if any(_matches(f, p) for p in args.project)]
        missing = [p for p in args.project if not any(_matches(f, p) for f in found)]
        if missing:
            raise DaemonError(
                f"no sessions found for {', '.join(repr(m) for m in missing)} (see `init --list`; a project "
                "appears once its runtime has written a session there)"
            )
        return chosen
    if not sys.stdin.isatty() or args.json:
        raise DaemonError("choose what to attach: --project DIR (repeatable), --runtime R with --all, or --all; `init --list` shows what was found")
    _print_found(found, context)
    answer = input("attach which? numbers separated by spaces, 'all', or nothing to stop: ").strip()
    if not answer:
        raise DaemonError("nothing chosen; nothing written")
    if answer == "all":
        return found
    picked: list[Found] = []
    for word in answer.replace(",", " ").split():
        if not word.isdigit() or not 1 <= int(word) <= len(found):
            raise DaemonError(f"{word!r} is not a number from the list (1-{len(found)}); nothing written")
        picked.append(found[int(word) - 1])
    return picked


def _write_config(path: Path, text: str, force: bool, context: CliContext) -> tuple[str | None, dict[str, Any]]:
    """Check `text` as `config check` does and, if it passes, write it atomically at `path`
    (a replaced config is kept as .bak). Returns (the backup's path, the check's document);
    a config that fails its check is not written."""
    if path.exists() and not force:
        raise DaemonError(f"{path} exists; pass --force to replace it (kept as {path}.bak), or `init --hooks` to wire its agents")
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.init-{os.getpid()}")
    try:
        atomic.write_bytes(draft, text.encode("utf-8"))
        check = _check(context, draft)
        if not check.get("ok"):
            return None, check
        backup = None
        if path.exists():
            backup = path.with_name(path.name + ".bak")
            atomic.write_bytes(backup, path.read_bytes())
        os.replace(draft, path)
        return (str(backup) if backup else None), check
    finally:
        draft.unlink(missing_ok=True)


def _check(context: CliContext, path: Path) -> dict[str, Any]:
    """`config check --json` on the config at `path`, as a document."""
    out = io.StringIO()
    quiet = dataclasses.replace(context, out=type(context.out)(out), err=type(context.err)(io.StringIO()),
                                config_path=str(path), config_origin="option")
    config_cmd.handle_check(argparse.Namespace(json=True, strict=False), quiet)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def _attach(deployment: Deployment, name: str, context: CliContext) -> dict[str, Any]:
    """The `init` run of one agent: import, delivery index, the hook proposal."""
    agent = deployment.agent(name)
    now = context.clock()
    index = StateLayout(deployment.state_dir).agent(name).delivery_index
    said: list[str] = []

    def plan(_session: AgentSession, view: AgentView, run_id: str) -> Changeset:
        proposal, why = hook_wiring.wiring_proposal(agent, view, index, now, run_id)
        said.append(why)
        if proposal is None:
            return Changeset(pass_name="init", status="nothing", reason=why)
        return Changeset(
            pass_name="init", status="changes", reason=why, writes=(proposal_write(proposal),), report=(why,)
        )

    result = run_manual(
        deployment, name, label="init", plan=plan, now=now, lock_timeout=deployment.config.run_lock_timeout_seconds
    )
    if result.run_id is None:  # nothing committed, so the applier built no index: build it now
        delivery.refresh(agent, StateLayout(deployment.state_dir).agent(name), now)
    return {
        "agent": name,
        "runtime": agent.transcripts.format,
        "home": str(agent.home),
        "run": result.run_id,
        "hook": said[0] if said else None,
        "hook_command": hook_wiring.hook_command(agent.transcripts.format, index),
    }


def _next_steps(context: CliContext, attached: list[dict[str, Any]], model: bool, found_alone: bool) -> list[str]:
    steps = []
    if not found_alone:
        steps.append(f"export METAENG_CONFIG={context.config_path}   # so every command finds this config")
    if not model:
        steps.append("set a model in the config (a local server works: docs/how-to/local-model.md), then `config check`")
    for item in attached:
        if item["run"] and "proposed" in (item["hook"] or ""):
            steps.append(f"review the hook for {item['agent']}: {context.command('review', 'list', '--agent', item['agent'])}, then `review approve ID`")
        elif item["runtime"] == "hermes":
            steps.append(f"for {item['agent']}, add to ~/.hermes/config.yaml: hooks: {{pre_llm_call: [{{command: \"{item['hook_command']}\", timeout: 10}}]}}")
    names = " ".join(i["agent"] for i in attached)
    steps.append(f"run each agent once now: {context.command('once', '--agent', attached[0]['agent'])}" + (f" (and {names})" if len(attached) > 1 else ""))
    steps.append(f"keep it running as your own user: {context.command('install-service', '--user')}")
    return steps


def handle(args: argparse.Namespace, context: CliContext) -> int:
    if args.hooks:
        deployment = context.deployment()
        attached = [_attach(deployment, name, context) for name in deployment.agents]
        return _report(args, context, {"config": context.config_path, "written": False, "agents": attached}, attached, deployment.model is not None)
    found = [f for f in discover(context.env) if not args.runtime or f.runtime in args.runtime]
    if args.list:
        if args.json:
            context.out.document(InitListDocument(found=[FoundProject(**_row(i, f)) for i, f in enumerate(found, start=1)]))
        else:
            _print_found(found, context)
        return 0
    if not found:
        _print_found(found, context)
        return 1
    model = _model(args)
    chosen = _choose(args, found, context)
    named: list[tuple[str, Found]] = []
    for entry in chosen:
        named.append((agent_name(entry, [n for n, _ in named]), entry))
    path = Path(context.config_path)
    backup, check = _write_config(path, config_text(named, _state_dir(args, context.env), model), args.force, context)
    document: dict[str, Any] = {"config": str(path), "written": check.get("ok", False), "backup": backup, "check": check}
    if not check.get("ok"):
        document["agents"] = []
        return _report(args, context, document, [], model is not None)
    deployment = context.deployment()
    attached = [_attach(deployment, name, context) for name, _ in named]
    document["agents"] = attached
    return _report(args, context, document, attached, model is not None)


def _report(args: argparse.Namespace, context: CliContext, document: dict[str, Any], attached: list[dict[str, Any]], model: bool) -> int:
    check = document.get("check", {"ok": True, "problems": [], "warnings": []})
    document["next"] = _next_steps(context, attached, model, context.config_origin != "option") if attached else []
    if args.json:
        checked = ConfigChecked(**{k: check.get(k, []) if k != "ok" else bool(check.get("ok")) for k in ("ok", "problems", "warnings")})
        printed = InitDocument(
            config=document["config"], written=document["written"], backup=document.get("backup"),
            check=checked if "check" in document else None,
            agents=[AttachedAgent(**a) for a in attached], next=document["next"],
        )
        context.out.document(printed)
        return 0 if check.get("ok") else 1
    if document.get("written"):
        context.out.line(f"wrote {document['config']}" + (f" (the previous one kept as {document['backup']})" if document.get("backup") else ""))
    for problem in check.get("problems", []):
        context.out.line(f"problem: {problem}")
    for warning in check.get("warnings", []):
        context.out.line(f"warning: {warning}")
    if not check.get("ok"):
        context.out.line(f"the config did not pass its check: nothing written to {document['config']}")
        return 1
    for item in attached:
        context.out.line(f"agent {item['agent']} ({item['runtime']}, {item['home']}): {item['hook']}")
    context.out.line("next:")
    for step in document["next"]:
        context.out.line(f"  {step}")
    return 0
